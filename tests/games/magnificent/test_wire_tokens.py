"""The Magnificent's View writer finds a part it wrote before by the part's change token (referee/games/magnificent/
state.py): a position read, or a state edited outside the rules with its tokens renewed, is written afresh.

(tests/test_view_writers.py compares every node of random games; tests/test_view_writer_memory.py views asked seldom,
for two games in turn and their clones.)
"""

from __future__ import annotations

import random

from referee import playout
from referee.games.magnificent import GAME
from referee.games.magnificent.state import MagnificentState
from referee.position import load_position, position_json
from referee.wire import get_wire

WIRE = get_wire("magnificent")


def _check(state: MagnificentState, where: str) -> None:
    assert WIRE.view_bytes is not None
    shared: dict = {}  # type: ignore[type-arg]
    for seat in range(state.players):
        expected = WIRE.view_message(state.private_view(seat)).SerializeToString()
        assert WIRE.view_bytes(state, seat, shared) == expected, f"{where} seat {seat}"


def test_a_position_read_and_a_state_edited_with_its_tokens_renewed_are_written_afresh() -> None:
    rng = random.Random(8)
    state = GAME.new_initial_state(GAME.make_config(3))
    for _ in range(250):
        playout.step(state, rng)
        _check(state, "played")
    loaded = load_position(position_json(state))
    assert isinstance(loaded, MagnificentState)
    _check(loaded, "read from its position")
    while state.decision_code() != "TD1":
        playout.step(state, rng)
    _check(state, "a turn begins")
    state.players_state[1].points += 7
    state.players_state[2].coins += 1
    state.supply = {tile: count + 1 if tile.endswith("s") else count for tile, count in state.supply.items()}
    state.wagons = {colour: (space + 1) % 12 for colour, space in state.wagons.items()}
    state.display = [list(pair) for pair in reversed(state.display)]
    state.poster_discard = [*state.poster_discard, state.poster_deck.pop()]
    assert state.turn is not None
    state.turn.extra_show += 1
    state.renew_tokens()  # edited outside the rules
    _check(state, "edited")
    while not state.is_terminal():
        playout.step(state, rng)
        _check(state, "played on")
