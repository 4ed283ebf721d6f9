"""Honest uncertainty and smarter scheduling, measured on synthetic bots of known strength played
through the ladder's own matchmaker and ratings (small versions; benchmarks/rating_accuracy.py runs
the full ones and writes docs/ladder.md)."""

from __future__ import annotations

import random

import pytest

from ladder import queries
from ladder.matchmaking import Candidate, opponent_weight, pick_table
from ladder.recompute import recompute
from ladder.settings import LadderSettings
from ladder.simulation import LadderSimulation, simulate, spread_strengths, synthetic_ranks
from ladder.strength import fit_history, spearman
from tests.ladder.conftest import GAME


def overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def test_synthetic_results_follow_the_elo_model() -> None:
    rng = random.Random(3)
    wins = sum(synthetic_ranks([1700.0, 1500.0], rng)[0] == 1 for _ in range(4000))
    assert wins / 4000 == pytest.approx(1 / (1 + 10 ** (-200 / 400)), abs=0.025)  # 0.76


def test_identical_bots_intervals_overlap() -> None:
    """Measured: two identical bots ended 136 Elo apart with disjoint 90% intervals. Two identical
    bots among others, about 115 games each: the strength fit's intervals always overlap."""
    for seed in range(12):
        truth = [1500.0, 1500.0, 1300.0, 1700.0]
        outcome = simulate(truth, 230, 2, seed=seed, refit_every=10)
        assert overlap(outcome.fit.interval(0), outcome.fit.interval(1))
        fit = fit_history(_history(truth, 230, seed))
        assert overlap(fit.interval(0), fit.interval(1))


def _history(truth: list[float], matches: int, seed: int) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    history = []
    for _ in range(matches):
        players = rng.sample(range(len(truth)), 2)
        history.append((players, synthetic_ranks([truth[p] for p in players], rng)))
    return history


@pytest.mark.parametrize(("players", "bots", "matches", "runs"), [(2, 6, 200, 40), (4, 6, 150, 25)])
def test_ninety_percent_intervals_cover_the_true_difference(players: int, bots: int, matches: int, runs: int) -> None:
    hits = total = 0
    for seed in range(runs):
        rng = random.Random(1000 + seed)
        truth = [rng.gauss(1500, 200) for _ in range(bots)]
        outcome = simulate(truth, matches, players, seed=seed, refit_every=5)
        covered, pairs = outcome.covered(0.9)
        hits += covered
        total += pairs
    assert 0.85 <= hits / total <= 0.95


@pytest.mark.parametrize(("players", "bots", "matches", "runs"), [(2, 6, 200, 40), (4, 6, 150, 60)])
def test_the_leaderboard_interval_covers_the_bot_s_strength(players: int, bots: int, matches: int, runs: int) -> None:
    """The interval a leaderboard row shows (the bot's strength relative to the field's mean, + 1500)
    holds the truth about nine times in ten."""
    hits = total = 0
    for seed in range(runs):
        rng = random.Random(1000 + seed)
        outcome = simulate([rng.gauss(1500, 200) for _ in range(bots)], matches, players, seed=seed, refit_every=5)
        covered, played = outcome.covered_bots(0.9)
        hits += covered
        total += played
    assert 0.85 <= hits / total <= 0.95


def test_the_leaderboard_interval_shrinks_as_a_bot_plays() -> None:
    """Measured: a bot's interval was +-200 after 85 games and still +-200 after 772 (the field's
    level, known only from the prior, was part of it). Now it narrows about as 1 / sqrt(games)."""
    outcome = simulate([1500.0, 1500.0, 1300.0, 1700.0], 1600, 2, seed=1, checkpoints=(100, 1600), refit_every=5)
    early, late = outcome.snapshots[100][1], outcome.snapshots[1600][1]
    for bot in range(4):
        assert late.interval(bot)[1] - late.interval(bot)[0] < 0.4 * (early.interval(bot)[1] - early.interval(bot)[0])


def test_two_bots_far_apart_are_shown_apart() -> None:
    """Measured: with two bots, one winning 908 of 973 games, the rows showed overlapping intervals
    (806-1737 against 1263-2194) while their difference was clearly apart."""
    outcome = simulate([1960.0, 1500.0], 973, 2, seed=2)
    fit = outcome.fit
    assert not overlap(fit.interval(0), fit.interval(1))
    assert fit.better(0, 1) > 0.999
    assert fit.interval(1)[1] - fit.interval(1)[0] < 60


@pytest.mark.parametrize(("players", "games"), [(2, 100), (4, 50)])
def test_bots_250_apart_separate_after_a_stated_number_of_games(players: int, games: int) -> None:
    """docs/ladder.md states the games per bot after which two bots 250 apart have disjoint intervals
    (benchmarks/rating_accuracy.py); a small version of that run."""
    apart = 0
    runs = 12
    for seed in range(runs):
        rng = random.Random(30_000 + seed)
        truth = [1625.0, 1375.0] + [rng.gauss(1500, 200) for _ in range(6)]
        outcome = simulate(truth, games * 8 // players, players, seed=seed, refit_every=5)
        apart += not overlap(outcome.fit.interval(0), outcome.fit.interval(1))
    assert apart >= runs - 1


def test_sixteen_bots_are_ranked_right_within_3000_matches() -> None:
    outcome = simulate(spread_strengths(16), 3000, 2, seed=0, refit_every=10)
    assert outcome.spearman_fit() >= 0.98
    assert max(outcome.games.values()) - min(outcome.games.values()) <= 0.15 * 3000 * 2 / 16  # still fair


def test_the_scheduler_prefers_undecided_and_uncertain_opponents() -> None:
    anchor = Candidate(1, 1500, 50, 0, strength=1500.0, sd=40.0)
    near_known = Candidate(2, 1500, 50, 0, strength=1520.0, sd=30.0)
    near_unknown = Candidate(3, 1500, 50, 0, strength=1520.0, sd=200.0)
    far = Candidate(4, 1500, 50, 0, strength=2300.0, sd=200.0)
    assert opponent_weight(anchor, near_unknown) > opponent_weight(anchor, near_known) > opponent_weight(anchor, far)
    # the anchor is the bot whose strength is least known
    pool = [anchor, near_known, Candidate(5, 1500, 50, 0, strength=1500.0, sd=150.0)]
    for seed in range(10):
        assert 5 in pick_table(pool, 2, random.Random(seed))  # type: ignore[operator]


def test_the_real_ladder_with_synthetic_results(sqlite_settings: LadderSettings) -> None:
    """The ladder's loop, database, Elo transaction and strength fit, with synthetic results."""
    simulation = LadderSimulation(sqlite_settings, GAME, players=2, seed=4)
    ids = simulation.add_bots([1000.0, 1500.0, 1500.0, 2000.0])
    outcome = simulation.run(60)
    assert outcome.matches == 60 and sum(outcome.games.values()) == 120
    assert recompute(sqlite_settings, GAME) == []
    board = {row.bot_id: row for row in queries.leaderboard(sqlite_settings, GAME)}
    assert all(board[bot].interval is not None and board[bot].games > 0 for bot in ids)
    assert overlap(board[ids[1]].interval, board[ids[2]].interval)  # type: ignore[arg-type]
    assert board[ids[3]].strength > board[ids[0]].strength  # type: ignore[operator]
    assert spearman([outcome.fit.rating(bot) for bot in ids], [1000, 1500, 1500, 2000]) > 0.7
