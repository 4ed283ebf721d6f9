"""Rating accuracy: how well Elo and the strength fit rank synthetic bots of known strength, and
whether the 90% intervals contain the truth nine times in ten. Writes docs/ladder.md.

    python -m benchmarks.rating_accuracy            # full runs, then docs/ladder.md
    python -m benchmarks.rating_accuracy --quick    # fewer runs, print only

Every run plays synthetic results (ladder.simulation) through the ladder's matchmaker
(`pick_table`), its Elo (`RatingTable`) and its strength fit (`IncrementalFit`); the last table
drives the whole ladder loop on an SQLite database (`LadderSimulation`).
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
from pathlib import Path

from ladder.simulation import LadderSimulation, simulate, spread_strengths

ROOT = Path(__file__).resolve().parent.parent
CHECKPOINTS = (1000, 3000, 10000)


def ranking_table(seeds: int) -> list[str]:
    """Spearman against the true order for 16 bots, mean (and worst) over `seeds` runs."""
    lines = ["| field | players | scheduler | rating | after 1k matches | after 3k | after 10k |",
             "|---|---:|---|---|---:|---:|---:|"]
    for low, high, players in ((1100.0, 1900.0, 2), (1300.0, 1700.0, 2), (1100.0, 1900.0, 4)):
        for scheduler in ("ladder", "random"):
            scores: dict[int, list[tuple[float, float]]] = {n: [] for n in CHECKPOINTS}
            for seed in range(seeds):
                outcome = simulate(spread_strengths(16, low, high), CHECKPOINTS[-1], players, seed=seed,
                                   checkpoints=CHECKPOINTS, refit_every=10, scheduler=scheduler)
                for n in CHECKPOINTS:
                    scores[n].append(outcome.checkpoints[n])
            for index, rating in ((0, "Elo (official)"), (1, "strength fit")):
                cells = " | ".join(f"{statistics.fmean(s[index] for s in scores[n]):.3f} ({min(s[index] for s in scores[n]):.3f})"
                                   for n in CHECKPOINTS)
                lines.append(f"| {low:.0f}-{high:.0f} | {players} | {scheduler} | {rating} | {cells} |")
    return lines


def coverage_table(runs: int) -> list[str]:
    """How often the 90% interval of a difference contains the true difference; identical bots' overlap."""
    lines = ["| players | bots | matches per run | runs | pairs covered by the 90% interval | identical pair: intervals overlap |",
             "|---:|---:|---:|---:|---:|---:|"]
    for players, matches in ((2, 300), (3, 250), (4, 200)):
        hits = total = overlaps = 0
        for seed in range(runs):
            rng = random.Random(10_000 + seed)
            truth = [rng.gauss(1500, 200) for _ in range(8)]
            truth[1] = truth[0]  # two identical bots
            outcome = simulate(truth, matches, players, seed=seed, refit_every=5)
            covered, pairs = outcome.covered(0.9)
            hits, total = hits + covered, total + pairs
            a, b = outcome.fit.interval(0), outcome.fit.interval(1)
            overlaps += a[0] <= b[1] and b[0] <= a[1]
        lines.append(f"| {players} | 8 | {matches} | {runs} | {hits / total:.1%} | {overlaps / runs:.0%} |")
    return lines


def ladder_goal(matches: int) -> list[str]:
    """16 synthetic bots, two-player, through the whole ladder loop on SQLite (in memory-backed files)."""
    from ladder.db import migrate, sqlite_url
    from ladder.settings import LadderSettings

    scratch = "/dev/shm" if Path("/dev/shm").is_dir() else None  # no disk flushes: the database's own cost
    with tempfile.TemporaryDirectory(dir=scratch) as home:
        settings = LadderSettings(home=Path(home), db_url=sqlite_url(Path(home) / "ladder.db"))
        migrate(settings.db_url)
        simulation = LadderSimulation(settings, "underground_dice", players=2, seed=1)
        simulation.add_bots(spread_strengths(16))
        start = time.perf_counter()
        outcome = simulation.run(matches)
        seconds = time.perf_counter() - start
    games = list(outcome.games.values())
    covered, pairs = outcome.covered()
    return [
        f"The whole ladder loop (SQLite, `Ladder` with a synthetic executor), 16 bots, {outcome.matches} two-player "
        f"matches ({seconds:.0f} s): Spearman {outcome.spearman_elo():.3f} for Elo, {outcome.spearman_fit():.3f} for the "
        f"strength fit; games per bot {min(games)} to {max(games)}; {covered} of {pairs} pairs' 90% intervals contain the "
        "true difference."
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs; print only")
    args = parser.parse_args()
    seeds, runs, goal = (2, 40, 300) if args.quick else (3, 60, 1000)
    lines = [
        f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, `python -m benchmarks.rating_accuracy`.",
        "",
        f"Spearman's correlation with the true order, 16 synthetic bots evenly spread over the field, mean (and worst) of {seeds} runs;",
        "`ladder` is the ladder's matchmaker, `random` seats bots uniformly at random:",
        "",
        *ranking_table(seeds),
        "",
        "Intervals: 8 bots drawn from N(1500, 200) with bots 0 and 1 identical; every pair's 90% interval of its",
        "difference, from the strength fit:",
        "",
        *coverage_table(runs),
        "",
        *ladder_goal(goal),
    ]
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        doc = ROOT / "docs" / "ladder.md"
        marker = re.compile(r"(<!-- ratings:start -->\n).*?(<!-- ratings:end -->)", re.S)
        doc.write_text(marker.sub(lambda m: m.group(1) + text + "\n" + m.group(2), doc.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
