"""The ladder's rate with random bots beside an in-process tournament's, in the same run.

Underground Dice, random bots: the embedded ladder (scheduler, SQLite, local match processes, bot
processes over gRPC) and `b99 tournament` with in-process bots, alternated, so load hits both alike.
The match processes' own cost is in the per-match table (benchmarks.bench_decision_cost) and the
bot start-up in the start-up table (benchmarks.bench_startup).

    python -m benchmarks.bench_ladder_rate [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics

from benchmarks.ladder_bench import ladder_throughput, tournament_throughput

GAME = "underground_dice"
TARGET_PER_MINUTE = 600
TARGET_RATIO = 0.5


def run(quick: bool = False) -> str:
    """The markdown section for docs/benchmarks.md."""
    workers = os.cpu_count() or 1
    matches, games, rounds = (30, 20, 1) if quick else (120, 100, 2)
    ladder: list[float] = []
    tournament: list[float] = []
    for _ in range(rounds):
        ladder.append(ladder_throughput(GAME, matches, workers))
        tournament.append(tournament_throughput(GAME, games, workers, in_process=True))
    ladder_rate = statistics.median(ladder)
    tournament_rate = statistics.median(tournament)
    lines = [
        "## Ladder: matches a minute beside an in-process tournament",
        "",
        f"{GAME}, random bots, {workers} workers; {rounds} round(s) of {matches} ladder matches (after a warm-up) and an",
        f"in-process tournament of {games} games per table, alternated; medians.",
        f"Targets: the ladder at least {TARGET_PER_MINUTE} matches a minute and at least {TARGET_RATIO:g}x the tournament.",
        "",
        "| what | matches/min | ratio to the tournament |",
        "|---|---:|---:|",
        f"| embedded ladder (SQLite, match processes, bot processes) | {ladder_rate:,.0f} | {ladder_rate / tournament_rate:.3f}x |",
        f"| in-process tournament | {tournament_rate:,.0f} | 1x |",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(run(quick=parser.parse_args().quick))


if __name__ == "__main__":
    main()
