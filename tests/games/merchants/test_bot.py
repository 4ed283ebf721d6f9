"""The Merchants of B99 heuristic bot against the random bot (small, cheap versions of docs/bots.md's runs)."""

from __future__ import annotations

from bots.heuristic.merchants import HeuristicBot
from bots.random_bot import RandomBot
from referee.local import play_local, request_for
from tests.games.merchants.helpers import at_decision, new_state, play_until
from tests.games.merchants.test_examples import e12_position


def test_heuristic_beats_random_at_two_players_with_seats_rotated() -> None:
    games = 8
    wins = 0
    margin = 0.0
    for game in range(games):
        seat = game % 2
        bots = [RandomBot(seed=game), RandomBot(seed=game + 100)]
        bots[seat] = HeuristicBot()
        report = play_local("merchants", bots, seed=500 + game)
        wins += report.ranks[seat] == 1 and report.ranks[1 - seat] == 2
        margin += report.scores[seat] - report.scores[1 - seat]
    # Against an equal opponent 7+ clear wins out of 8 has probability 9/256.
    assert wins >= 7
    assert margin / games > 15


def test_heuristic_solo_average_reaches_a_merchant_title() -> None:
    scores = [play_local("merchants", [HeuristicBot()], seed=700 + game).scores[0] for game in range(4)]
    random_scores = [play_local("merchants", [RandomBot(seed=game)], seed=700 + game).scores[0] for game in range(4)]
    assert sum(scores) / len(scores) >= 45  # title C or better
    assert sum(scores) > sum(random_scores) + 4 * 15


def test_heuristic_scores_the_dungeon_worth_most_now() -> None:
    state = e12_position(back_side=False)  # castle 7 with a thumbs-up, swamp 2
    choice = HeuristicBot().choose(request_for(state, 0))
    assert (choice if isinstance(choice, str) else choice.id) == "dungeon:castle"


def test_heuristic_plans_a_whole_legal_placement() -> None:
    state = play_until(new_state(2), at_decision("choose_tile", 1))
    bot = HeuristicBot()
    for _ in range(3):
        choices = {}
        for seat in state.deciding_seats():
            request = request_for(state, seat)
            choice = bot.choose(request)
            assert isinstance(choice, str)
            choices[seat] = choice
            assert choices[seat] in [option.id for option in request.options]
        state.apply_decisions(choices)
    assert all(len(player.shop) == 2 for player in state.players_state)
