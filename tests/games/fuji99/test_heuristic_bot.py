"""The Fuji 99 heuristic bot beats the random bot clearly (seats rotated, seeded games)."""

from __future__ import annotations

from math import comb

import pytest

from bots.heuristic.fuji99 import HeuristicBot, red_bust_probability
from bots.random_bot import RandomBot
from referee.local import play_local

GAMES = 30


def binomial_tail(successes: int, trials: int, probability: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, probability)."""
    return sum(comb(trials, k) * probability**k * (1 - probability) ** (trials - k) for k in range(successes, trials + 1))


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_wins_far_more_than_its_share(players: int) -> None:
    firsts = 0
    for game in range(GAMES):
        seat = game % players
        bots = [RandomBot(seed=1000 * game + other) for other in range(players)]
        bots[seat] = HeuristicBot()
        report = play_local("fuji99", bots, seed=game)
        firsts += report.ranks[seat] == 1
    # a bot no better than random wins about 1/players of the games
    assert binomial_tail(firsts, GAMES, 1 / players) < 0.001, f"{firsts} wins in {GAMES} games"


def test_red_bust_probability_is_hypergeometric() -> None:
    bag = {"clear": 6, "yellow": 4, "red": 3}
    assert red_bust_probability(bag, 5, 3) == pytest.approx(10 * 9 / 2 / comb(13, 5))
    assert red_bust_probability(bag, 13, 3) == 1.0
    assert red_bust_probability(bag, 5, 4) == 0.0
    assert red_bust_probability(bag, 5, 0) == 1.0
