"""Merchants of B99's deferred events (built when the log is first read): the events of a few small numbers
(`hand_passed`, `hand_drawn`) are made once per numbers and shared by every log that holds one; every event equals
the Event its kind, data and audience make, whichever game, clone or order built it."""

from __future__ import annotations

import random

from referee import playout
from referee.engine import Event
from referee.games.merchants.state import _SMALL_EVENTS, _hand_drawn_event, _hand_passed_event
from referee.registry import get_game

GAME = get_game("merchants")


def test_events_of_small_numbers_are_shared_and_equal_to_the_events_they_stand_for() -> None:
    shared: dict[tuple[object, ...], Event] = {}
    for players in (1, 2, 3, 4):
        rng = random.Random(players)
        for _ in range(2):
            state = GAME.new_initial_state(GAME.make_config(players))
            clones = []
            while not state.is_terminal():
                playout.step(state, rng)
                if rng.random() < 0.05:
                    clones.append(state.clone())
            for clone in clones:  # a clone's log shares the entries up to where it was made, built once
                while not clone.is_terminal():
                    playout.step(clone, rng)
            for log in [state.events] + [clone.events for clone in clones]:
                for event in log:
                    assert type(event) is Event
                    assert event == Event(event.kind, dict(event.data), event.audience)
                    if event.kind in ("hand_passed", "hand_drawn"):
                        assert event.audience is None
                        key = (event.kind, *event.data.values())
                        assert shared.setdefault(key, event) is event
    assert any(key[0] == "hand_passed" for key in shared) and any(key[0] == "hand_drawn" for key in shared)


def test_events_of_small_numbers_are_one_event_per_numbers_in_and_out_of_a_drafts_range() -> None:
    """A draft's numbers (seats below 8, counts below 64) are found by position, others below 256 by their int key:
    either way one Event per numbers, the one `_SMALL_EVENTS` holds (larger numbers make an Event each time)."""
    for numbers in ((1, 2, 3), (7, 0, 63), (8, 1, 3), (2, 9, 0), (1, 2, 64), (300, 1, 1)):
        first = _hand_passed_event(*numbers)
        assert first == Event("hand_passed", {"from_seat": numbers[0], "to_seat": numbers[1], "count": numbers[2]})
        if max(numbers) < 256:
            assert first is _hand_passed_event(*numbers)
            assert _SMALL_EVENTS[2 << 24 | numbers[0] << 16 | numbers[1] << 8 | numbers[2]] is first
    for seat, count in ((0, 0), (7, 63), (8, 2), (3, 64), (256, 1)):
        drawn = _hand_drawn_event(seat, count)
        assert drawn == Event("hand_drawn", {"seat": seat, "count": count})
        if seat < 256 and count < 256:
            assert drawn is _hand_drawn_event(seat, count)
            assert _SMALL_EVENTS[1 << 24 | seat << 8 | count] is drawn
    assert _hand_passed_event(1, 2, 3) is not _hand_passed_event(2, 1, 3)
