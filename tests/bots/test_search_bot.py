"""The searching reference bot (`search`): rewards, choices on a toy game with secrets, the direct
requests its playout policy reads, its budgets, and real games in-process and as a process over gRPC."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bots.registry import per_game_bot
from bots.search.bot import SearchBot
from bots.search.policy import HeuristicPolicy
from bots.search.requests import direct_request
from bots.search.rollout import RolloutSearch, seat_outcome
from referee.chance import sample_outcome
from referee.engine import GameResult
from referee.local import play_local, request_for
from referee.match import MatchSpec, run_match
from referee.registry import get_game
from sdk.forward import InformationSet
from sdk.types import ClockInfo, OptionInfo, Request
from tests.polyglot.helpers import PROCESS_CLOCK, assert_clean, python_bot
from tests.polyglot.toy_game import dealt


def test_outcome_is_the_pairwise_result_and_the_margin_over_the_best_other() -> None:
    assert seat_outcome(GameResult((1, 2), (5.0, 3.0)), 0) == (1.0, 2.0)
    assert seat_outcome(GameResult((2, 1, 2, 4), (4.0, 9.0, 4.0, 1.0)), 0) == (0.5, -5.0)


def test_solo_outcome_is_the_score_or_the_result_against_the_engine_ai() -> None:
    assert seat_outcome(GameResult((1,), (17.0,)), 0) == (17.0, None)
    assert seat_outcome(GameResult((2,), (40.0,), {"ai_score": 52}), 0) == (0.0, -12.0)


def toy_search(cards: list[int], seed: int) -> RolloutSearch:
    state = dealt(len(cards), cards)
    policy = HeuristicPolicy(state.game.id, len(cards), epsilon=0.0)  # no heuristic: random playouts
    return RolloutSearch(InformationSet(0, state), ["fold", "play"], None, policy, random.Random(seed))


@pytest.mark.parametrize("players", [2, 3])
def test_top_card_plays(players: int) -> None:
    search = toy_search([3] + [1] * (players - 1), seed=1)
    search.run(deadline=float("inf"), iterations=200)
    assert search.best() == "play"
    assert search.iterations == 200


def test_search_never_reads_the_opponents_real_card() -> None:
    visits = []
    for opponent_card in (1, 3):
        search = toy_search([2, opponent_card], seed=7)
        search.run(deadline=float("inf"), iterations=150)
        visits.append({option_id: arm.visits for option_id, arm in search.arms.items()})
    assert visits[0] == visits[1]


@pytest.mark.parametrize("game_id", ["deep_dive", "fuji99", "magnificent", "merchants"])
def test_a_direct_request_gets_the_heuristic_s_choice_on_the_wire_request(game_id: str) -> None:
    game = get_game(game_id)
    state = game.new_initial_state(game.make_config(2))
    rng = random.Random(11)
    compared = 0
    while not state.is_terminal() and compared < 12:
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        choices = {}
        for seat in state.deciding_seats():
            options = list(state.legal_options(seat))
            if len(options) > 1:
                on_wire = per_game_bot("bots.heuristic", game_id).choose(request_for(state, seat))
                direct = per_game_bot("bots.heuristic", game_id).choose(direct_request(state, seat, options))
                assert getattr(direct, "id", direct) == getattr(on_wire, "id", on_wire), (game_id, state.decision_name(seat))
                compared += 1
            choices[seat] = options[rng.randrange(len(options))].id
        state.apply_decisions(choices)
    assert compared > 0


def test_without_a_world_it_plays_the_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("fuji99")
    state = game.new_initial_state(game.make_config(2))
    rng = random.Random(2)
    while state.is_chance_node() or len(state.legal_options(state.deciding_seats()[0])) == 1:
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
        else:
            seat = state.deciding_seats()[0]
            state.apply_decisions({seat: state.legal_options(seat)[0].id})
    request = request_for(state, state.deciding_seats()[0])
    expected = per_game_bot("bots.heuristic", "fuji99").choose(request)
    assert SearchBot(iterations=5, seed=1).choose(request) == getattr(expected, "id", expected)
    assert "no worlds" in capsys.readouterr().err


def test_the_match_clock_caps_a_cpu_budget() -> None:
    bot = SearchBot(seconds=10.0, cpu_seconds=True)
    request = Request(1, "high_card", 0, 2, {}, "play_or_fold", [OptionInfo(0, "fold", "Fold")], [], ClockInfo(0.1, 0.0))
    assert abs(bot._deadline(request, 100.0) - 100.08) < 1e-9


def test_plays_underground_dice_in_process_and_every_choice_is_legal() -> None:
    bots = [SearchBot(iterations=4, seed=3), per_game_bot("bots.heuristic", "underground_dice")]
    report = play_local("underground_dice", bots, seed=5)
    assert_clean(report)
    assert bots[0].last_search is not None and bots[0].last_search.iterations == 4


def test_plays_as_a_process_with_worlds_over_grpc() -> None:
    search = python_bot("search", "bots", "search")
    search = type(search)(name="search", command=search.command, env={"B99_SEARCH_ITERATIONS": "3", "B99_BOT_SEED": "3"})
    report = run_match(
        MatchSpec(game="underground_dice", bots=[search, python_bot("random", "bots", "random")], seed=4, time_control=PROCESS_CLOCK)
    )
    assert_clean(report)
    assert "no worlds" not in report.seats[0].stderr_tail


@pytest.mark.parametrize("players", [1, 2])
def test_merchants_playouts_use_a_faster_heuristic_with_the_same_choices(players: int) -> None:
    from bots.search.merchants_policy import FastMerchantsHeuristic

    assert isinstance(HeuristicPolicy("merchants", players, 0.0).bots[0], FastMerchantsHeuristic)
    game = get_game("merchants")
    slow, fast = per_game_bot("bots.heuristic", "merchants"), FastMerchantsHeuristic()
    rng = random.Random(players)
    state = game.new_initial_state(game.make_config(players))
    compared = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        choices = {}
        for seat in state.deciding_seats():
            options = list(state.legal_options(seat))
            choices[seat] = options[rng.randrange(len(options))].id  # random play: positions the heuristic would not reach
            if len(options) > 1:
                request = direct_request(state, seat, options)
                answer, twin = slow.choose(request), fast.choose(request)
                assert getattr(twin, "id", twin) == getattr(answer, "id", answer), state.decision_name(seat)
                compared += 1
                if rng.random() < 0.5:
                    choices[seat] = getattr(answer, "id", answer)
        state.apply_decisions(choices)
    assert compared > 40


def _twin_agrees(twin: Any, game_id: str, players: int, variants: dict[str, str], heuristic_shares: Sequence[float]) -> int:
    """Plays one game per share of heuristic moves (the rest random: positions the heuristic would not reach) and
    checks at every decision with a choice that `twin.choose_in_state` picks what the heuristic picks on the request;
    returns how many decisions it compared."""
    game = get_game(game_id)
    heuristic = per_game_bot("bots.heuristic", game_id)
    rng = random.Random(players)
    compared = 0
    for heuristic_share in heuristic_shares:
        state = game.new_initial_state(game.make_config(players, variants))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            seat = state.deciding_seats()[0]
            options = list(state.legal_options(seat))
            choice = options[rng.randrange(len(options))].id
            if len(options) > 1:
                answer = heuristic.choose(direct_request(state, seat, options))
                assert twin.choose_in_state(state, seat, options) == getattr(answer, "id", answer), state.decision_name(seat)
                compared += 1
                if rng.random() < heuristic_share:
                    choice = getattr(answer, "id", answer)
            state.apply_decisions({seat: choice})
    return compared


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fuji_playouts_decide_from_the_state_with_the_heuristics_choices(players: int) -> None:
    """The Fuji 99 playout policy reads the engine state through a lazy view: same choices as the heuristic's request."""
    from bots.search.fuji_policy import FastFujiHeuristic

    assert isinstance(HeuristicPolicy("fuji99", players, 0.0).bots[0], FastFujiHeuristic)
    assert _twin_agrees(FastFujiHeuristic(), "fuji99", players, {}, [0.7] * 6) > 100


@pytest.mark.parametrize(("players", "difficulty"), [(1, "easy"), (1, "medium"), (1, "hard"), (2, None), (4, None)])
def test_deep_dive_playouts_decide_from_the_state_with_the_heuristics_choices(players: int, difficulty: str | None) -> None:
    """The DEEP DIVE playout policy reads the engine state through a lazy view: same choices as the heuristic's request."""
    from bots.search.deep_dive_policy import FastDeepDiveHeuristic

    assert isinstance(HeuristicPolicy("deep_dive", players, 0.0).bots[0], FastDeepDiveHeuristic)
    variants = {"ai_difficulty": difficulty} if difficulty else {}
    assert _twin_agrees(FastDeepDiveHeuristic(), "deep_dive", players, variants, [0.5, 0.7, 0.8, 0.9, 0.95, 1.0]) > 300
