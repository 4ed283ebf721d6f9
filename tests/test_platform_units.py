"""Small pure pieces of the platform: flags, event logs, ranks, chance helpers, clocks, fault ranking."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.chance import UniformDraws, draw_outcomes, sample_outcome, uniform_outcomes
from referee.clock import SeatClock, TimeControl
from referee.engine import Event, EventLog, Flag
from referee.errors import ConfigError
from referee.match import final_ranks
from referee.ranking import competition_ranks


def test_boolean_flag_parses_words_and_rejects_others() -> None:
    flag = Flag.boolean("counterfeit", False, "")
    assert flag.check("true") is True and flag.check("off") is False and flag.check(True) is True
    with pytest.raises(ConfigError, match="counterfeit"):
        flag.check("maybe")


def test_integer_flag_bounds_and_null() -> None:
    flag = Flag.integer("stake_cap", None, "", minimum=1, nullable=True)
    assert flag.check("5") == 5 and flag.check(None) is None and flag.check("null") is None
    with pytest.raises(ConfigError, match="at least 1"):
        flag.check(0)
    with pytest.raises(ConfigError, match="integer"):
        flag.check("lots")
    with pytest.raises(ConfigError):
        flag.check(True)


def test_choice_flag() -> None:
    flag = Flag.choice("first_parent", "random", "", ["random", 0, 1])
    assert flag.check("1") == 1 and flag.check("random") == "random"
    with pytest.raises(ConfigError, match="one of"):
        flag.check("2")


def test_event_log_copies_share_until_written() -> None:
    log = EventLog()
    log.append(Event("a", {}))
    twin = log.copy()
    twin.append(Event("b", {}))
    log.append(Event("c", {"x": 1}, frozenset({1})))
    assert [e.kind for e in log] == ["a", "c"]
    assert [e.kind for e in twin] == ["a", "b"]
    assert not log[1].visible_to(0) and log[1].visible_to(1) and not log[1].visible_to(None)


@given(st.lists(st.integers(-5, 5), min_size=1, max_size=6))
def test_competition_ranks(keys: list[int]) -> None:
    ranks = competition_ranks(keys)
    for key, rank in zip(keys, ranks):
        assert rank == 1 + sum(1 for other in keys if other > key)
    assert min(ranks) == 1


def test_final_ranks_put_replaced_seats_last() -> None:
    assert final_ranks([1, 2, 3], [True, False, False]) == [3, 1, 2]
    assert final_ranks([1, 1], [False, False]) == [1, 1]
    assert final_ranks([2, 1, 3], [True, False, True]) == [2, 1, 3]


def test_draw_outcomes_are_proportional_and_sorted() -> None:
    outcomes = draw_outcomes({"red": 1, "blue": 3, "none": 0})
    assert [o.id for o in outcomes] == ["blue", "red"]
    assert [o.probability for o in outcomes] == [0.75, 0.25]
    assert sum(o.probability for o in uniform_outcomes(["a", "b", "c"])) == pytest.approx(1.0)


def test_sample_outcome_is_deterministic_and_follows_probabilities() -> None:
    outcomes = draw_outcomes({"a": 1, "b": 3})
    first = [sample_outcome(outcomes, random.Random(4)).id for _ in range(3)]
    assert first == [sample_outcome(outcomes, random.Random(4)).id for _ in range(3)]
    rng = random.Random(0)
    share = sum(sample_outcome(outcomes, rng).id == "b" for _ in range(4000)) / 4000
    assert 0.72 < share < 0.78


@given(st.integers(min_value=1, max_value=120), st.integers(min_value=0, max_value=2**32), st.data())
def test_uniform_draws_sample_as_the_walk_over_their_outcomes(count: int, seed: int, data: st.DataObject) -> None:
    """`sample_outcome` finds a uniform draw by halves: the same outcome as walking the listed outcomes, at any point."""
    items = sorted(f"item{index:03d}" for index in range(count))
    draws = UniformDraws(items)
    listed = list(draws)
    assert [o.id for o in listed] == items and all(o.probability == 1.0 / count for o in listed)
    points = [random.Random(seed).random(), 0.0, 1.0 - 2**-53, *(k / count for k in range(count))]
    points.append(data.draw(st.floats(min_value=0.0, max_value=1.0, exclude_max=True)))
    for point in points:
        fixed = random.Random()
        fixed.random = lambda point=point: point  # type: ignore[method-assign]
        assert sample_outcome(draws, fixed) == sample_outcome(listed, fixed)


def test_fischer_clock() -> None:
    clock = SeatClock.start(TimeControl(per_decision_seconds=1.0, bank_seconds=2.0, increment_seconds=0.5, strikes_allowed=1))
    assert clock.deadline_seconds() == pytest.approx(3.05)
    clock.charge(0.4)
    assert clock.bank_remaining == pytest.approx(2.5)
    clock.charge(2.0)
    assert clock.bank_remaining == pytest.approx(2.0)
    assert clock.strike() is False and clock.bank_remaining == 0.0
    assert clock.strike() is True


def test_time_control_rejects_negative_values() -> None:
    with pytest.raises(ConfigError):
        TimeControl(per_decision_seconds=-1)


def test_wire_encoding_is_strict() -> None:
    from referee.wire import WireError, get_wire

    wire = get_wire("underground_dice")
    assert wire.view_message({"seat": 1, "hands": [{"bills": 3}]}).hands[0].bills == 3
    with pytest.raises(WireError, match="no field 'secret'"):
        wire.view_message({"seat": 1, "secret": 2})
    with pytest.raises(WireError, match="hands"):
        wire.view_message({"hands": [{"bills": "many"}]})


def test_deferred_events_are_built_when_read_in_order_and_copies_see_the_same() -> None:
    built: list[str] = []

    def make(kind: str, n: int) -> Event:
        built.append(kind)
        return Event(kind, {"n": n}, frozenset({n}))

    log = EventLog()
    log.append(Event("a", {}))
    log.defer(make, "b", 1)
    twin = log.copy()
    twin.entries().append((make, "c", 2))
    log.defer(make, "d", 3)
    assert built == [] and len(twin) == 3 and len(log) == 3
    assert [(e.kind, dict(e.data)) for e in twin] == [("a", {}), ("b", {"n": 1}), ("c", {"n": 2})]
    assert [(e.kind, dict(e.data)) for e in log] == [("a", {}), ("b", {"n": 1}), ("d", {"n": 3})]
    assert log[2] is log[-1] and log.since(1)[1] is log[2] and log[2].visible_to(3) and not log[2].visible_to(2)
    assert sorted(built) == ["b", "b", "c", "d"]  # once per list: the copy appended, so it holds its own
