"""A decision's round trip through the referee's stream, beside bare grpcio carrying the same bytes across two processes.

Three ways, the same Underground Dice decision request each time, in interleaved blocks (a block of
each in turn, fresh processes every block, so load drifts hit all alike):
- bare grpcio: a grpc.aio server in this process writes the serialized request and reads the answer
  on one stream; the bot is `benchmarks.grpc_peer` (grpc.aio, parses the request, answers option 0);
- referee: the Arena server, its seat line and RemoteSeat.send/await_answer, as a match does (the waiting
  thread runs the server's loop: `ArenaServer(driven=True)`), to the same bare bot: the difference is the
  referee's own layers between the stream and the decision loop. What is sent is what the runner sends, the
  request's bytes (`messages.OutgoingRequest`, written before the clock starts, passed through by the
  stream's serializer; until 2026-11-27 this row sent a RefereeMessage that gRPC serialized inside the timing);
- referee + SDK bot: the same, the bot being the Python SDK (benchmarks.echo_bot: it answers by index, so
  of the request it decodes one option's id, as the SDK decodes lazily).

    python -m benchmarks.bench_round_trip [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import b99.arena_pb2 as arena_pb2
from benchmarks import grpc_peer

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.2


def sample_request() -> arena_pb2.DecisionRequest:
    from benchmarks.run import sample_request as real

    return real()


def bare_round_trips(request: arena_pb2.DecisionRequest, count: int) -> list[float]:
    scratch = Path(tempfile.mkdtemp(prefix="b99-bare-"))
    address = f"unix:{scratch / 'bare.sock'}"

    def start_bot() -> Callable[[], None]:
        bot = subprocess.Popen([sys.executable, "-m", "benchmarks.grpc_peer", address, "token"], cwd=ROOT)

        def stop() -> None:
            bot.wait(10)
            shutil.rmtree(scratch, ignore_errors=True)

        return stop

    return asyncio.run(grpc_peer.server(address, count, request, start_bot))


def referee_round_trips(request: arena_pb2.DecisionRequest, count: int, sdk_bot: bool) -> list[float]:
    """Through the referee's stream, to the SDK's echo bot or to the bare grpcio peer."""
    from benchmarks.run import grpc_round_trips

    return grpc_round_trips(request, count, None if sdk_bot else (sys.executable, "-m", "benchmarks.grpc_peer"))


def measure(count: int, blocks: int) -> dict[str, list[float]]:
    request = sample_request()
    ways: dict[str, Callable[[], list[float]]] = {
        "bare grpcio, two processes": lambda: bare_round_trips(request, count),
        "referee, bare protobuf bot": lambda: referee_round_trips(request, count, sdk_bot=False),
        "referee, Python SDK bot": lambda: referee_round_trips(request, count, sdk_bot=True),
    }
    timings: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(blocks):
        for name, way in ways.items():
            timings[name] += way()[count // 10 :]  # the first tenth warms the stream up
    return timings


def run(quick: bool = False) -> str:
    """The markdown section for docs/benchmarks.md."""
    from benchmarks.run import machine_description

    count, blocks = (300, 2) if quick else (1000, 4)
    load = os.getloadavg()[0]
    timings = measure(count, blocks)
    size = len(arena_pb2.RefereeMessage(decision_request=sample_request()).SerializeToString())
    base = statistics.median(timings["bare grpcio, two processes"])
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "## Decision round trip: the referee's stream beside bare grpcio",
        "",
        f"The same Underground Dice decision request ({size} bytes) sent {count} times per block, {blocks} blocks of each way",
        "in turn (fresh processes every block; the first tenth of each block is left out as warm-up); time from sending",
        "the request to holding the answer, on the referee's side. Bare grpcio: a grpc.aio server in one process and",
        "a grpc.aio bot in another (benchmarks/grpc_peer.py), nothing between the stream and the timer; the referee",
        "rows add the Arena server, the seat line and RemoteSeat.send/await_answer, the waiting thread running the",
        "server's loop as a match's does.",
        f"Target: both referee rows (the bare bot's and the Python SDK bot's) at most {TARGET_RATIO:g}x bare grpcio.",
        f"Measured {when}, load average {load:.1f} at the start, on {machine_description()}.",
        "",
        "| way | median µs | p90 µs | ratio to bare grpcio |",
        "|---|---:|---:|---:|",
    ]
    for name, values in timings.items():
        ordered = sorted(values)
        median = statistics.median(values)
        lines.append(f"| {name} | {median * 1e6:,.0f} | {ordered[int(0.9 * len(ordered))] * 1e6:,.0f} | {median / base:.2f}x |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(run(quick=parser.parse_args().quick))


if __name__ == "__main__":
    main()
