"""How fast the LadderService answers unary calls and delivers new results while many clients watch.

    python -m benchmarks.ladder_api_bench [--clients 25 --watchers-per-client 20 --rate 2]   # writes docs/ladder.md
    python -m benchmarks.ladder_api_bench --database sqlite --no-write                        # SQLite, print only

A ladder with 20 bots and 200 rated matches, on a throwaway PostgreSQL cluster (default, as a hosted
ladder runs) or on SQLite; the LadderService in this process, behind a "proxy": it trusts the
x-real-ip header, so that every client, on a channel of its own, counts against the per-client cap
as a distinct address would, and each stays under it (the cap is not raised). The clients' watchers
run in child processes and time every result they receive from its `finished_at` (the recording
worker's clock, the same machine's); a worker process rates `--rate` results per second. This
process times GetLeaderboard, GetMatch and ListMatches one after another (`--rounds` of each, so
that p99 is a percentile of enough samples, not the maximum), with no watchers, then with all of
them connected and results flowing.
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


def make_ladder(home: Path, db_url: str, bots: int, matches: int) -> tuple[LadderSettings, list[int]]:
    settings = LadderSettings(home=home, db_url=db_url)
    migrate(settings.db_url)
    ids = [add_bot(settings, f"bot{i}", GAME, command=["true"]).id or 0 for i in range(bots)]
    for seed in range(matches):
        rate_one(settings, [ids[seed % bots], ids[(seed * 7 + 1) % bots]] if seed % bots != (seed * 7 + 1) % bots else ids[:2], seed)
    return settings, ids


def watch(address: str, clients: range, per_client: int, ready: multiprocessing.synchronize.Event,
          stop: multiprocessing.synchronize.Event, delays: multiprocessing.queues.Queue) -> None:  # type: ignore[name-defined]
    """Child process: clients `clients`, each on a channel of its own with its own address (the
    x-real-ip the trusted proxy would set), each holding `per_client` WatchResults streams; every
    result received is timed from its finished_at, and the delays are sent back at the end."""

    async def main() -> None:
        received: list[float] = []
        channels = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in clients]
        calls = []
        for channel, client in zip(channels, clients):
            stub = pb_grpc.LadderServiceStub(channel)
            metadata = (("x-real-ip", f"10.0.{client // 250}.{client % 250 + 1}"),)
            calls += [stub.WatchResults(pb.WatchResultsRequest(), metadata=metadata) for _ in range(per_client)]

        async def read(call: grpc.aio.UnaryStreamCall) -> None:
            try:
                async for match in call:
                    finished = datetime.fromisoformat(match.finished_at)
                    received.append(time.time() - finished.timestamp())
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
        for channel in channels:
            await channel.close()
        delays.put(received)

    asyncio.run(main())


def write_results(settings: LadderSettings, bots: list[int], rate: float, stop: multiprocessing.synchronize.Event,
                  rated: multiprocessing.sharedctypes.Synchronized) -> None:  # type: ignore[name-defined]
    """Child process, like a worker: rate `rate` new matches per second until told to stop."""
    seed = 10_000
    pause = 1.0 / rate
    next_at = time.monotonic()
    while not stop.is_set():
        rate_one(settings, bots, seed)
        with rated.get_lock():
            rated.value += 1
        seed += 1
        next_at += pause
        stop.wait(max(0.0, next_at - time.monotonic()))


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


def p99_label(samples: int) -> str:
    """p99 needs at least 100 samples beyond the one it names; with fewer it would be the maximum."""
    return "p99" if samples >= 1000 else f"p99 (of only {samples} samples)"


def start_database(kind: str, scratch: Path) -> tuple[str, object | None]:
    """The ladder's database URL, and the PostgreSQL cluster to stop afterwards (None for SQLite)."""
    if kind == "sqlite":
        return sqlite_url(scratch / "ladder.db"), None
    from tests.ladder.conftest import PostgresCluster

    cluster = PostgresCluster()
    return cluster.new_database(), cluster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=25, help="Watching clients, each with an address of its own.")
    parser.add_argument("--watchers-per-client", type=int, default=20, help="Streams per client (at most the cap, 20).")
    parser.add_argument("--processes", type=int, default=5, help="Child processes the clients are spread over.")
    parser.add_argument("--rate", type=float, default=2.0, help="New results rated per second while watched.")
    parser.add_argument("--rounds", type=int, default=1000, help="Calls of each kind, idle and loaded.")
    parser.add_argument("--database", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--no-write", action="store_true", help="Print only; leave docs/ladder.md alone.")
    args = parser.parse_args()
    cap = WatchLimits().per_client
    if args.watchers_per_client > cap:
        sys.exit(f"--watchers-per-client {args.watchers_per_client} is over the per-client cap of {cap}")
    watchers = args.clients * args.watchers_per_client
    with tempfile.TemporaryDirectory() as scratch:
        db_url, cluster = start_database(args.database, Path(scratch))
        try:
            settings, ids = make_ladder(Path(scratch), db_url, 20, 200)
            limits = WatchLimits(per_client=cap, total=max(watchers, WatchLimits().total), trust_proxy=True)
            server, port = serve_grpc(settings, "127.0.0.1:0", "bench", limits=limits)
            address = f"127.0.0.1:{port}"
            channel = grpc.insecure_channel(address)
            stub = pb_grpc.LadderServiceStub(channel)
            time_calls(stub, 20)  # warm up
            idle = time_calls(stub, args.rounds)
            context = multiprocessing.get_context("spawn")
            stop = context.Event()
            delays = context.Queue()
            children, readies = [], []
            for index in range(args.processes):
                share = range(index, args.clients, args.processes)
                ready = context.Event()
                child = context.Process(target=watch, args=(address, share, args.watchers_per_client, ready, stop, delays))
                child.start()
                children.append(child)
                readies.append(ready)
            if not all(ready.wait(180) for ready in readies):
                sys.exit("watchers did not connect")
            while sum(server.servicer.watching.values()) < watchers:
                time.sleep(0.1)
            clients_seen = len(server.servicer.watching)
            writing = context.Event()
            rated = context.Value("l", 0)
            writer = context.Process(target=write_results, args=(settings, ids[:2], args.rate, writing, rated))
            writer.start()
            while rated.value == 0 and writer.is_alive():
                time.sleep(0.1)
            started = time.monotonic()
            loaded = time_calls(stub, args.rounds)
            seconds = time.monotonic() - started
            writing.set()
            writer.join(60)
            time.sleep(2.0)
            stop.set()
            received: list[float] = []
            for _ in children:
                received += delays.get(timeout=120)
            for child in children:
                child.join(30)
            channel.close()
            server.stop(None)
        finally:
            if cluster is not None:
                cluster.stop()  # type: ignore[attr-defined]
    rows = []
    for name in idle:
        rows.append(f"| {name} | {percentile(idle[name], 0.5) * 1000:.1f} | {percentile(idle[name], 0.99) * 1000:.1f} "
                    f"| {percentile(loaded[name], 0.5) * 1000:.1f} | {percentile(loaded[name], 0.99) * 1000:.1f} "
                    f"| {max(loaded[name]) * 1000:.1f} |")
    load = os.getloadavg()[0]
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    expected = rated.value * watchers
    delivery = (f"p50 {percentile(received, 0.5):.2f} s, {p99_label(len(received))} {percentile(received, 0.99):.2f} s, "
                f"max {max(received):.2f} s" if received else "none received")
    text = "\n".join([
        f"Measured {stamp} on {machine_description()}, `python -m benchmarks.ladder_api_bench --clients {args.clients} "
        f"--watchers-per-client {args.watchers_per_client} --rate {args.rate:g} --database {args.database}`: "
        f"{args.rounds} calls of each kind, one after another with 50 ms between rounds; the ladder has 20 bots and "
        f"200 rated matches ({args.database}). {watchers} watchers from {clients_seen} clients ({args.watchers_per_client} "
        f"each, under the per-client cap of {cap}; over {args.processes} processes) were connected while a worker process "
        f"rated {rated.value} new results in {seconds:.0f} s ({rated.value / max(seconds, 1e-9):.1f} per second): "
        f"{len(received)} of {expected} deliveries arrived, from the result's finish to the watcher: {delivery}. "
        f"The machine is shared: its load average was {load:.1f} at the end.",
        "",
        f"| call | p50 ms, no watchers | {p99_label(args.rounds)} ms, no watchers | p50 ms, {watchers} watchers "
        f"| {p99_label(args.rounds)} ms, {watchers} watchers | max ms |",
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
