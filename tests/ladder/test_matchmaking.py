"""Matchmaking and the tournament schedule (pure functions)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ladder.matchmaking import BURST_GAMES, Candidate, pick_table
from ladder.tournament import round_robin


def candidates(*specs: tuple[float, int, int]) -> list[Candidate]:
    return [Candidate(bot_id=i + 1, rating=r, games=g, recent=n) for i, (r, g, n) in enumerate(specs)]


def test_anchor_is_the_new_bot_in_its_burst() -> None:
    pool = candidates((1500, 100, 0), (1500, 100, 0), (1500, 0, 50))
    for seed in range(20):
        assert 3 in pick_table(pool, 2, random.Random(seed))  # type: ignore[operator]


def test_anchor_is_the_bot_with_fewest_recent_games() -> None:
    pool = candidates((1500, BURST_GAMES, 9), (1500, BURST_GAMES, 2), (1500, BURST_GAMES, 9))
    for seed in range(20):
        assert 2 in pick_table(pool, 2, random.Random(seed))  # type: ignore[operator]


def test_opponents_are_mostly_near_in_rating() -> None:
    pool = candidates((1500, 50, 0), (1520, 50, 5), (2400, 50, 5))
    opponents = Counter()
    for seed in range(300):
        table = pick_table(pool, 2, random.Random(seed))
        assert table is not None and 1 in table
        opponents[[b for b in table if b != 1][0]] += 1
    assert opponents[2] > 5 * opponents[3] > 0


def test_never_self_play_unless_asked() -> None:
    pool = candidates((1500, 0, 0), (1500, 0, 0))
    assert pick_table(pool, 3, random.Random(1)) is None
    table = pick_table(pool, 3, random.Random(1), allow_self_play=True)
    assert table is not None and len(table) == 3
    for seed in range(50):
        table = pick_table(candidates((1500, 0, 0), (1500, 0, 0), (1500, 0, 0)), 3, random.Random(seed))
        assert table is not None and sorted(table) == [1, 2, 3]


def test_anchor_seat_rotates_with_its_games() -> None:
    seats = set()
    for games in range(BURST_GAMES, BURST_GAMES + 4):
        pool = [Candidate(1, 1500, games, 0), Candidate(2, 1500, 50, 9), Candidate(3, 1500, 50, 9), Candidate(4, 1500, 50, 9)]
        table = pick_table(pool, 4, random.Random(0))
        assert table is not None
        seats.add(table.index(1))
    assert seats == {0, 1, 2, 3}


def test_round_robin_all_seatings() -> None:
    schedule = round_robin(3, 2, 4, seed=1)
    assert len(schedule) == 3 * 4
    seatings = Counter(game.seating for game in schedule)
    assert set(seatings) == {(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)}
    assert set(seatings.values()) == {2}
    assert len({game.seed for game in schedule}) == len(schedule)


def test_round_robin_duplicate_rotates_each_seed() -> None:
    schedule = round_robin(3, 3, 5, seed=2, duplicate=True)
    assert len(schedule) == 6  # 5 games rounded up to 2 seeds x 3 rotations
    by_seed: dict[int, list[tuple[int, ...]]] = {}
    for game in schedule:
        by_seed.setdefault(game.seed, []).append(game.seating)
    assert len(by_seed) == 2
    for seatings in by_seed.values():
        for entrant in range(3):
            assert sorted(seating.index(entrant) for seating in seatings) == [0, 1, 2]


def test_round_robin_needs_enough_bots() -> None:
    with pytest.raises(ValueError, match="at least 3 bots"):
        round_robin(2, 3, 1, seed=0)


def test_scheduler_spreads_games_evenly() -> None:
    from benchmarks.ladder_bench import fairness

    spread = fairness(bots=8, players=2, matches=400, seed=3)
    assert spread["mean"] == 100
    assert spread["max"] - spread["min"] <= 8
