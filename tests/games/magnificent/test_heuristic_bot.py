"""The Magnificent heuristic bot: sensible single decisions, and it clearly beats random bots at 2 and 4 players."""

from __future__ import annotations

from bots.evaluate import evaluate
from bots.heuristic.magnificent import HeuristicBot
from referee.local import request_for
from tests.games.magnificent.helpers import A, begin_turn, decide, setup_game


def test_perform_when_a_poster_is_ready_and_take_the_best_set() -> None:
    state = setup_game(2, start=A)
    player = state.players_state[A]
    player.tiles = [("Os", 0, 0, 0)]
    player.posters = ["SP1", None, None, None, None]
    player.gems = [0, 1, 0, 0]
    state.main_tent = {"P:3": 1}
    begin_turn(state, A)
    decide(state, "die:P:3")
    decide(state, state.legal_options(A)[0].id)
    bot = HeuristicBot()
    assert bot.choose(request_for(state, A)) == "action:PERFORM"
    decide(state, "action:PERFORM", "resolve")
    space = bot.choose(request_for(state, A))
    decide(state, space)
    assert bot.choose(request_for(state, A)) == "posters:1"


def test_avoids_dice_it_cannot_pay_for() -> None:
    state = setup_game(2, start=A)
    state.round = 3
    player = state.players_state[A]
    player.coins = 0
    player.dice = {player.masters[0]: ("O", 6)}
    state.main_tent = {"O:6": 1, "G:1": 1}
    begin_turn(state, A)
    assert HeuristicBot().choose(request_for(state, A)) == "die:G:1"


def test_beats_random_bots_at_two_and_four_players() -> None:
    # a random seat wins 1/2 and 1/4 of these; winning 3 of 4 and 2 of 2 by chance has p < 0.02
    two = evaluate("magnificent", 4, players=2)
    four = evaluate("magnificent", 2, players=4)
    assert two.wins >= 3 and four.wins == 2
    assert two.mean_score_margin > 0 and four.mean_score_margin > 0
