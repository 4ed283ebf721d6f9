"""How fast the LadderService answers unary calls while many WatchResults streams are open.

    python -m benchmarks.ladder_api_bench [--watchers 500]   # writes the results into docs/ladder.md

A ladder on SQLite with 20 bots and 200 rated matches; the LadderService in this process; the
watchers in a child process (grpc.aio, one channel, reading every result); this process times
GetLeaderboard, GetMatch and ListMatches one after another, with no watchers, then with all of them
connected while a new result is rated every half second (and fanned out to every watcher).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import grpc

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from benchmarks.run import machine_description, percentile
from ladder.api import WatchLimits, serve_grpc
from ladder.db import migrate, sqlite_url
from ladder.matches import claim_match, record_result, schedule_match
from ladder.registry import add_bot
from ladder.settings import LadderSettings

GAME = "underground_dice"
DOC = Path(__file__).resolve().parents[1] / "docs" / "ladder.md"


def rate_one(settings: LadderSettings, bots: list[int], seed: int) -> None:
    """Play one in-process match between two bots and rate it."""
    from bots.random_bot import RandomBot
    from referee.local import play_local

    job = claim_match(settings, schedule_match(settings, GAME, bots, seed=seed), "bench", 60)
    assert not isinstance(job, str)
    record_result(settings, job, play_local(GAME, [RandomBot(seed), RandomBot(seed + 1)], seed=seed))


def make_ladder(home: Path, bots: int, matches: int) -> tuple[LadderSettings, list[int]]:
    settings = LadderSettings(home=home, db_url=sqlite_url(home / "ladder.db"))
    migrate(settings.db_url)
    ids = [add_bot(settings, f"bot{i}", GAME, command=["true"]).id or 0 for i in range(bots)]
    for seed in range(matches):
        rate_one(settings, [ids[seed % bots], ids[(seed * 7 + 1) % bots]] if seed % bots != (seed * 7 + 1) % bots else ids[:2], seed)
    return settings, ids


def watch(address: str, watchers: int, ready: multiprocessing.synchronize.Event, stop: multiprocessing.synchronize.Event,
          received: multiprocessing.sharedctypes.Synchronized) -> None:  # type: ignore[name-defined]
    """Child process: hold `watchers` WatchResults streams open and read them until told to stop."""

    async def main() -> None:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = pb_grpc.LadderServiceStub(channel)
            calls = [stub.WatchResults(pb.WatchResultsRequest()) for _ in range(watchers)]  # results from now on

            async def read(call: grpc.aio.UnaryStreamCall) -> None:
                try:
                    async for _ in call:
                        with received.get_lock():
                            received.value += 1
                except (grpc.aio.AioRpcError, asyncio.CancelledError):
                    pass

            tasks = [asyncio.create_task(read(call)) for call in calls]
            await asyncio.sleep(1.0)
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.1)
            for call in calls:
                call.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


def write_results(settings: LadderSettings, bots: list[int], stop: multiprocessing.synchronize.Event,
                  rated: multiprocessing.sharedctypes.Synchronized) -> None:  # type: ignore[name-defined]
    """Child process, like a worker: rate a new match every half second until told to stop."""
    seed = 10_000
    while not stop.is_set():
        rate_one(settings, bots, seed)
        with rated.get_lock():
            rated.value += 1
        seed += 1
        stop.wait(0.5)


def time_calls(stub: pb_grpc.LadderServiceStub, rounds: int, pause: float = 0.05) -> dict[str, list[float]]:
    """Each call `rounds` times, one after another, with a pause between rounds (like a page's readers)."""
    timings: dict[str, list[float]] = {"GetLeaderboard": [], "GetMatch": [], "ListMatches": []}
    for i in range(rounds):
        for name, call in (("GetLeaderboard", lambda: stub.GetLeaderboard(pb.LeaderboardRequest(game=GAME), timeout=10)),
                           ("GetMatch", lambda: stub.GetMatch(pb.GetMatchRequest(match=str(1 + i % 100)), timeout=10)),
                           ("ListMatches", lambda: stub.ListMatches(pb.ListMatchesRequest(game=GAME, limit=20), timeout=10))):
            start = time.perf_counter()
            call()
            timings[name].append(time.perf_counter() - start)
        time.sleep(pause)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--no-write", action="store_true", help="Print only; leave docs/ladder.md alone.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        settings, ids = make_ladder(Path(scratch), 20, 200)
        server, port = serve_grpc(settings, "127.0.0.1:0", "bench", limits=WatchLimits(per_client=args.watchers, total=args.watchers))
        address = f"127.0.0.1:{port}"
        channel = grpc.insecure_channel(address)
        stub = pb_grpc.LadderServiceStub(channel)
        time_calls(stub, 5)  # warm up
        idle = time_calls(stub, args.rounds)
        context = multiprocessing.get_context("spawn")
        ready, stop = context.Event(), context.Event()
        received = context.Value("l", 0)
        child = context.Process(target=watch, args=(address, args.watchers, ready, stop, received))
        child.start()
        if not ready.wait(120):
            sys.exit("watchers did not connect")
        while sum(server.servicer.watching.values()) < args.watchers:
            time.sleep(0.1)
        writing = context.Event()
        rated = context.Value("l", 0)
        writer = context.Process(target=write_results, args=(settings, ids[:2], writing, rated))  # a worker elsewhere
        writer.start()
        while rated.value == 0 and writer.is_alive():
            time.sleep(0.1)
        loaded = time_calls(stub, args.rounds)
        writing.set()
        writer.join(60)
        time.sleep(1.0)
        stop.set()
        child.join(30)
        delivered = received.value
        channel.close()
        server.stop(None)
    rows = []
    for name in idle:
        rows.append(f"| {name} | {percentile(idle[name], 0.5) * 1000:.1f} | {percentile(idle[name], 0.99) * 1000:.1f} "
                    f"| {percentile(loaded[name], 0.5) * 1000:.1f} | {percentile(loaded[name], 0.99) * 1000:.1f} "
                    f"| {max(loaded[name]) * 1000:.1f} |")
    load = os.getloadavg()[0]
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = "\n".join([
        f"Measured {stamp} on {machine_description()}, `python -m benchmarks.ladder_api_bench --watchers {args.watchers}`: "
        f"{args.rounds} calls of each kind, one after another with 50 ms between rounds; the ladder has 20 bots and 200 rated matches (SQLite). "
        f"While {args.watchers} watchers were connected, {rated.value} new results were rated and "
        f"{delivered} messages delivered to the watchers ({delivered / max(1, rated.value):.0f} per result). "
        f"The machine is shared: its load average was {load:.1f} at the end.",
        "",
        f"| call | p50 ms, no watchers | p99 ms, no watchers | p50 ms, {args.watchers} watchers | p99 ms, {args.watchers} watchers | max ms |",
        "|---|---:|---:|---:|---:|---:|",
        *rows,
    ])
    print(text)
    if not args.no_write:
        content = DOC.read_text()
        marker = re.compile(r"(<!-- api-benchmarks:start -->\n).*?(<!-- api-benchmarks:end -->)", re.S)
        if not marker.search(content):
            sys.exit(f"{DOC}: no api-benchmarks markers")
        DOC.write_text(marker.sub(lambda m: m.group(1) + text + "\n" + m.group(2), content))


if __name__ == "__main__":
    main()
