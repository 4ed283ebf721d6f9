"""The DEEP DIVE heuristic bot against random bots (seats rotated).

The figures in docs/bots.md come from:  python -m tests.games.deep_dive.test_bot <players> <games>
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from bots.heuristic.deep_dive import HeuristicBot
from bots.random_bot import RandomBot
from referee.local import play_local


@dataclass(frozen=True)
class Tally:
    games: int
    win_share: float  # shared wins count as a fraction
    mean_score: float
    mean_random_score: float


def versus_random(players: int, games: int, first_seed: int = 0, variants: dict | None = None) -> Tally:
    """The heuristic bot in seat g % players of game g, random bots elsewhere; seeds first_seed.. onwards."""
    wins = score = random_score = 0.0
    for game in range(games):
        seed = first_seed + game
        seat = game % players
        seats = [RandomBot(seed=seed * 10 + s) for s in range(players)]
        seats[seat] = HeuristicBot()
        report = play_local("deep_dive", seats, seed=seed, variants=variants)
        if report.ranks[seat] == 1:
            wins += 1 / list(report.ranks).count(1)
        score += report.scores[seat]
        others = [report.scores[s] for s in range(players) if s != seat]
        random_score += sum(others) / max(len(others), 1)
    return Tally(games, wins / games, score / games, random_score / games)


def test_heuristic_beats_random_at_2_players() -> None:
    tally = versus_random(2, 24, first_seed=10_000)
    # fair share 0.5; the full run (docs/bots.md) gives about 0.8
    assert tally.win_share >= 0.6, tally
    assert tally.mean_score > tally.mean_random_score + 5, tally


def test_heuristic_beats_random_at_4_players() -> None:
    tally = versus_random(4, 16, first_seed=20_000)
    # fair share 0.25; the full run gives about 0.6
    assert tally.win_share >= 0.4, tally
    assert tally.mean_score > tally.mean_random_score + 5, tally


def test_heuristic_plays_solo_and_decides_ai_picks() -> None:
    report = play_local("deep_dive", [HeuristicBot()], seed=3, variants={"ai_difficulty": "easy"})
    assert report.ranks == (1,) or list(report.ranks) == [1]
    assert report.scores[0] > 0


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    started = time.perf_counter()
    result = versus_random(count, total)
    print(
        f"deep_dive {count} players, {result.games} games: heuristic win share {result.win_share:.3f} "
        f"(fair {1 / count:.3f}), mean score {result.mean_score:.1f} vs random {result.mean_random_score:.1f} "
        f"({time.perf_counter() - started:.0f} s)"
    )
