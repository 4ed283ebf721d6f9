"""Ladder benchmarks: matches per minute with random bots for each game, and the scheduler's fairness.

    python -m benchmarks.ladder_bench            # writes the results into docs/ladder.md
    python -m benchmarks.ladder_bench --quick    # shorter runs, prints only

Throughput is measured three ways per game: the full ladder (scheduler, SQLite, local process pool,
bot processes over gRPC), a tournament with bot processes, and a tournament with in-process bots.
Fairness runs the real matchmaker over simulated results and reports the spread of games per bot.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RANDOM = [sys.executable, "-m", "bots", "random"]


def ladder_throughput(game: str, matches: int, workers: int) -> float:
    """Matches per minute of a real ladder (SQLite, local pool, bot processes)."""
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
        executor = LocalExecutor(workers)
        try:
            warm = Ladder(settings, executor, SchedulerOptions(concurrency=workers, seed=0, max_matches=workers, tick_seconds=0.02))
            warm.run(until_idle=True)
            ladder = Ladder(settings, executor, SchedulerOptions(concurrency=2 * workers, seed=1, max_matches=matches, tick_seconds=0.02))
            start = time.perf_counter()
            ladder.run(until_idle=True)
            elapsed = time.perf_counter() - start
        finally:
            executor.shutdown()
    return matches / elapsed * 60


def tournament_throughput(game: str, games: int, workers: int, in_process: bool) -> float:
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
    result = run_tournament(game, bots, games_per_table=games, players=players, parallel=1 if in_process else workers)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs; print only")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
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
