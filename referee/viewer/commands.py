"""`b99 replay render` (one frame as SVG) and `b99 replay view` (the viewer in a browser, served locally)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from referee.cli_options import OutputFile
from referee.errors import ArenaError


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    raise SystemExit(2)


@click.command("render")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--step", type=int, default=-1, show_default=True, help="Step to draw (0 = the start; -1 = the last).")
@click.option("--seat", type=int, default=None, help="Draw this seat's view (default: the spectator's).")
@click.option("--out", "out", type=OutputFile(), required=True, help="Write the SVG here.")
def replay_render(path: str, step: int, seat: int | None, out: str) -> None:
    """Draw one frame of the replay at PATH as an SVG picture of the table."""
    from referee.replay import read_replay
    from referee.viewer.timeline import Timeline

    try:
        timeline = Timeline.from_records(read_replay(path))
        index = step if step >= 0 else len(timeline.steps) + step
        picture = timeline.frame(index, seat)
    except ArenaError as error:
        _fail(str(error))
        return
    Path(out).write_text(picture, encoding="utf-8")
    click.echo(f"step {index} of {len(timeline.steps) - 1} ({'spectator' if seat is None else f'seat {seat}'}) written to {out}")


@click.command("view")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to serve on.")
@click.option("--port", type=int, default=0, help="Port to serve on (0 = any free port).")
@click.option("--step", type=int, default=0, help="Step to open at.")
def replay_view(path: str, host: str, port: int, step: int) -> None:
    """Serve the replay viewer for PATH on a local web page (prints its URL; Ctrl-C stops)."""
    from referee.replay import read_replay
    from referee.viewer.app import ReplayPages
    from referee.viewer.server import serve
    from referee.viewer.timeline import Timeline

    try:
        timeline = Timeline.from_records(read_replay(path))
    except ArenaError as error:
        _fail(str(error))
        return
    pages = ReplayPages(lambda: timeline, start_step=step, replay_name=path, show_logs=True)
    server, url = serve(lambda method, subpath, query, body: pages.respond(subpath.lstrip("/"), query), host, port)
    click.echo(f"viewer of {path} ({timeline.game.name}, {len(timeline.steps)} steps) at {url}", )
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.shutdown()
