"""Merchants of B99's events written from the arguments they were built from.

The first request of a decision builds the log's deferred entries (`messages.seat_events`), keeping each entry
`(build, arguments...)` by position (`SeatEvents.built`); `events_into` says which entry it is having written
(`SeatEvents.writing`) and the game's writer finds it by the very Event (`referee.wire.built_entry`), then writes
a placement, a hand passed on or drawn, a new hand and the recorded kinds from the builder's arguments. Those bytes
must be exactly what the event's data write, and protobuf's serialization; an entry is never found for another
Event, even an equal one. The game's own builder of a read (`state.build_deferred`) makes the Events the log would,
and the game's writer of a read's entries (`write_built`, one call a decision) writes each as protobuf does."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import b99.arena_pb2 as arena_pb2
from referee import messages, playout
from referee.engine import Event, EventLog
from referee.games.merchants.event_wire import _write_built, _write_data, write_built, write_event
from referee.games.merchants.state import MerchantsState, build_deferred
from referee.games.merchants.wire import WIRE
from referee.registry import get_game
from referee.wire import BUILT_WRITERS, DEFERRED_BUILDS, LAST_EVENTS, WireError, built_entry
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
        assert {"hand_passed", "reputation_drawn", "reputation_cards", "returned_card", "round_scored", "chips_revealed"} <= set(written)


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


def test_the_games_builder_builds_the_events_the_log_builds() -> None:
    """`state.build_deferred` (the game's own `_build_deferred`) makes, in place, the Events the log itself would make
    from the same entries, and gives each entry built from `start` on by position; a clone's log that shares the
    entries sees the same Events."""
    assert DEFERRED_BUILDS[MerchantsState] is build_deferred
    for players in (1, 2, 3, 4):
        rng = random.Random(60 + players)
        state = GAME.new_initial_state(GAME.make_config(players))
        reads = 0
        while not state.is_terminal():
            playout.step(state, rng)
            log = state.events
            items = log._items
            if rng.random() < 0.3 or not any(type(item) is tuple for item in items[log._built:]):
                continue
            twin = EventLog(list(items))  # the same entries, built by the log's own reader
            twin._built = log._built
            clone = state.clone()
            start = rng.randrange(len(items) + 1)
            entries = list(items)
            built = build_deferred(log, items, start)
            assert log._built == len(items) and all(type(item) is Event for item in items)
            assert items == list(twin)
            assert len(built) == len(items) - start
            for offset, entry in enumerate(built):
                position = start + offset
                assert entry == (entries[position] if type(entries[position]) is tuple else ())
            assert list(clone.events) == items and all(a is b for a, b in zip(clone.events, items, strict=True))
            reads += 1
        assert reads


def test_a_reads_fields_written_at_once_are_the_fields_of_its_events() -> None:
    """`write_built` (one call a decision, `BUILT_WRITERS`) writes each built entry's field under its log position as
    protobuf writes that event, and leaves b"" for an entry it does not write; the requests of every seat of each
    decision are protobuf's."""
    assert BUILT_WRITERS[write_event] is write_built
    rng = random.Random(9)
    for players in (2, 4):
        state = GAME.new_initial_state(GAME.make_config(players))
        written = 0
        while not state.is_terminal():
            playout.step(state, rng)
            start = max(0, len(state.events._items) - rng.randrange(1, 30))
            if not any(type(item) is tuple for item in state.events._items[start:]):
                continue
            messages.seat_events(state, 0, start)
            kept = LAST_EVENTS[0]
            if kept.start != start or not kept.built:
                continue
            fields = [b""] * len(kept.events)
            write_built(kept, fields)
            for offset, field in enumerate(fields):
                event = kept.events[offset]
                if field:
                    assert kept.built[offset]
                    assert field == _expected([(start + offset, event)])
                    written += 1
                else:
                    assert not kept.built[offset] or event.kind not in ("placed", "hand_passed", "hand_tiles", "round_scored")
        assert written


@pytest.mark.parametrize(
    "choices",
    [
        [{"seat": 0, "dungeon": "dragon"}, {"seat": 1, "dungeon": ""}, {"seat": 700, "dungeon": "swamp"}],
        [],
        # not the engine's: a key the message lacks, another type, a value out of range, a missing key
        [{"seat": 0, "dungeon": "dragon", "extra": 1}],
        [{"seat": "0", "dungeon": "dragon"}],
        [{"seat": -1, "dungeon": "dragon"}],
        [{"seat": 0}],
        ({"seat": 0, "dungeon": "dragon"},),
    ],
)
def test_chips_revealed_of_any_data_are_written_as_protobuf_writes_them_or_refused(choices: Any) -> None:  # noqa: ANN401
    """Compared with the wire's own protobuf message of the event (`GameWire.event_message`: an empty list of choices
    still sets the kind, as every writer of the wire does)."""
    for sequence in (0, 7, 300):
        event = Event("chips_revealed", {"choices": choices})
        try:
            expected = arena_pb2.DecisionRequest(events=messages.event_messages(WIRE, [(sequence, event)])).SerializeToString()
        except WireError:
            with pytest.raises(WireError):
                WIRE.events_fields([(sequence, event)])
            continue
        assert WIRE.events_fields([(sequence, event)]) == expected
        whole, tail_start = _write_data("chips_revealed", event.data, sequence)
        assert whole in (expected, b"")
