"""The Magnificent's view handed as pieces (`view_parts`, put in a request's one join) is, in every test variant (the
master card draft's own part of a seat included), the bytes of the seat's dict view, and a request built from it is the
request built from the joined view."""

from __future__ import annotations

import random

import pytest

from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.registry import get_game
from referee.wire import GameWire, get_wire


@pytest.mark.parametrize("variant_index", range(3))
def test_view_pieces_are_the_dict_view_in_every_variant(variant_index: int) -> None:
    game = get_game("magnificent")
    wire = get_wire("magnificent")
    assert wire.view_parts is not None
    joined = GameWire(view=wire.view, option=wire.option, event=wire.event, view_bytes=wire.view_bytes, decision_of=wire.decision_of)
    variant = dict(game.test_variants[variant_index])
    clock = SeatClock.start(TimeControl())
    drafted = 0
    for players in range(1, 5):
        rng = random.Random(players)
        state = game.new_initial_state(game.make_config(players, variants=variant))
        cursors = [0] * players
        decisions = 0
        while not state.is_terminal() and decisions < 120:
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            deciding = state.deciding_seats()
            shared: dict[str, bytes] = {}
            shared_joined: dict[str, bytes] = {}
            for seat in deciding:
                options = list(state.legal_options(seat))
                events = messages.seat_events(state, seat, cursors[seat])
                cursors[seat] = len(state.events)
                got = messages.outgoing_request(wire, 2, state, seat, options, events, clock, shared).message_bytes()
                want = messages.outgoing_request(joined, 2, state, seat, options, events, clock, shared_joined).message_bytes()
                assert got == want, (variant, players, decisions, seat)
                parts: list[bytes] = []
                size = wire.view_parts(state, seat, None, parts)
                view = wire.view_message(state.private_view(seat)).SerializeToString()
                assert b"".join(parts) == view and size == len(view), (variant, players, decisions, seat)
                drafted += bool(state.draft)
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in deciding})
            decisions += 1
    if variant.get("draft_master_cards"):
        assert drafted  # the draft's own part was written
