"""Rating accuracy: how well Elo and the strength fit rank synthetic bots of known strength, whether
the leaderboard's 90% intervals contain the truth nine times in ten, how fast they narrow and
separate bots 250 apart, and how far apart identical bots' official Elo ends. Writes docs/ladder.md.

    python -m benchmarks.rating_accuracy            # full runs, then docs/ladder.md
    python -m benchmarks.rating_accuracy --quick    # fewer runs, print only

Every run plays synthetic results (ladder.simulation) through the ladder's matchmaker
(`pick_table`), its Elo (`RatingTable`) and its strength fit (`IncrementalFit`); the last table
drives the whole ladder loop on an SQLite database (`LadderSimulation`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ladder.simulation import (
    LadderSimulation, bots_covered, intervals_overlap, pairs_covered, simulate, spread_strengths,
)

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


#: Games per bot at which the leaderboard's intervals are checked.
GAMES_PER_BOT = (25, 100, 400)
#: Games per bot at which the official Elo of identical bots is compared.
ELO_GAMES = (100, 400, 1600)
#: Games per bot at which two bots 250 apart are checked for disjoint intervals.
SEPARATION_GAMES = (25, 50, 100, 200, 400)
FIELD = 8


def _checkpoints(games: Sequence[int], players: int) -> dict[int, int]:
    """Matches after which the field's bots have played `games` each on average -> those games."""
    return {max(1, round(count * FIELD / players)): count for count in games}


def board_interval_table(runs: int) -> list[str]:
    """The quantity the leaderboard shows, a bot's 90% interval relative to the field's mean:
    coverage, its half-width as the bot plays, and whether two identical bots' intervals overlap."""
    lines = ["| players | games per bot | runs | bots whose 90% interval holds the truth | pairs whose difference interval holds it "
             "| median ± | identical pair: intervals overlap |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for players in (2, 3, 4):
        marks = _checkpoints(GAMES_PER_BOT, players)
        found: dict[int, list[tuple[int, int, int, int, float, bool]]] = {n: [] for n in marks}
        for seed in range(runs):
            rng = random.Random(20_000 + seed)
            truth = [rng.gauss(1500, 200) for _ in range(FIELD)]
            truth[1] = truth[0]  # two identical bots
            outcome = simulate(truth, max(marks), players, seed=seed, checkpoints=tuple(marks), refit_every=5)
            for n in marks:
                _, fit, _ = outcome.snapshots[n]
                bots, bot_total = bots_covered(fit, outcome.truth)
                pairs, pair_total = pairs_covered(fit, outcome.truth)
                half = statistics.median((fit.interval(b)[1] - fit.interval(b)[0]) / 2 for b in fit.index)
                found[n].append((bots, bot_total, pairs, pair_total, half, intervals_overlap(fit, 0, 1)))
        for n, games in marks.items():
            rows = found[n]
            bots = sum(r[0] for r in rows) / sum(r[1] for r in rows)
            pairs = sum(r[2] for r in rows) / sum(r[3] for r in rows)
            half = statistics.median(r[4] for r in rows)
            overlap = sum(r[5] for r in rows) / len(rows)
            lines.append(f"| {players} | {games} | {runs} | {bots:.1%} | {pairs:.1%} | {half:.0f} | {overlap:.0%} |")
    return lines


def separation_table(runs: int) -> list[str]:
    """How often the leaderboard's 90% intervals of two bots 250 apart are disjoint, by games per bot."""
    header = " | ".join(f"{games} games" for games in SEPARATION_GAMES)
    lines = [f"| players | runs | {header} |", "|---:|---:|" + "---:|" * len(SEPARATION_GAMES)]
    for players in (2, 4):
        marks = _checkpoints(SEPARATION_GAMES, players)
        apart: dict[int, int] = {n: 0 for n in marks}
        for seed in range(runs):
            rng = random.Random(30_000 + seed)
            truth = [1625.0, 1375.0] + [rng.gauss(1500, 200) for _ in range(FIELD - 2)]
            outcome = simulate(truth, max(marks), players, seed=seed, checkpoints=tuple(marks), refit_every=5)
            for n in marks:
                apart[n] += not intervals_overlap(outcome.snapshots[n][1], 0, 1)
        lines.append(f"| {players} | {runs} | " + " | ".join(f"{apart[n] / runs:.0%}" for n in marks) + " |")
    return lines


def elo_spread_table(runs: int) -> list[str]:
    """How far apart the official Elo (K = 32) of two identical bots ends, by games per bot; the
    strength fit's estimates beside it."""
    lines = ["| games per bot | runs | Elo gap: median | Elo gap: 90th percentile | strength fit gap: median | 90th percentile |",
             "|---:|---:|---:|---:|---:|---:|"]
    marks = _checkpoints(ELO_GAMES, 2)
    gaps: dict[int, list[tuple[float, float]]] = {n: [] for n in marks}
    for seed in range(runs):
        rng = random.Random(40_000 + seed)
        truth = [1500.0, 1500.0] + [rng.gauss(1500, 200) for _ in range(FIELD - 2)]
        outcome = simulate(truth, max(marks), 2, seed=seed, checkpoints=tuple(marks), refit_every=10)
        for n in marks:
            elo, fit, _ = outcome.snapshots[n]
            gaps[n].append((abs(elo[0] - elo[1]), abs(fit.rating(0) - fit.rating(1))))
    for n, games in marks.items():
        elo_gaps = sorted(g[0] for g in gaps[n])
        fit_gaps = sorted(g[1] for g in gaps[n])
        lines.append(f"| {games} | {runs} | {statistics.median(elo_gaps):.0f} | {_percentile(elo_gaps, 0.9):.0f} "
                     f"| {statistics.median(fit_gaps):.0f} | {_percentile(fit_gaps, 0.9):.0f} |")
    return lines


def _percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile of sorted `values` (nearest rank)."""
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


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
    held, played = outcome.covered_bots()
    return [
        f"The whole ladder loop (SQLite, `Ladder` with a synthetic executor), 16 bots, {outcome.matches} two-player "
        f"matches ({seconds:.0f} s): Spearman {outcome.spearman_elo():.3f} for Elo, {outcome.spearman_fit():.3f} for the "
        f"strength fit; games per bot {min(games)} to {max(games)}; {held} of {played} bots' leaderboard intervals and "
        f"{covered} of {pairs} pairs' 90% intervals of their difference contain the truth."
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs; print only")
    parser.add_argument("--ladder-matches", type=int, default=None,
                        help="matches of the whole-ladder run on SQLite (default 1000, 300 with --quick)")
    args = parser.parse_args()
    seeds, runs, goal = (2, 20, 300) if args.quick else (3, 60, 1000)
    goal = args.ladder_matches or goal
    lines = [
        f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, `python -m benchmarks.rating_accuracy`.",
        "",
        f"Spearman's correlation with the true order, 16 synthetic bots evenly spread over the field, mean (and worst) of {seeds} runs;",
        "`ladder` is the ladder's matchmaker, `random` seats bots uniformly at random:",
        "",
        *ranking_table(seeds),
        "",
        f"The leaderboard's interval (a bot's strength relative to the field's mean, 90%): {FIELD} bots drawn from",
        "N(1500, 200) with bots 0 and 1 identical, scheduled by the ladder's matchmaker; a bot's interval holds the truth",
        "when it contains the bot's true strength minus the field's true mean, plus 1500:",
        "",
        *board_interval_table(runs),
        "",
        f"Two bots 250 apart (1625 and 1375) among {FIELD - 2} drawn from N(1500, 200): how often their leaderboard",
        "intervals are disjoint, by games per bot:",
        "",
        *separation_table(runs),
        "",
        f"The official Elo (K = 32, in rating order) of two identical bots among {FIELD - 2} others, two-player: the gap",
        "between their ratings by games per bot, and the strength fit's gap beside it:",
        "",
        *elo_spread_table(runs),
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
