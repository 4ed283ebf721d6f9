"""The `b99` command line: games, matches, replays (and commands other packages plug in)."""

from __future__ import annotations

import json
import sys
import uuid
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from referee.bot_resolution import resolve_bot
from referee.cli_options import seed_option, variant_option
from referee.clock import TimeControl
from referee.errors import ArenaError
from referee.registry import all_games, get_game

console = Console()


def fail(message: str) -> None:
    """Print a one-line error and exit non-zero (never a traceback for bad input)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.group()
@click.version_option(package_name="b99-arena")
def main() -> None:
    """B99 Arena: run bots against each other on five board games."""


@main.command()
def games() -> None:
    """List the games and their config flags."""
    table = Table(title="Games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("players")
    table.add_column("flags (default)")
    for game in all_games():
        players = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
        flags = "\n".join(f"{flag.name}={json.dumps(flag.default)}" for flag in game.flags) or "-"
        table.add_row(game.id, game.name, players, flags)
    console.print(table)
    console.print("Rules, components and variants of each game: docs/games/<id>.md (for example docs/games/underground_dice.md)")


def print_report(report: Any) -> None:
    from referee.fault_text import fault_block
    from referee.rank_reasons import rank_reasons

    game = get_game(report.game)
    status = " · VOID" if getattr(report, "void", False) else ""
    table = Table(title=f"{report.game} · seed {report.seed} · match {report.match_id}{status}", caption=f"score: {game.score_unit}")
    ranks = [seat.rank for seat in report.seats]
    scores = [seat.score for seat in report.seats]
    reasons = (
        [""] * len(report.seats)
        if getattr(report, "void", False)
        else rank_reasons(game, ranks, scores, [seat.replaced for seat in report.seats], report.details or {})
    )
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("rank", justify="right", style="bold")
    table.add_column("score", justify="right")
    if any(reasons):
        table.add_column("why this rank")
    table.add_column("faults")
    for seat, reason in zip(report.seats, reasons):
        faults = "; ".join(f"{fault.kind}: {fault.detail}" for fault in seat.faults)
        if seat.replaced:
            faults = (faults + " (fallback played on, ranked last)").strip()
        score = "-" if report.void else f"{seat.score:g}"
        rank = str(seat.rank) if seat.rank else "-"
        table.add_row(str(seat.seat), seat.name, rank, score, *([reason or "-"] if any(reasons) else []), faults or "-")
    console.print(table)
    if report.void:
        console.print(f"[bold red]void[/bold red]: no result ({report.void_reason})", highlight=False)
    for seat in report.seats:
        if seat.faults:
            console.print(fault_block(f"seat {seat.seat} ({seat.name}):", seat.faults, seat.stderr_tail, seat.replaced))
    for seat in report.seats:
        sandbox = getattr(seat, "sandbox", None) or {}
        if sandbox:
            caps = ", ".join(f"{key} {sandbox[key].split(' (')[0]}" for key in ("memory", "cpu", "processes") if key in sandbox)
            console.print(f"seat {seat.seat} sandbox: {sandbox.get('level', '?')}" + (f" ({caps})" if caps else ""))
    if report.details:
        console.print("result details: " + json.dumps(report.details, sort_keys=True, default=str))
    console.print(f"{report.decisions} decisions in {report.duration_seconds:.2f}s")
    if report.replay_path:
        console.print(f"replay written to {report.replay_path}")


def default_sandbox_level() -> str:
    """strict where this machine provides it; otherwise none, said on stderr (basic must be asked for:
    it cannot bind what a bot needs, so a bot installed in a private directory would not start)."""
    from referee.sandbox import machine_support

    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("tcp"):
        click.echo("note: bots run unsandboxed (--sandbox none): a strict sandbox has no network, so not with --tcp", err=True)
        return "none"
    support = machine_support()
    if support.available("strict"):
        return "strict"
    click.echo(f"note: bots run unsandboxed (--sandbox none): no strict sandbox here ({support.missing['strict']})", err=True)
    return "none"


@main.command()
@click.argument("game")
@click.option("--bot", "bot_texts", multiple=True, required=True, help="A reference bot name or a command; once per seat.")
@seed_option
@variant_option
@click.option(
    "--replay",
    "replay_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the replay here (default: runs/<game>-<match id>.jsonl).",
)
@click.option("--time-per-decision", type=float, default=5.0, show_default=True, help="Seconds per decision.")
@click.option("--time-bank", type=float, default=30.0, show_default=True, help="Time bank in seconds.")
@click.option("--increment", type=float, default=0.0, show_default=True, help="Seconds added to the bank per decision.")
@click.option("--startup-time", type=float, default=15.0, show_default=True, help="Seconds a bot has to connect.")
@click.option("--strikes", type=int, default=0, show_default=True, help="Timeouts tolerated before the fallback takes over.")
@click.option("--tcp", is_flag=True, help="Serve bots on 127.0.0.1 instead of a Unix socket.")
@click.option("--in-process", is_flag=True, help="Run reference bots inside the referee (no processes, no gRPC).")
@click.option("--ask-forced", is_flag=True, help="Ask bots even for decisions with a single legal option.")
@click.option(
    "--sandbox",
    type=click.Choice(["none", "basic", "strict"]),
    default=lambda: default_sandbox_level(),
    show_default="strict where the machine provides it and without --tcp, else none",
    help="Confine bot processes: strict (namespaces, no network, own uid, caps), basic (own uid and caps), "
    "none (trusted local code). The match report says which level and caps were in force.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the match report as JSON.")
@click.option(
    "--from",
    "position_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Start from this position (a JSON file: b99 replay position ..., see docs/positions.md).",
)
def match(
    game: str,
    bot_texts: tuple[str, ...],
    seed: int | None,
    variants: tuple[tuple[str, str], ...],
    replay_path: str | None,
    time_per_decision: float,
    time_bank: float,
    increment: float,
    startup_time: float,
    strikes: int,
    tcp: bool,
    in_process: bool,
    ask_forced: bool,
    sandbox: str,
    as_json: bool,
    position_path: str | None,
) -> None:
    """Play one match of GAME between the given bots and print ranks and scores."""
    from referee.chance import fresh_seed

    from referee.match import MatchSpec, run_match

    try:
        game_object = get_game(game)
        position = None
        if position_path is not None:
            from referee.position import position_json, read_position

            if variants:
                fail("--variant cannot be given with --from: the position holds the game's config")
            position = position_json(read_position(position_path))
        else:
            game_object.make_config(len(bot_texts), dict(variants))
        control = TimeControl(
            per_decision_seconds=time_per_decision,
            bank_seconds=time_bank,
            increment_seconds=increment,
            startup_seconds=startup_time,
            strikes_allowed=strikes,
        )
        specs = [resolve_bot(text, game, in_process, sandbox) for text in bot_texts]
        match_id = uuid.uuid4().hex[:12]
        if replay_path is None:
            Path("runs").mkdir(exist_ok=True)
            replay_path = str(Path("runs") / f"{game}-{match_id}.jsonl")
        spec = MatchSpec(
            match_id=match_id,
            game=game,
            bots=specs,
            seed=seed if seed is not None else fresh_seed(),
            variants=dict(variants),
            time_control=control,
            replay_path=replay_path,
            ask_forced=ask_forced,
            transport="tcp" if tcp else "unix",
            position=position,
        )
        with console.status(f"playing {game}…"):
            report = run_match(spec)
    except ArenaError as error:
        fail(str(error))
        return
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        print_report(report)
    startup_faults = [seat for seat in report.seats if any(f.kind == "startup" for f in seat.faults)]
    if startup_faults or report.void:
        for seat in startup_faults:
            click.echo(f"error: seat {seat.seat} ({seat.name}) did not start: {seat.faults[0].detail}", err=True)
        sys.exit(1)


@main.group()
def replay() -> None:
    """Show or verify a replay file."""


@replay.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
def replay_verify(path: str) -> None:
    """Re-simulate PATH and check every event and the result."""
    from referee.replay import verify_replay

    try:
        verified = verify_replay(path)
    except ArenaError as error:
        fail(str(error))
        return
    result = verified.state.result()
    console.print(
        f"[green]ok[/green]: {path} re-simulates exactly ({verified.steps} steps, {verified.events} events; "
        f"ranks {list(result.ranks)}, scores {[f'{s:g}' for s in result.scores]})"
    )


@replay.command("position")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--step", type=int, required=True, help="The position after this many steps (0 = the start).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, writable=True), default=None, help="Write it here (default: print it).")
def replay_position(path: str, step: int, out_path: str | None) -> None:
    """Print (or write) the whole game state after STEP steps of a replay, as a position (docs/positions.md)."""
    from referee.position import position_json
    from referee.replay import read_replay
    from referee.replay_steps import state_at

    try:
        state = state_at(read_replay(path), step, path)
        data = position_json(state)
    except ArenaError as error:
        fail(str(error))
        return
    text = json.dumps(data, indent=1, ensure_ascii=False)
    if out_path is None:
        click.echo(text)
        return
    Path(out_path).write_text(text + "\n", encoding="utf-8")
    who = ", ".join(f"seat {seat}" for seat in state.deciding_seats()) if not state.is_terminal() and not state.is_chance_node() else ""
    click.echo(f"position after step {step} written to {out_path}" + (f" ({who} to decide)" if who else ""), err=True)


@replay.command("show")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, help="Show only what this seat saw (default: everything).")
@click.option("--limit", type=int, default=0, help="Show at most this many timeline rows (0 = all).")
@click.option("--json", "as_json", is_flag=True, help="Print the timeline as JSON, with the options each seat was offered and its think time.")
def replay_show(path: str, seat: int | None, limit: int, as_json: bool) -> None:
    """Print a replay's timeline: chance outcomes, decisions (forced, fallback) and events."""
    from referee.replay import read_replay, revealed_seed
    from referee.replay_steps import timeline_json

    try:
        records = read_replay(path)
        if as_json:
            data = timeline_json(records, seat, path)
            if limit:
                data["timeline"] = data["timeline"][:limit]
            click.echo(json.dumps(data, indent=1))
            return
    except ArenaError as error:
        fail(str(error))
        return
    header = records[0]
    console.print(
        f"[bold]{header['config']['game']}[/bold] · match {header.get('match_id')} · seed {revealed_seed(records)} · "
        f"seats {', '.join(f'{i}: {name}' for i, name in enumerate(header.get('seats', [])))}"
    )
    table = Table(show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("what")
    table.add_column("detail")
    rows = 0
    for record in records[1:]:
        kind = record.get("type")
        if kind == "chance":
            if seat is not None:
                continue
            table.add_row(str(rows), "chance", str(record.get("outcome")))
        elif kind == "decision":
            parts = []
            for who, option in record.get("choices", {}).items():
                if seat is not None and int(who) != seat:
                    continue
                how = record.get("how", {}).get(who, "")
                marker = "" if how == "bot" else f" [{how}]"
                parts.append(f"seat {who}: {option}{marker}")
            if not parts:
                continue
            table.add_row(str(rows), "decision", "; ".join(parts))
        elif kind == "event":
            audience = record.get("audience")
            if seat is not None and audience is not None and seat not in audience:
                continue
            who = "all" if audience is None else "seat " + ",".join(str(a) for a in audience)
            table.add_row(str(rows), f"event → {who}", f"{record.get('kind')} {json.dumps(record.get('data'), sort_keys=True)}")
        elif kind == "fault":
            if seat is not None and record.get("seat") != seat:
                continue
            table.add_row(str(rows), f"fault seat {record.get('seat')}", f"{record.get('kind')}: {record.get('detail')}")
        elif kind == "faults":
            if any(other.get("type") == "fault" for other in records):
                continue
            for index, faults in enumerate(record.get("seats", [])):
                for fault in faults:
                    table.add_row(str(rows), f"fault seat {index}", f"{fault['kind']}: {fault['detail']}")
        elif kind == "result":
            table.add_row(str(rows), "result", f"ranks {record.get('ranks')} scores {record.get('scores')}")
        elif kind == "void":
            table.add_row(str(rows), "void", f"no result: {record.get('reason')}")
        else:
            continue
        rows += 1
        if limit and rows >= limit:
            break
    console.print(table)


def _add_viewer_commands() -> None:
    """`b99 replay render` and `b99 replay view` live with the viewer (referee/viewer/commands.py)."""
    from referee.viewer.commands import replay_render, replay_view

    replay.add_command(replay_render)
    replay.add_command(replay_view)


_add_viewer_commands()


@main.command("bots")
def list_bots() -> None:
    """List the reference bots."""
    from bots.registry import bot_names, supports
    from referee.registry import game_ids

    table = Table(title="Reference bots")
    table.add_column("name", style="bold")
    table.add_column("plays")
    for name in bot_names():
        limited = name in ("heuristic", "learned")  # bots made for some games only
        plays = ", ".join(game for game in game_ids() if supports(name, game)) if limited else "every game"
        table.add_row(name, plays)
    console.print(table)


def _load_plugins() -> None:
    """Attach commands other packages register under the entry-point group `b99.commands`."""
    for entry in entry_points(group="b99.commands"):
        try:
            command = entry.load()
        except Exception as error:  # noqa: BLE001 - a broken plug-in must not break the core commands
            click.echo(f"warning: command {entry.name!r} could not be loaded: {error}", err=True)
            continue
        main.add_command(command, entry.name)


_load_plugins()


if __name__ == "__main__":
    main()  # python -m referee.cli ... (the same as b99 ...)
