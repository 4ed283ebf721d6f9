"""What a sandbox costs at start-up: the same bot launched with and without it, side by side.

Two measurements, each alternating unsandboxed and sandboxed launches so machine load hits both alike:
- process start: from the launch call to the first byte the program writes (a tiny program, /bin/echo);
- bot start: from the launch call to the bot's hello on the Arena stream (the Python SDK echo bot).
"""

from __future__ import annotations

import os
import platform
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from referee.arena_server import ArenaServer, SeatLine
from referee.launcher import launch
from referee.sandbox import Limits, SandboxRequest, describe_machine, machine_support, spawn
from referee.sandbox.bubblewrap import SOCKET

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 15.0


def _first_byte(start: Callable[[int], Callable[[], None]]) -> float:
    """Seconds from calling `start(pipe)` to the first byte on the pipe; `start` returns a clean-up."""
    read_end, write_end = os.pipe()
    began = time.perf_counter()
    finish = start(write_end)
    os.close(write_end)
    os.read(read_end, 1)
    elapsed = time.perf_counter() - began
    os.close(read_end)
    finish()
    return elapsed


def _plain(write_end: int) -> Callable[[], None]:
    process = subprocess.Popen(["/bin/echo", "ready"], stdin=subprocess.DEVNULL, stdout=write_end, start_new_session=True)
    return lambda: process.wait()


def _confined(level: str, scratch: Path, cleanups: list[float]) -> Callable[[int], Callable[[], None]]:
    """Launches under `level`; the time each clean-up after the exit takes (what a match's end waits for) goes to `cleanups`."""

    def start(write_end: int) -> Callable[[], None]:
        workdir = Path(tempfile.mkdtemp(dir=scratch))
        with os.fdopen(os.dup(write_end), "wb") as stdout, open(os.devnull, "wb") as stderr:
            process, confinement = spawn(0, ["/bin/echo", "ready"], {}, stdout, stderr, None, SandboxRequest(level, Limits()), workdir)

        def finish() -> None:
            process.wait()
            began = time.perf_counter()
            confinement.cleanup()
            cleanups.append(time.perf_counter() - began)

        return finish

    return start


def _hello(level: str, server: ArenaServer, scratch: Path) -> float:
    """Seconds from launching the echo bot to its hello reaching the referee."""
    token = secrets.token_urlsafe(16)
    line = SeatLine(0, token)
    server.directory.add(line)
    address = f"unix:{SOCKET}" if level == "strict" else server.address
    began = time.perf_counter()
    process = launch(
        0,
        (sys.executable, str(ROOT / "benchmarks" / "echo_bot.py")),
        {"B99_ARENA_ADDRESS": address, "B99_SEAT_TOKEN": token},
        scratch / f"seat-{token[:8]}",
        str(ROOT / "benchmarks"),
        SandboxRequest(level, Limits(), server.socket_path),
    )
    connected = line.connected.wait(30)
    elapsed = time.perf_counter() - began
    line.hang_up()
    process.stop(0.2)
    server.directory.remove(token)
    if not connected:
        raise RuntimeError(f"echo bot ({level}) never said hello: {process.stderr_tail()}")
    return elapsed


def _row(name: str, plain: list[float], boxed: list[float]) -> str:
    plain_ms, boxed_ms = statistics.median(plain) * 1e3, statistics.median(boxed) * 1e3
    pairs = sorted((b - p) * 1e3 for p, b in zip(plain, boxed))
    return f"| {name} | {len(plain)} | {plain_ms:,.1f} | {boxed_ms:,.1f} | {boxed_ms - plain_ms:,.1f} | {statistics.median(pairs):,.1f} |"


def run(quick: bool) -> str:
    """The markdown section for docs/benchmarks.md."""
    lines = ["## Sandbox start-up cost", ""]
    load = os.getloadavg()[0]
    lines.append(
        f"Measured {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC on {platform.machine()} with {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, Linux {platform.release()}, load average {load:.1f} at the start "
        "(`python -m benchmarks.bench_sandbox`)."
    )
    lines.append("")
    support = machine_support()
    machine = describe_machine()
    lines.append("Levels on this machine: " + "; ".join(f"{level}: {machine[level]}" for level in ("strict", "basic")) + ".")
    lines.append(f"Cgroup caps: memory via {machine['cgroup memory']}; processes via {machine['cgroup pids']}.")
    lines.append("")
    levels = [level for level in ("basic", "strict") if support.available(level)]
    if not levels:
        return "\n".join(lines + ["No sandbox level runs on this machine; nothing to measure."])
    rounds = 15 if quick else 60
    bot_rounds = 5 if quick else 20
    lines += [
        "Each row alternates unsandboxed and sandboxed launches of the same program, so load drifts hit both alike.",
        "Process start: launch call to the first byte `/bin/echo` writes. Bot start: launch call to the hello of the",
        "Python SDK echo bot on the Arena stream (Python and gRPC start-up included on both sides).",
        "The last column is the median of the per-pair differences.",
        "",
        "| measurement | runs | unsandboxed ms | sandboxed ms | added ms (medians) | added ms (paired) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    cleanup_rows: list[str] = []
    scratch = Path(tempfile.mkdtemp(prefix="b99-bench-sandbox-"))
    server = ArenaServer(f"unix:{scratch / 'arena.sock'}").start()
    try:
        for level in levels:
            plain, boxed, cleanups = [], [], []
            for _ in range(rounds):
                plain.append(_first_byte(_plain))
                boxed.append(_first_byte(_confined(level, scratch, cleanups)))
            lines.append(_row(f"process start, {level}", plain, boxed))
            cleanup_rows.append(f"{level} {statistics.median(cleanups) * 1e3:,.1f} ms")
        for level in levels:
            plain, boxed = [], []
            for _ in range(bot_rounds):
                plain.append(_hello("none", server, scratch))
                boxed.append(_hello(level, server, scratch))
            lines.append(_row(f"bot start (hello), {level}", plain, boxed))
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    lines += [
        "",
        "Clean-up after a bot exits (median; a match's end waits for it): " + ", ".join(cleanup_rows) + ".",
        "",
        f"Target: under {TARGET_MS:g} ms added per bot.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
