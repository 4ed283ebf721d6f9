"""Merchants of B99's events written from the arguments they were built from.

The first request of a decision builds the log's deferred entries (`messages.seat_events`), keeping each entry
`(build, arguments...)` by position (`SeatEvents.built`); `events_into` says which entry it is having written
(`SeatEvents.writing`) and the game's writer finds it by the very Event (`referee.wire.built_entry`), then writes
a placement, a hand passed on or drawn, a new hand and the recorded kinds from the builder's arguments. Those bytes
must be exactly what the event's data write, and protobuf's serialization; an entry is never found for another
Event, even an equal one."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee import messages, playout
from referee.engine import Event
from referee.games.merchants.event_wire import _write_built, _write_data
from referee.games.merchants.wire import WIRE
from referee.registry import get_game
from referee.wire import LAST_EVENTS, built_entry
from tests.games.merchants.test_wire_writers import _expected

GAME = get_game("merchants")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_events_written_from_their_builders_arguments_are_their_datas_bytes(players: int) -> None:
    rng = random.Random(40 + players)
    written: Counter[str] = Counter()
    for variant in GAME.test_variants:
        state = GAME.new_initial_state(GAME.make_config(players, dict(variant)))
        cursors = [0] * players
        while not state.is_terminal():
            playout.step(state, rng)
            if state.is_chance_node() or state.is_terminal():
                continue
            for seat in state.deciding_seats():  # every seat of a decision asks, as a match does
                start = cursors[seat]
                messages.seat_events(state, seat, start)
                cursors[seat] = len(state.events)
                kept = LAST_EVENTS[0]
                if not kept.built or kept.start != start or kept.end != len(state.events):
                    continue  # nothing built by this read (or a plain list: a solo game's, mostly)
                assert len(kept.built) == kept.end - kept.start
                for offset, entry in enumerate(kept.built):
                    event = kept.events[offset]
                    if not entry:
                        continue
                    for sequence in (0, kept.start + offset, 5000):
                        whole, tail_start = _write_built(event, entry, sequence)
                        if tail_start < 0:
                            assert event.kind not in ("placed", "hand_passed", "hand_tiles", "hand_drawn")
                            continue
                        assert (whole, tail_start) == _write_data(event.kind, event.data, sequence)
                        assert whole == _expected([(sequence, event)])
                        written[event.kind] += 1
    assert {"placed", "hand_tiles"} <= set(written)
    if players > 1:
        assert {"hand_passed", "reputation_drawn", "reputation_cards", "returned_card"} <= set(written)


def test_an_entry_is_found_only_for_the_event_being_written() -> None:
    rng = random.Random(3)
    state = GAME.new_initial_state(GAME.make_config(3))
    while state.is_chance_node() or not any(type(item) is tuple for item in state.events._items):
        playout.step(state, rng)
    messages.seat_events(state, 0, 0)
    kept = LAST_EVENTS[0]
    at = next(index for index, entry in enumerate(kept.built) if entry)
    event = kept.events[at]
    assert built_entry(event) == ()  # nothing being written yet
    kept.writing = at
    assert built_entry(event) is kept.built[at]
    assert built_entry(Event(event.kind, dict(event.data), event.audience)) == ()  # an equal Event is another's
    other = next(item for item in kept.events if item is not event)
    assert built_entry(other) == ()
    kept.writing = len(kept.built)  # out of range
    assert built_entry(event) == ()


def test_the_wire_writes_an_event_as_its_data_say_wherever_its_entry_is_found() -> None:
    rng = random.Random(5)
    state = GAME.new_initial_state(GAME.make_config(4))
    while len(state.events) < 40 or state.is_chance_node():
        playout.step(state, rng)
    pairs = messages.seat_events(state, 0, 0)
    twin = [(sequence + 2, event) for sequence, event in pairs]  # the same events under a match's own numbers
    assert WIRE.events_fields(pairs) == _expected(pairs)
    assert WIRE.events_fields(twin) == _expected(twin)
