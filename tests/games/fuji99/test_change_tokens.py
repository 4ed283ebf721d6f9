"""Fuji 99's change tokens: a seat's hand, omens and the clear cubes on its hand's cards get a new token wherever they
change, so the View writer (referee/games/fuji99/wire.py), which finds that part by its token, never sends a part
written before the change; a part that did not change keeps its token (it is not written again for nothing)."""

from __future__ import annotations

import random
from typing import Any

from referee import playout
from referee.games.fuji99 import GAME
from referee.games.fuji99.state import Fuji99State
from referee.position import load_position, position_json
from referee.wire import get_wire


def _hands(state: Fuji99State) -> list[tuple[Any, object]]:
    """Each seat's hand part (its cards with the clear cubes on them, its omens), copied, with its token."""
    return [
        (
            [(card, state.cubes.get(card, 0)) for card in state.hands[seat]],
            list(state.omens[seat]),
            state.hand_tokens[seat],
        )
        for seat in range(state.players)
    ]


def test_a_hand_that_changes_gets_a_new_token_and_clones_share_tokens_until_they_differ() -> None:
    changed = kept = 0
    for players in range(GAME.min_players, GAME.max_players + 1):
        rng = random.Random(players)
        for _ in range(6):
            state = GAME.new_initial_state(GAME.make_config(players))
            while not state.is_terminal():
                before = _hands(state)
                twin = state.clone()
                assert _hands(twin) == before
                playout.step(state, rng)
                after = _hands(state)
                for seat, (cards, omens, token) in enumerate(after):
                    old_cards, old_omens, old_token = before[seat]
                    if (cards, omens) != (old_cards, old_omens):
                        assert token is not old_token, f"{players} players: seat {seat}'s hand changed but kept its token"
                        changed += 1
                    elif token is old_token:
                        kept += 1
                assert _hands(twin) == before  # the clone is untouched by the original's step
                if not twin.is_terminal():
                    playout.step(twin, rng)
                    for seat, (cards, omens, token) in enumerate(_hands(twin)):
                        if (cards, omens) != tuple(before[seat][:2]):
                            assert token is not before[seat][2] and token is not after[seat][2]
    assert changed > 500 and kept > 10 * changed


def test_a_state_read_from_a_position_has_tokens_of_its_own_and_is_written_as_its_dict_view() -> None:
    rng = random.Random(7)
    wire = get_wire("fuji99")
    state = GAME.new_initial_state(GAME.make_config(3))
    for _ in range(60):
        playout.step(state, rng)
    assert wire.view_bytes is not None
    wire.view_bytes(state, 0, None)  # the writer keeps what it wrote for the original
    position = position_json(state)
    assert "hand_tokens" not in position["state"]
    loaded = load_position(position)
    assert not {id(t) for t in state.hand_tokens} & {id(t) for t in loaded.hand_tokens}
    for seat in range(3):
        assert wire.view_bytes(loaded, seat, None) == wire.view_message(loaded.private_view(seat)).SerializeToString()


def test_a_hand_edited_from_outside_the_rules_is_written_again_after_renew_tokens() -> None:
    rng = random.Random(3)
    wire = get_wire("fuji99")
    assert wire.view_bytes is not None
    state = GAME.new_initial_state(GAME.make_config(2))
    while not state.hands[0] and not state.is_terminal():
        playout.step(state, rng)
    wire.view_bytes(state, 1, None)
    state.cubes[state.hands[0][0]] += 1  # as a test's scenario might set a position up by hand
    state.renew_tokens()
    assert wire.view_bytes(state, 1, None) == wire.view_message(state.private_view(1)).SerializeToString()
