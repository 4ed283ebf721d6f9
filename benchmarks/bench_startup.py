"""Start-up: the CLI beside `python -c pass`, a Python bot ready to dial beside importing grpc and protobuf.

Every row is run the same number of times, one of each in turn, so a shared machine's load drifts
over all of them alike; the table gives medians of wall time and each row's ratio to its anchor.
- `b99 --version`, `b99 --help`: anchor `python -c pass` (the same interpreter);
- a reference bot (`python -m bots random`) from launch to its connection on the referee's Unix
  socket (a plain listening socket here): anchor `python -c "import grpc, google.protobuf"`;
- the same bot forked from a warm parent (referee.warm), beside the cold start;
- the sandbox probe in a fresh process, with its per-boot cache kept and without it.

    python -m benchmarks.bench_startup [--quick]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
B99 = str(Path(PYTHON).with_name("b99"))
CLI_TARGET = 3.0
BOT_TARGET = 1.5
WARM_ROW = "bot ready to dial, forked from a warm parent"


def _run(argv: list[str], env: dict[str, str] | None = None) -> Callable[[], float]:
    def measure() -> float:
        began = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env, check=False)
        return time.perf_counter() - began

    return measure


def _seconds_to_dial(launch: Callable[[dict[str, str]], Callable[[], None]]) -> float:
    """Seconds from `launch(environment)` (it starts a bot that dials the environment's Unix socket and returns
    how to stop that bot) to the bot's connection on the socket."""
    with tempfile.TemporaryDirectory(prefix="b99-dial-") as scratch:
        path = os.path.join(scratch, "arena.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(30)
        environment = dict(os.environ, B99_ARENA_ADDRESS=f"unix:{path}", B99_SEAT_TOKEN="benchmark")
        began = time.perf_counter()
        stop = launch(environment)
        try:
            connection, _ = listener.accept()
            elapsed = time.perf_counter() - began
            connection.close()
        finally:
            stop()
            listener.close()
    return elapsed


def _bot_ready_to_dial() -> float:
    """Seconds from launching `python -m bots random` to its connection on a listening Unix socket."""

    def launch(environment: dict[str, str]) -> Callable[[], None]:
        bot = subprocess.Popen([PYTHON, "-m", "bots", "random"], cwd=ROOT, env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def stop() -> None:
            bot.kill()
            bot.wait()

        return stop

    return _seconds_to_dial(launch)


def _warm_bot_ready_to_dial(pool_address: str) -> Callable[[], float]:
    """Seconds from asking a warm parent (referee.warm) for `python -m bots random` to its connection."""
    import signal

    from referee.warm import spawn_warm

    def launch(environment: dict[str, str]) -> Callable[[], None]:
        null = os.open(os.devnull, os.O_WRONLY)
        bot = spawn_warm(pool_address, [PYTHON, "-m", "bots", "random"], str(ROOT), "benchmark", 0, environment, null, null)
        os.close(null)
        if bot is None:
            raise RuntimeError("the warm parent did not start the bot")

        def stop() -> None:
            os.killpg(bot.pid, signal.SIGKILL)
            bot.wait(10)

        return stop

    return lambda: _seconds_to_dial(launch)


def measure_rows(runs: int) -> dict[str, list[float]]:
    """Wall seconds of every row, `runs` times each, interleaved."""
    uncached = dict(os.environ, B99_SANDBOX_PROBE_CACHE="")
    probe = [PYTHON, "-c", "from referee.sandbox import machine_support; machine_support()"]
    rows: dict[str, Callable[[], float]] = {
        "python -c pass": _run([PYTHON, "-c", "pass"]),
        "b99 --version": _run([B99, "--version"]),
        "b99 --help": _run([B99, "--help"]),
        "python -c \"import grpc, google.protobuf\"": _run([PYTHON, "-c", "import grpc, google.protobuf"]),
        "bot ready to dial (python -m bots random)": _bot_ready_to_dial,
        "sandbox probe, kept per boot": _run(probe),
        "sandbox probe, trial run (no cache)": _run(probe, uncached),
    }
    from referee.warm import WarmPool

    pool = WarmPool()
    try:
        warm = _warm_bot_ready_to_dial(pool.address)
        warm()  # the warm parent starts at the first request: not part of a bot's start
        rows[WARM_ROW] = warm
        timings: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(runs):
            for name, measure in rows.items():
                timings[name].append(measure())
    finally:
        pool.shutdown()
    return timings


def run(quick: bool = False) -> str:
    """The markdown section for docs/benchmarks.md."""
    runs = 5 if quick else 15
    timings = measure_rows(runs)
    median = {name: statistics.median(values) * 1e3 for name, values in timings.items()}
    anchors = {
        "b99 --version": ("python -c pass", CLI_TARGET),
        "b99 --help": ("python -c pass", CLI_TARGET),
        "bot ready to dial (python -m bots random)": ("python -c \"import grpc, google.protobuf\"", BOT_TARGET),
        "sandbox probe, kept per boot": ("sandbox probe, trial run (no cache)", None),
        WARM_ROW: ("bot ready to dial (python -m bots random)", None),
    }
    lines = [
        "## Start-up: the CLI and a bot process beside their anchors",
        "",
        f"Each row run {runs} times, one of each in turn (interleaved, so load drifts hit all rows alike); medians of wall time.",
        "Bot ready to dial: from launching `python -m bots random` to its connection on the referee's Unix socket;",
        "forked from a warm parent: from asking the parent (already started) to the child's connection (referee.warm).",
        "Sandbox probe: `machine_support()` in a fresh process (imports included), with the trial sandbox's outcome",
        "kept for this boot, and with the cache turned off (the trial bubblewrap sandbox runs).",
        "",
        "| what | median ms | anchor | ratio | target |",
        "|---|---:|---|---:|---:|",
    ]
    for name, value in median.items():
        anchor, target = anchors.get(name, ("", None))
        ratio = f"{value / median[anchor]:.2f}x" if anchor else ""
        lines.append(f"| {name} | {value:,.0f} | {anchor} | {ratio} | {f'{target:g}x' if target else ''} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(run(quick=parser.parse_args().quick))


if __name__ == "__main__":
    main()
