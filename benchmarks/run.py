"""Run every benchmark and write docs/benchmarks.md (machine and date included).

    python -m benchmarks.run            # all benchmarks
    python -m benchmarks.run --quick    # shorter runs
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import secrets
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import b99.arena_pb2 as arena_pb2
from referee import messages
from referee.arena_server import ArenaServer, SeatLine
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.compiled import build_status
from referee.launcher import launch
from referee.registry import all_games, get_game
from referee.seats import Answer, RemoteSeat
from referee.wire import get_wire

ROOT = Path(__file__).resolve().parent.parent
console = Console()


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f", {int(line.split()[1]) // (1024 * 1024)} GiB RAM"
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.release()}; Python {platform.python_version()}"


def engine_playouts(game_id: str, seconds: float) -> dict[str, float]:
    """Random playouts for `seconds` of CPU time: decisions (apply_decisions calls) and chance steps per second."""
    game = get_game(game_id)
    rng = random.Random(1)
    decisions = chance = games = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state(game.make_config(game.default_players))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                chance += 1
            else:
                state.apply_decisions(
                    {seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()}
                )
                decisions += 1
        games += 1
    elapsed = time.process_time() - began
    return {
        "players": game.default_players,
        "games": games,
        "decisions_per_second": decisions / elapsed,
        "chance_per_second": chance / elapsed,
        "games_per_second": games / elapsed,
    }


def sample_request(game_id: str = "underground_dice") -> arena_pb2.DecisionRequest:
    """A real decision request of `game_id` (the first one with several options)."""
    game = get_game(game_id)
    state = game.new_initial_state(game.make_config(game.default_players))
    rng = random.Random(3)
    while True:
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        seat = state.deciding_seats()[0]
        options = list(state.legal_options(seat))
        if len(options) > 3:
            clock = SeatClock.start(TimeControl())
            return messages.decision_request(get_wire(game_id), 1, state, seat, options, messages.seat_events(state, seat, 0), clock)
        state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})


def grpc_round_trips(request: arena_pb2.DecisionRequest, count: int, command: tuple[str, ...] | None = None) -> list[float]:
    """Referee-side round trip of one decision over the Arena stream to a bot process, in seconds.

    The bot is `command` (it dials $B99_ARENA_ADDRESS with $B99_SEAT_TOKEN), by default the SDK's echo bot."""
    scratch = Path(tempfile.mkdtemp(prefix="b99-bench-"))
    # driven, as in a match: this thread runs the server's loop while it waits for the answer
    server = ArenaServer(f"unix:{scratch / 'arena.sock'}", driven=True).start()
    token = secrets.token_urlsafe(16)
    line = SeatLine(0, token)
    server.directory.add(line)
    process = launch(
        0,
        command or (sys.executable, "-m", "benchmarks.echo_bot"),
        {"B99_ARENA_ADDRESS": server.address, "B99_SEAT_TOKEN": token},
        scratch / "seat0",
        cwd=str(ROOT),
    )
    seat = RemoteSeat("bench", line, process)
    try:
        if seat.connect(30.0) is not None:
            raise RuntimeError("benchmark bot did not connect: " + process.stderr_tail())
        seat.send(arena_pb2.RefereeMessage(game_start=arena_pb2.GameStart(game="underground_dice", players=2)))
        timings = []
        for index in range(count):
            request.request_id = index + 1
            # What the runner sends: the request's bytes, written before the clock starts, put on the stream as
            # they are (`messages.OutgoingRequest`; the runner writes them with `messages.outgoing_request`).
            message = arena_pb2.RefereeMessage(decision_request=request).SerializeToString()
            sent = messages.OutgoingRequest(request.request_id, (), message, len(message) - request.ByteSize())
            began = time.perf_counter()
            seat.send(sent)
            answer = seat.await_answer(sent, 10.0)
            timings.append(time.perf_counter() - began)
            if not isinstance(answer, Answer):
                raise RuntimeError(f"benchmark bot failed: {answer}")
        return timings
    finally:
        seat.close(1.0)
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def pipe_round_trips(request: arena_pb2.DecisionRequest, count: int) -> list[float]:
    """The same payload over a raw pipe to a Python process that decodes it and answers."""
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.echo_bot", "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT
    )
    if child.stdin is None or child.stdout is None:
        raise RuntimeError("pipe not opened")
    timings = []
    try:
        for index in range(count):
            request.request_id = index + 1
            payload = request.SerializeToString()
            began = time.perf_counter()
            child.stdin.write(struct.pack("<I", len(payload)) + payload)
            child.stdin.flush()
            (size,) = struct.unpack("<I", child.stdout.read(4))
            arena_pb2.Decision.FromString(child.stdout.read(size))
            timings.append(time.perf_counter() - began)
    finally:
        child.stdin.close()
        child.wait(5)
    return timings


def grpc_floor_round_trips(count: int) -> list[float]:
    """grpcio's own floor: an asyncio Arena server and client in one event loop, echoing a tiny message."""
    import asyncio

    import grpc

    import b99.arena_pb2_grpc as arena_pb2_grpc

    class Echo(arena_pb2_grpc.ArenaServicer):
        async def Play(self, request_iterator, context):  # type: ignore[no-untyped-def]
            async for message in request_iterator:
                yield arena_pb2.RefereeMessage(error=arena_pb2.Error(request_id=message.decision.request_id))

    async def measure() -> list[float]:
        scratch = Path(tempfile.mkdtemp(prefix="b99-floor-"))
        address = f"unix:{scratch / 'floor.sock'}"
        server = grpc.aio.server()
        arena_pb2_grpc.add_ArenaServicer_to_server(Echo(), server)
        server.add_insecure_port(address)
        await server.start()
        timings = []
        async with grpc.aio.insecure_channel(address) as channel:
            call = arena_pb2_grpc.ArenaStub(channel).Play()
            for index in range(count):
                began = time.perf_counter()
                await call.write(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=index)))
                await call.read()
                timings.append(time.perf_counter() - began)
            await call.done_writing()
        await server.stop(None)
        return timings

    return asyncio.run(measure())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


#: The heading from which docs/benchmarks.md is written by hand (earlier measurements, comparisons):
#: a new run rewrites the tables above it and keeps it and everything below.
NOTES_HEADING = "## Notes and earlier measurements"


def kept_notes(path: Path) -> str:
    """The hand-written part of an existing benchmarks file (from NOTES_HEADING on), or ''."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ""
    at = text.find(NOTES_HEADING)
    return text[at:] if at >= 0 else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args()
    seconds = 1.0 if args.quick else 5.0
    trips = 500 if args.quick else 3000
    games = all_games()
    engine_rows = []
    with Progress(console=console) as progress:
        task = progress.add_task("engine playouts", total=len(games))
        for game in games:
            engine_rows.append((game, engine_playouts(game.id, seconds)))
            progress.advance(task)
        task = progress.add_task("round trips", total=3)
        request = sample_request()
        grpc_timings = grpc_round_trips(request, trips)
        progress.advance(task)
        pipe_timings = pipe_round_trips(request, trips)
        progress.advance(task)
        floor_timings = grpc_floor_round_trips(trips)
        progress.advance(task)
    extra_sections = []
    for module_path in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        module_name = f"benchmarks.{module_path.stem}"
        module = __import__(module_name, fromlist=["run"])
        with console.status(f"running {module_name}"):
            extra_sections.append(module.run(quick=args.quick))
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Benchmarks",
        "",
        f"Measured {now} on: {machine_description()}.",
        f"Command: `.venv/bin/python -m benchmarks.run{' --quick' if args.quick else ''}` (or `./scripts/bench`).",
        f"{build_status()}; every other engine runs as Python (referee/compiled.py lists what is compiled).",
        "",
        "## Engines: random playouts",
        "",
        f"Random legal play from the initial state, seeded chance, {seconds:g} s of CPU time (this process's, so a",
        "shared machine's other load counts little) per game at its default player count.",
        "A decision is one `apply_decisions` call (all deciding seats at once); chance steps are counted apart.",
        "",
        "| game | players | decisions/s | chance steps/s | games/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for game, row in engine_rows:
        lines.append(
            f"| {game.id} | {row['players']} | {row['decisions_per_second']:,.0f} | {row['chance_per_second']:,.0f} | {row['games_per_second']:,.1f} |"
        )
    size = len(request.SerializeToString())
    lines += [
        "",
        "## Decision round trip: gRPC stream vs raw pipe",
        "",
        f"The same Underground Dice decision request ({size} bytes serialized, {len(request.options)} options) sent {trips} times",
        "by the referee to a Python bot process, measured from send to the answer being in the referee's hands.",
        "gRPC: the Arena stream over a Unix socket, the bot using the Python SDK (decodes the request into typed records and dicts).",
        "Pipe: length-prefixed bytes over stdin/stdout to a Python process that parses the request and answers.",
        "",
        "| transport | median µs | p90 µs | p99 µs |",
        "|---|---:|---:|---:|",
    ]
    for name, timings in (
        ("gRPC stream (SDK bot)", grpc_timings),
        ("raw pipe", pipe_timings),
        ("grpcio floor: asyncio server and client in one process, tiny message", floor_timings),
    ):
        lines.append(
            f"| {name} | {statistics.median(timings) * 1e6:,.0f} | {percentile(timings, 0.9) * 1e6:,.0f} | {percentile(timings, 0.99) * 1e6:,.0f} |"
        )
    lines.append("")
    lines.append("The last row is grpcio inside one process: a floor, not the anchor. The anchor of the referee's stream")
    lines.append("is bare grpcio between two processes carrying the same bytes (the round-trip section below, with its")
    lines.append("target of 1.2x).")
    for section in extra_sections:
        lines += ["", section.rstrip()]
    notes = kept_notes(Path(args.output))
    if notes:
        lines += ["", notes.rstrip()]
    Path(args.output).write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = Table(title="round trip (µs)")
    table.add_column("transport")
    table.add_column("median", justify="right")
    table.add_row("gRPC", f"{statistics.median(grpc_timings) * 1e6:,.0f}")
    table.add_row("pipe", f"{statistics.median(pipe_timings) * 1e6:,.0f}")
    console.print(table)
    console.print(f"written to {args.output}")


if __name__ == "__main__":
    main()
