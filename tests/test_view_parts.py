"""A request built from a game's view pieces (`GameWire.view_parts`, put in the request's one join) is byte for byte the
request built from its joined view (`view_bytes`), for every seat of every decision in every test variant, clones
included, and the pieces are the bytes of the seat's dict view."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.engine import GameState
from referee.registry import get_game
from referee.wire import GameWire, get_wire

GAMES = ["fuji99", "deep_dive", "magnificent", "merchants", "underground_dice"]
CASES = [(game_id, dict(variants)) for game_id in GAMES for variants in get_game(game_id).test_variants]


def _joined_wire(wire: GameWire) -> GameWire:
    """The same game's wire without view pieces: its requests take the joined view."""
    return GameWire(view=wire.view, option=wire.option, event=wire.event, view_bytes=wire.view_bytes, decision_of=wire.decision_of)


def check_view_pieces(
    game_id: str, variants: Mapping[str, Any], seen: Callable[[GameState], None] | None = None, decisions_per_game: int = 150
) -> None:
    """Random games at every player count up to 4: each seat's request from the view pieces equals the one from the
    joined view, and the pieces are the seat's dict view; `seen` is called with the state at every decision."""
    game = get_game(game_id)
    wire = get_wire(game_id)
    joined = _joined_wire(wire)
    clock = SeatClock.start(TimeControl())
    rng = random.Random(5)
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        state = game.new_initial_state(game.make_config(players, variants=dict(variants)))
        cursors = [0] * players
        decisions = 0
        while not state.is_terminal() and decisions < decisions_per_game:
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            if seen is not None:
                seen(state)
            deciding = state.deciding_seats()
            shared: dict[str, bytes] = {}
            shared_joined: dict[str, bytes] = {}
            for seat in deciding:
                options = list(state.legal_options(seat))
                events = messages.seat_events(state, seat, cursors[seat])
                cursors[seat] = len(state.events)
                got = messages.outgoing_request(wire, 3, state, seat, options, events, clock, shared).message_bytes()
                want = messages.outgoing_request(joined, 3, state, seat, options, events, clock, shared_joined).message_bytes()
                assert got == want, (game_id, variants, players, decisions, seat)
                if wire.view_parts is not None:
                    parts: list[bytes] = []
                    size = wire.view_parts(state, seat, None, parts)
                    view = wire.view_message(state.private_view(seat)).SerializeToString()
                    assert b"".join(parts) == view and size == len(view), (game_id, variants, players, decisions, seat)
            if decisions % 7 == 3:  # a clone asked next, then the game itself again
                twin = state.clone()
                for seat in deciding:
                    options = list(twin.legal_options(seat))
                    got = messages.outgoing_request(wire, 4, twin, seat, options, [], clock, {}).message_bytes()
                    want = messages.outgoing_request(joined, 4, twin, seat, options, [], clock, {}).message_bytes()
                    assert got == want
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in deciding})
            decisions += 1


@pytest.mark.parametrize(("game_id", "variants"), CASES, ids=[f"{game_id}-{variants}" for game_id, variants in CASES])
def test_requests_from_view_pieces_are_the_requests_from_the_joined_view(game_id: str, variants: dict[str, Any]) -> None:
    check_view_pieces(game_id, variants)
