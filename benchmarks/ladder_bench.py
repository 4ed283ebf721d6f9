"""Ladder benchmarks: matches per minute with random bots for each game, and the scheduler's fairness.

    python -m benchmarks.ladder_bench            # writes the results into docs/ladder.md
    python -m benchmarks.ladder_bench --quick    # shorter runs, prints only

Throughput is measured three ways per game: the full ladder (scheduler, SQLite, local process pool,
bot processes over gRPC), a tournament with bot processes, and a tournament with in-process bots.
Fairness runs the real matchmaker over simulated results and reports the spread of games per bot.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RANDOM = [sys.executable, "-m", "bots", "random"]


def ladder_throughput(game: str, matches: int, workers: int, warm: bool = True) -> float:
    """Matches per minute of a real ladder (SQLite, local pool, bot processes; Python bots forked from warm
    parents unless `warm` is False)."""
    return ladder_run(game, matches, workers, warm)[0]


def ladder_run(game: str, matches: int, workers: int, warm: bool = True) -> tuple[float, float]:
    """(matches per minute, CPU ms of the service process per match: scheduler, executor, warm pool) of a real ladder."""
    import resource

    from ladder.db import migrate, sqlite_url
    from ladder.executors import LocalExecutor
    from ladder.registry import add_bot
    from ladder.service import Ladder, SchedulerOptions
    from ladder.settings import LadderSettings
    from referee.registry import get_game

    players = get_game(game).default_players
    with tempfile.TemporaryDirectory() as home:
        settings = LadderSettings(home=Path(home), db_url=sqlite_url(Path(home) / "ladder.db"))
        migrate(settings.db_url)
        for i in range(max(4, players + 1)):
            add_bot(settings, f"r{i}", game, command=RANDOM)
        executor = LocalExecutor(workers, warm=warm)
        try:
            warm_up = Ladder(settings, executor, SchedulerOptions(concurrency=workers, seed=0, max_matches=workers, tick_seconds=0.02))
            warm_up.run(until_idle=True)
            ladder = Ladder(settings, executor, SchedulerOptions(concurrency=2 * workers, seed=1, max_matches=matches, tick_seconds=0.02))
            cpu = resource.getrusage(resource.RUSAGE_SELF)
            start = time.perf_counter()
            ladder.run(until_idle=True)
            elapsed = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_SELF)
        finally:
            executor.shutdown()
    service_cpu = (after.ru_utime + after.ru_stime) - (cpu.ru_utime + cpu.ru_stime)
    return matches / elapsed * 60, service_cpu / matches * 1000


def tournament_throughput(game: str, games: int, workers: int, in_process: bool, warm: bool = True) -> float:
    """Matches per minute of `b99 tournament` between random bots."""
    import functools

    from bots.registry import make_bot
    from ladder.tournament import run_tournament
    from referee.match import BotSpec
    from referee.registry import get_game

    players = get_game(game).default_players
    if in_process:
        bots = [BotSpec(name="random", factory=functools.partial(make_bot, "random")) for _ in range(players)]
    else:
        bots = [BotSpec(name="random", command=tuple(RANDOM)) for _ in range(players)]
    start = time.perf_counter()
    result = run_tournament(game, bots, games_per_table=games, players=players, parallel=1 if in_process else workers, warm=warm)
    return len(result.reports) / (time.perf_counter() - start) * 60


def fairness(bots: int, players: int, matches: int, seed: int = 0) -> dict[str, float]:
    """Spread of games per bot when the real matchmaker schedules `matches` simulated games
    (results drawn from the bots' hidden strengths, ratings updated as the ladder does)."""
    from ladder.matchmaking import Candidate, pick_table
    from ladder.ratings import RatingTable

    rng = random.Random(seed)
    strength = {b: rng.gauss(0, 1) for b in range(bots)}
    table = RatingTable()
    recent: list[list[int]] = []
    games: Counter[int] = Counter()
    for _ in range(matches):
        window = Counter(b for seats in recent[-200:] for b in seats)
        pool = [Candidate(b, table.rating(b), table.games.get(b, 0), window[b]) for b in range(bots)]
        seats = pick_table(pool, players, rng)
        assert seats is not None
        recent.append(seats)
        performance = [strength[b] + rng.gauss(0, 1) for b in seats]
        ranks = [1 + sum(other > mine for other in performance) for mine in performance]
        table.apply(seats, ranks)
        games.update(seats)
    counts = [games[b] for b in range(bots)]
    return {"min": min(counts), "max": max(counts), "mean": statistics.fmean(counts), "stdev": statistics.pstdev(counts)}


@contextlib.contextmanager
def hosted_servers(workers: int = 2, scratch: Path | None = None):  # type: ignore[no-untyped-def]
    """A throwaway PostgreSQL and Redis on this machine, and `workers` Celery workers (one process each)."""
    from tests.ladder.conftest import PostgresCluster, RedisServer

    postgres, redis = PostgresCluster(), RedisServer()
    scratch = Path(tempfile.mkdtemp(prefix="b99-bench-"))
    processes = [
        subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "ladder", "worker", "--broker",
                          redis.url, "--concurrency", "1", "--name", f"bench{i}@%h", "--scratch", str(scratch / f"w{i}")],
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
        for i in range(workers)
    ]
    try:
        yield postgres, redis, processes
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        redis.stop()
        postgres.stop()


def hosted_ladder(postgres, game: str):  # type: ignore[no-untyped-def]
    """A fresh ladder of random bots for `game` on its own PostgreSQL database."""
    from ladder.db import migrate
    from ladder.registry import add_bot
    from ladder.settings import LadderSettings
    from referee.registry import get_game

    settings = LadderSettings(home=Path(tempfile.mkdtemp(prefix="b99-bench-home-")), db_url=postgres.new_database())
    migrate(settings.db_url)
    for i in range(max(4, get_game(game).default_players + 1)):
        add_bot(settings, f"r{i}", game, command=RANDOM)
    return settings


def celery_throughput(postgres, redis, game: str, matches: int, workers: int) -> float:  # type: ignore[no-untyped-def]
    """Matches per minute of the hosted ladder: PostgreSQL, Redis, Celery workers, bot processes."""
    from ladder.executors import CeleryExecutor
    from ladder.service import Ladder, SchedulerOptions

    settings = hosted_ladder(postgres, game)
    executor = CeleryExecutor(redis.url)
    Ladder(settings, executor, SchedulerOptions(concurrency=workers, seed=0, max_matches=workers, tick_seconds=0.02)).run(until_idle=True)
    ladder = Ladder(settings, executor, SchedulerOptions(concurrency=2 * workers, seed=1, max_matches=matches, tick_seconds=0.02))
    start = time.perf_counter()
    ladder.run(until_idle=True)
    return matches / (time.perf_counter() - start) * 60


def fault_recovery(postgres, redis, workers: list, outage: float = 5.0) -> list[tuple[str, float, float]]:  # type: ignore[no-untyped-def]
    """Per fault: seconds from its start to the first result of a match started after it began (a
    match running through the fault and finishing later does not count), and until every match
    open at the fault is closed (a running hosted ladder of underground_dice with random bots;
    default leases). The last fault freezes a whole Celery worker (SIGSTOP of its process group), as
    a host that drops off the network would: its processes exist, so only its lease running out
    frees its match (the path a worker killed on another machine takes)."""
    import threading

    from sqlalchemy import func
    from sqlmodel import col, select

    from ladder import queries
    from ladder.db import read_session
    from ladder.executors import CeleryExecutor
    from ladder.models import Match, MatchStatus, utcnow
    from ladder.service import Ladder, SchedulerOptions

    settings = hosted_ladder(postgres, "underground_dice")
    ladder = Ladder(settings, CeleryExecutor(redis.url), SchedulerOptions(concurrency=2 * len(workers), seed=2, tick_seconds=0.05))
    loop = threading.Thread(target=ladder.run, daemon=True)
    loop.start()

    def done_since(moment) -> int:  # type: ignore[no-untyped-def]
        with read_session(settings.db_url) as session:
            return int(session.exec(select(func.count()).select_from(Match).where(
                Match.status == MatchStatus.DONE, col(Match.started_at) >= moment)).one())

    def measure(name: str, fault) -> tuple[str, float, float]:  # type: ignore[no-untyped-def]
        while not queries.matches(settings, status=MatchStatus.RUNNING, limit=1):
            time.sleep(0.05)
        open_ids = [row.id for row in queries.matches(settings, limit=50) if row.status in MatchStatus.OPEN]
        began, start = utcnow(), time.perf_counter()
        fault()
        first = None
        while True:
            try:
                if first is None and done_since(began) > 0:
                    first = time.perf_counter() - start
                if all(queries.match(settings, m).status not in MatchStatus.OPEN for m in open_ids):  # type: ignore[union-attr]
                    if first is not None:
                        return name, first, time.perf_counter() - start
            except Exception:  # noqa: BLE001 - the database is coming back
                pass
            time.sleep(0.05)

    def kill_pool_process() -> None:
        row = queries.matches(settings, status=MatchStatus.RUNNING, limit=1)[0]
        os.kill(int(str(row.worker).rsplit(":", 1)[1]), signal.SIGKILL)

    def restart_redis() -> None:
        redis.kill()
        time.sleep(2)
        redis.start()

    def stop_postgres() -> None:
        postgres.halt()
        time.sleep(outage)
        postgres.resume()

    frozen: list[int] = []

    def freeze_worker() -> None:
        while True:  # the worker playing a match (its pool process's pid is in the match's worker name)
            running = queries.matches(settings, status=MatchStatus.RUNNING, limit=10)
            pids = {int(str(row.worker).rsplit(":", 1)[1]) for row in running if row.worker}
            for process in workers:
                if any(_in_group(pid, process.pid) for pid in pids):
                    os.killpg(process.pid, signal.SIGSTOP)
                    frozen.append(process.pid)
                    return
            time.sleep(0.05)

    try:
        return [measure("kill -9 of a pool process mid-match", kill_pool_process),
                measure("Redis restarted without persistence (down 2 s)", restart_redis),
                measure(f"PostgreSQL stopped for {outage:.0f} s", stop_postgres),
                measure("a whole worker frozen mid-match (SIGSTOP: a host gone silent; the lease path)", freeze_worker)]
    finally:
        ladder.stop()
        loop.join(30)
        for group in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)


def _in_group(pid: int, group: int) -> bool:
    """Whether process `pid` belongs to process group `group`."""
    try:
        return os.getpgid(pid) == group
    except ProcessLookupError:
        return False


def distributed(matches: int, quick: bool, faults_only: bool = False) -> int:
    """Hosted-ladder throughput per game next to the embedded ladder, and recovery after faults
    (each written between its own markers of docs/ladder.md)."""
    from referee.registry import game_ids

    stamp = (f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the start, "
             f"`python -m benchmarks.ladder_bench --distributed{' --faults-only' if faults_only else ''}`")
    lines = [
        f"{stamp}: {matches} matches per game between random bots (bot processes over gRPC), 2 matches at a time. "
        "Hosted: the service, PostgreSQL, Redis and 2 Celery workers (one process each) on this machine. "
        "Embedded: SQLite and 2 local match processes.",
        "",
        "| game | hosted (PostgreSQL, Redis, 2 Celery workers) | embedded (SQLite, 2 match processes) |",
        "|---|---:|---:|",
    ]
    faults = [f"{stamp}. Recovery of the hosted ladder (PostgreSQL, Redis, 2 Celery workers; default leases: 20 s "
              "running, 30 s dispatch), underground_dice, timed from the start of each fault; a new result is one of a "
              "match started after the fault began:", "",
              "| fault | first new result | every match open at the fault closed |", "|---|---:|---:|"]
    with hosted_servers(2) as (postgres, redis, workers):
        for game in [] if faults_only else game_ids():
            hosted_rate = celery_throughput(postgres, redis, game, matches, 2)
            embedded_rate = ladder_throughput(game, matches, 2)
            lines.append(f"| {game} | {hosted_rate:.0f}/min | {embedded_rate:.0f}/min |")
            print(lines[-1], flush=True)
        for name, first, closed in fault_recovery(postgres, redis, workers):
            faults.append(f"| {name} | {first:.1f} s | {closed:.1f} s |")
            print(faults[-1], flush=True)
    print("\n".join(([] if faults_only else [*lines, ""]) + faults))
    if not quick:
        doc = ROOT / "docs" / "ladder.md"
        content = doc.read_text()
        sections = [("fault-benchmarks", faults)] + ([] if faults_only else [("distributed-benchmarks", lines)])
        for name, section in sections:
            marker = re.compile(rf"(<!-- {name}:start -->\n).*?(<!-- {name}:end -->)", re.S)
            if not marker.search(content):
                sys.exit(f"{doc}: no {name} markers")
            content = marker.sub(lambda m: m.group(1) + "\n".join(section) + "\n" + m.group(2), content)
        doc.write_text(content)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs; print only")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--distributed", action="store_true",
                        help="the hosted ladder (PostgreSQL, Redis, 2 Celery workers) next to the embedded one, and fault recovery")
    parser.add_argument("--faults-only", action="store_true", help="with --distributed: only the fault recovery")
    args = parser.parse_args()
    if args.distributed:
        return distributed(4 if args.quick else 12, args.quick, args.faults_only)
    from referee.registry import game_ids

    matches = 6 if args.quick else 30
    lines = [
        f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, {args.workers} workers, "
        f"`python -m benchmarks.ladder_bench`.",
        "",
        "| game | ladder (SQLite, pool, bot processes) | tournament, bot processes | tournament, in-process bots |",
        "|---|---:|---:|---:|",
    ]
    for game in game_ids():
        ladder_rate = ladder_throughput(game, matches, args.workers)
        process_rate = tournament_throughput(game, matches, args.workers, in_process=False)
        local_rate = tournament_throughput(game, 4 * matches, args.workers, in_process=True)
        lines.append(f"| {game} | {ladder_rate:.0f}/min | {process_rate:.0f}/min | {local_rate:.0f}/min |")
    lines += ["", "Scheduler fairness (games per bot after simulated matches; the real matchmaker and Elo):", "",
              "| bots | players | matches | min | max | mean | stdev |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for bots, players, count in ((10, 2, 1000), (30, 2, 3000), (12, 4, 1000)):
        spread = fairness(bots, players, count)
        lines.append(f"| {bots} | {players} | {count} | {spread['min']:.0f} | {spread['max']:.0f} | "
                     f"{spread['mean']:.1f} | {spread['stdev']:.2f} |")
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        doc = ROOT / "docs" / "ladder.md"
        content = doc.read_text()
        marker = re.compile(r"(<!-- benchmarks:start -->\n).*?(<!-- benchmarks:end -->)", re.S)
        doc.write_text(marker.sub(lambda m: m.group(1) + text + "\n" + m.group(2), content))
    return 0


if __name__ == "__main__":
    sys.exit(main())
