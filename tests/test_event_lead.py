"""A decision's leading public events (every seat sees them, before the first private one) are sent as one piece joined
once (`referee.wire.SeatEvents.lead`, `SeatEventFields.lead`), found by the identity of the pairs a seat's list starts
with: every request's events stay protobuf's own serialization, whether its list holds those very pairs, copies of
them, or other numbers."""

from __future__ import annotations

import random

from referee import messages, playout
from referee.registry import get_game
from referee.wire import LAST_EVENTS, get_wire
from tests.test_event_runs import _expected


def test_leading_public_events_joined_once_and_written_as_protobuf_writes_them() -> None:
    game = get_game("merchants")
    wire = get_wire("merchants")
    rng = random.Random(5)
    joined = 0
    for players in (2, 3, 4):
        state = game.new_initial_state(game.make_config(players))
        cursors = [0] * players
        for _ in range(120):
            if state.is_terminal():
                break
            playout.step(state, rng)
            for seat in range(players):
                got = messages.seat_events(state, seat, cursors[seat])
                cursors[seat] = len(state.events)
                expected = _expected(wire, got)
                parts: list[bytes] = []
                wire.events_into(got, False, parts)
                assert b"".join(parts) == expected, (players, seat)
                # the same pairs as copies (equal, not the same objects), and under other numbers: never the piece
                copied = [(number, event) for number, event in got]
                assert wire.events_fields(copied) == expected
                renumbered = [(number + 1, event) for number, event in got]
                assert wire.events_fields(renumbered) == _expected(wire, renumbered)
                kept = LAST_EVENTS[0].written
                if kept is not None and len(kept.lead):
                    joined += 1
    assert joined > 0
