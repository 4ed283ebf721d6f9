"""The Fuji 99 heuristic bot beats the random bot clearly (seats rotated, seeded games)."""

from __future__ import annotations

from math import comb

import pytest

from bots.evaluate import evaluate
from bots.heuristic.fuji99 import red_bust_probability

GAMES = 30


def binomial_tail(successes: int, trials: int, probability: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, probability)."""
    return sum(comb(trials, k) * probability**k * (1 - probability) ** (trials - k) for k in range(successes, trials + 1))


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_wins_far_more_than_its_share(players: int) -> None:
    result = evaluate("fuji99", GAMES, players)
    # a bot no better than random wins (alone) about 1/players of the games
    assert binomial_tail(result.wins, GAMES, 1 / players) < 0.001, f"{result.wins} wins in {GAMES} games"
    assert result.mean_score_margin > 0


def test_red_bust_probability_is_hypergeometric() -> None:
    bag = {"clear": 6, "yellow": 4, "red": 3}
    assert red_bust_probability(bag, 5, 3) == pytest.approx(10 * 9 / 2 / comb(13, 5))
    assert red_bust_probability(bag, 13, 3) == 1.0
    assert red_bust_probability(bag, 5, 4) == 0.0
    assert red_bust_probability(bag, 5, 0) == 1.0
