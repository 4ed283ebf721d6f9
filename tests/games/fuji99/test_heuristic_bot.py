"""The Fuji 99 heuristic bot beats the random bot clearly (seats rotated, seeded games)."""

from __future__ import annotations

from math import comb

import pytest

from bots.evaluate import evaluate
from bots.heuristic.fuji99 import HeuristicBot, red_bust_probability
from referee.local import request_for
from tests.games.fuji99.helpers import begin_turn, draw, draw_cards, give, new_state

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


def _choice(state: object) -> str:
    return str(HeuristicBot().choose(request_for(state, state.active)))  # type: ignore[attr-defined]


def test_bot_uses_a_card_that_wins() -> None:
    state = new_state()
    state.pos[:] = [88, 50, 40]
    state.got[0] = [True, True]
    give(state, 0, "lantern-1")
    give(state, 0, "tunnel-1")
    begin_turn(state, 0)
    draw(state, 5, 3, 2, 0)
    assert _choice(state) == "use:tunnel-1"


def test_bot_never_gives_itself_an_ill_omen() -> None:
    state = new_state()
    state.pos[:] = [30, 10, 12]
    give(state, 0, "ill_omen-1")
    begin_turn(state, 0)
    draw(state, 5, 3, 1, 1)
    assert _choice(state) == "end_use"


def test_bot_stops_with_two_reds_out_and_continues_with_none() -> None:
    risky = new_state()
    begin_turn(risky, 0)
    draw(risky, 8, 4, 2, 2)
    draw_cards(risky, ["lantern-1"])
    assert _choice(risky) == "stop"
    safe = new_state()
    begin_turn(safe, 0)
    draw(safe, 5, 5, 0, 0)
    draw_cards(safe, ["lantern-1"])
    assert _choice(safe) == "continue"


def test_bot_draws_more_cubes_when_nothing_is_at_risk() -> None:
    state = new_state()
    first = int(_choice(state).split(":")[1])
    draw(state, first, first - 2, 1, 1)
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "continue")
    second = int(_choice(state).split(":")[1])
    assert first >= 7 and second < first
