"""Merchants of B99 records what changed: the tokens its view writer and observation encoder keep parts by.

`public_token` is replaced at every decision and chance outcome, `layout_token` wherever the layout or the trend
cards change, `board_tokens[seat]` wherever that seat's public board does, and not at every step (a part kept
by its token would be written again for nothing). Copies share the tokens until one of them changes a part; the
written views of copies and determinized worlds, played on side by side, stay those of their dict views.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

from referee import playout
from referee.games.merchants.state import CHOOSE_TARGET, CHOOSE_TILE, MerchantsState
from referee.games.merchants.views import _public_player
from referee.position import position_json, refresh
from referee.wire import get_wire
from tests.games.merchants.helpers import new_state

WIRE = get_wire("merchants")


def _board(state: MerchantsState, seat: int) -> dict[str, Any]:
    """What a seat's board token stands for: its public player view but the hand size and reputation count."""
    view = _public_player(state, seat)
    del view["hand_size"], view["reputation_count"]
    return view


def _layout(state: MerchantsState) -> tuple[Any, ...]:
    """What the layout token stands for: the A and B cards, the C and D cards and the grey cards drawn so far."""
    return dict(state.layout), dict(state.c_cards), state.d_card, dict(state.grey)


def test_a_token_is_replaced_exactly_where_its_part_changes() -> None:
    kept = 0
    for players, variants in ((1, {}), (2, {"first_game": True}), (3, {"floor99": "random", "floor99_face": "random"}), (4, {})):
        rng = random.Random(players)
        state = new_state(players, **variants)
        while not state.is_terminal():
            phase = state.phase
            boards = [_board(state, seat) for seat in range(players)]
            layout = _layout(state)
            tokens = (state.public_token, state.layout_token, list(state.board_tokens))
            playout.step(state, rng)
            assert state.public_token != tokens[0]
            if state.layout_token == tokens[1]:
                assert _layout(state) == layout, phase
            for seat in range(players):
                if state.board_tokens[seat] == tokens[2][seat]:
                    assert _board(state, seat) == boards[seat], (phase, seat)
                    kept += 1
                else:
                    assert phase not in (CHOOSE_TILE, CHOOSE_TARGET), phase  # a secret answer changes no board
    assert kept > 300


def test_copies_share_tokens_until_they_change_a_part() -> None:
    rng = random.Random(5)
    state = new_state(3)
    for _ in range(60):
        playout.step(state, rng)
    while state.is_chance_node():
        playout.step(state, rng)
    twin = state.clone()
    world = state.determinize(1, rng)
    for copy in (twin, world):
        assert copy.public_token == state.public_token and copy.layout_token == state.layout_token
        assert copy.board_tokens == state.board_tokens and copy.board_tokens is not state.board_tokens
    playout.step(twin, rng)
    assert twin.public_token != state.public_token
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded.public_token != state.public_token  # a token is never shared with another process's state
    assert WIRE.view_bytes(loaded, 0, None) == WIRE.view_bytes(state, 0, None)


def test_a_state_made_afresh_after_an_edit_has_new_tokens() -> None:
    rng = random.Random(2)
    state = new_state(2)
    for _ in range(80):
        playout.step(state, rng)
    before = WIRE.view_bytes(state, 0, None)
    state.players_state[0].score += 7  # an edit from outside the engine: refreshed before it is viewed again
    fresh = refresh(state)
    assert isinstance(fresh, MerchantsState)
    assert fresh.public_token != state.public_token and fresh.board_tokens[0] != state.board_tokens[0]
    assert WIRE.view_bytes(fresh, 0, None) != before
    assert WIRE.view_bytes(fresh, 0, None) == WIRE.view_message(fresh.private_view(0)).SerializeToString()
    assert not {"public_token", "layout_token", "board_tokens"} & set(position_json(state)["state"])


def test_written_views_of_copies_and_worlds_played_side_by_side_equal_their_dict_views() -> None:
    compared = 0
    for seed in range(8):
        rng = random.Random(seed)
        players = 1 + seed % 4
        states = [new_state(players, personal_board_back=bool(seed % 2))]
        while states:
            index = rng.randrange(len(states))
            state = states[index]
            if rng.random() < 0.5 or state.is_terminal():
                for seat in range(players):
                    expected = WIRE.view_message(state.private_view(seat)).SerializeToString()
                    assert WIRE.view_bytes(state, seat, None) == expected, (seed, seat, state.phase)
                    compared += 1
            if state.is_terminal():
                states.pop(index)
                continue
            if len(states) < 4 and rng.random() < 0.06:
                states.append(state.clone() if state.is_chance_node() else state.determinize(rng.randrange(players), rng))
            playout.step(state, rng)
    assert compared > 1000
