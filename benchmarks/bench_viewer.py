"""The viewer's speed: one frame of a 4-player The Magnificent, and opening a 4-player replay in the viewer.

    python -m benchmarks.bench_viewer     # print the section and update it in docs/benchmarks.md
"""

from __future__ import annotations

import datetime as dt
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bots.random_bot import RandomBot
from referee.match import BotSpec, MatchSpec, run_match
from referee.replay import read_replay
from referee.viewer.app import ReplayPages
from referee.viewer.pictures import draw_view
from referee.viewer.timeline import Timeline

HEADING = "## Viewer: drawing a frame, opening a replay"


def _replay(directory: Path, game: str, players: int, seed: int) -> Path:
    path = directory / f"{game}-{players}-{seed}.jsonl"
    bots = [BotSpec(name=f"random{i}", factory=RandomBot) for i in range(players)]
    run_match(MatchSpec(game=game, bots=bots, seed=seed, replay_path=str(path)))
    return path


def frame_times(timeline: Timeline) -> tuple[list[float], list[float]]:
    """Milliseconds (wall, CPU) to draw each step's picture (the view built first, not timed), seat 0's and the spectator's."""
    wall, cpu = [], []
    for index in range(0, len(timeline.steps), 3):
        for seat in (None, 0):
            view = timeline.view(index, seat)
            began, began_cpu = time.perf_counter(), time.process_time()
            draw_view(timeline.game.id, view)
            wall.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - began_cpu) * 1000)
    return wall, cpu


def open_times(path: Path, repeats: int) -> list[float]:
    """Milliseconds from the replay file to the first page's data: parse, re-simulate, outline and first frame."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        timeline = Timeline.from_records(read_replay(path))
        pages = ReplayPages(lambda timeline=timeline: timeline)
        pages.respond("", {})
        pages.respond("timeline.json", {})
        pages.respond("step.json", {"n": "0"})
        times.append((time.perf_counter() - began) * 1000)
    return times


def browser_open_seconds(path: Path) -> float | None:
    """Seconds from starting the viewer on a replay to the first picture shown in headless Chromium (None if absent)."""
    try:
        from referee.viewer.headless import Browser, BrowserError
        from referee.viewer.server import serve
    except ImportError:
        return None
    try:
        with Browser() as browser:
            page = browser.page()
            page.goto("about:blank")
            began = time.perf_counter()
            timeline = Timeline.from_records(read_replay(path))
            pages = ReplayPages(lambda: timeline)
            server, url = serve(lambda method, sub, query, body: pages.respond(sub.lstrip("/"), query))
            page.goto(url)
            page.wait_for("document.body && document.body.dataset.ready === '1'")
            seconds = time.perf_counter() - began
            server.shutdown()
            page.close()
            return seconds
    except BrowserError:
        return None


def run(quick: bool = False) -> str:
    seeds = (1,) if quick else (1, 2, 3)
    with tempfile.TemporaryDirectory() as directory:
        replays = [_replay(Path(directory), "magnificent", 4, seed) for seed in seeds]
        frames: list[float] = []
        frames_cpu: list[float] = []
        steps = 0
        for path in replays:
            timeline = Timeline.from_records(read_replay(path))
            steps += len(timeline.steps)
            wall, cpu = frame_times(timeline)
            frames.extend(wall)
            frames_cpu.extend(cpu)
        opens = [t for path in replays for t in open_times(path, 2 if quick else 3)]
        browser = browser_open_seconds(replays[0])
    frames.sort()
    frames_cpu.sort()
    load = os.getloadavg()[0]
    lines = [
        HEADING,
        "",
        f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC with a load average of {load:.1f} on {os.cpu_count()} cores"
        " (other work shared the machine; wall times scale with it, CPU times much less).",
        "",
        f"4-player The Magnificent, random bots, {len(replays)} game(s) ({steps} steps). A frame is one SVG picture drawn",
        "from a view (`referee/games/magnificent/drawing.py`), every third step, spectator and seat 0.",
        "Opening is what `b99 replay view` does before the first picture: read the file, re-simulate every step",
        "(recomputing the options offered), and answer the page, its outline and step 0.",
        "",
        "| measure | median | p90 | max |",
        "|---|---:|---:|---:|",
        f"| one frame, wall (ms), {len(frames)} frames | {statistics.median(frames):.2f} | {frames[int(len(frames) * 0.9)]:.2f} | {frames[-1]:.2f} |",
        f"| one frame, CPU time (ms) | {statistics.median(frames_cpu):.2f} | {frames_cpu[int(len(frames_cpu) * 0.9)]:.2f} | {frames_cpu[-1]:.2f} |",
        f"| open a replay (ms), {len(opens)} runs | {statistics.median(opens):.0f} | {sorted(opens)[int(len(opens) * 0.9)]:.0f} | {max(opens):.0f} |",
    ]
    if browser is not None:
        lines.append(f"| open to first picture in headless Chromium (ms) | {browser * 1000:.0f} | | |")
    lines.append("")
    return "\n".join(lines)


def update_docs(section: str, path: Path) -> None:
    """Replace (or append) this section in docs/benchmarks.md."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(HEADING) + r".*?(?=\n## |\Z)", re.S)
    text = pattern.sub(section.rstrip() + "\n", text) if pattern.search(text) else text.rstrip() + "\n\n" + section
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    result = run(quick="--quick" in sys.argv)
    print(result)
    update_docs(result, Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md")
