"""Elo with pairwise multiplayer results, replay, bootstrap intervals."""

from __future__ import annotations

import math

import elo
import pytest

from ladder.ratings import INITIAL_RATING, K_FACTOR, RatingTable, pairwise_scores, rate_match, replay_ratings, win_shares


def test_two_player_win_matches_elo_package() -> None:
    env = elo.Elo(k_factor=K_FACTOR, rating_class=float, initial=INITIAL_RATING, beta=200)
    expected = env.rate_1vs1(1600.0, 1500.0)
    assert rate_match([1600.0, 1500.0], [1, 2]) == pytest.approx([float(expected[0]), float(expected[1])])


def test_two_player_draw_moves_toward_each_other() -> None:
    after = rate_match([1600.0, 1500.0], [1, 1])
    assert after[0] < 1600.0 and after[1] > 1500.0
    assert sum(after) == pytest.approx(3100.0)


def test_multiplayer_is_pairwise_with_k_divided() -> None:
    before = [1500.0, 1500.0, 1500.0, 1500.0]
    after = rate_match(before, [1, 2, 2, 4])
    # Equal ratings: each pairwise game is worth k/3 * (score - 0.5).
    k = K_FACTOR / 3
    assert after[0] == pytest.approx(1500 + k * 1.5)
    assert after[1] == pytest.approx(1500 + k * ((0.0 - 0.5) + (0.5 - 0.5) + (1.0 - 0.5)))
    assert after[1] == after[2]
    assert after[3] == pytest.approx(1500 - k * 1.5)
    assert sum(after) == pytest.approx(6000.0)


def test_pairwise_scores_and_win_shares() -> None:
    assert pairwise_scores([2, 1]) == [[(0.0, 1)], [(1.0, 0)]]
    assert win_shares([1, 2, 2]) == [1.0, 0.25, 0.25]


def test_solo_game_changes_nothing() -> None:
    assert rate_match([1234.0], [1]) == [1234.0]


def test_ratings_are_floats() -> None:
    table = RatingTable()
    table.apply(["a", "b"], [1, 2])
    assert all(type(value) is float for value in table.ratings.values())


def test_self_play_seats_share_the_mean_change() -> None:
    table = RatingTable()
    table.apply(["a", "a", "b"], [1, 3, 2])
    assert table.games == {"a": 1, "b": 1}
    assert math.isfinite(table.rating("a"))
    assert table.rating("b") == pytest.approx(INITIAL_RATING)  # beat one a, lost to the other, equal ratings


def test_replay_is_deterministic_and_order_matters() -> None:
    history = [(["a", "b"], [1, 2]), (["b", "c"], [1, 2]), (["c", "a"], [1, 1])]
    first = replay_ratings(history).ratings
    assert replay_ratings(history).ratings == first
    assert replay_ratings(list(reversed(history))).ratings != first


def test_strength_fit_of_two_bots_is_the_log_odds() -> None:
    from ladder.strength import fit_history

    history = [(["a", "b"], [1, 2])] * 30 + [(["b", "a"], [1, 2])] * 10  # a wins 3 of 4
    fit = fit_history(history)
    estimate, low, high = fit.difference("a", "b")
    assert estimate == pytest.approx(400 * math.log10(3), abs=8)  # the prior pulls it in only a little
    assert low < estimate < high and 100 < high - low < 400
    assert fit.rating("a") + fit.rating("b") == pytest.approx(2 * INITIAL_RATING)
    assert fit.interval("nobody") == pytest.approx((INITIAL_RATING - 1.645 * 400, INITIAL_RATING + 1.645 * 400), abs=1)
