"""Merchants of B99's placements and scorings record how each seat's board grew; the View writer grows a board from it.

The engine records, at each placement and each round scored, the board token it replaced (`grown_from`) and the cell
it placed (`grown_cells`, valid while the state's public token is the placement's, `grown_at`), or for a round scored
the board token it made (valid while the seat's board token is that one). The writer grows the board it last wrote at a seat's place by that change only where the record names
that board's token; anywhere else
(another game viewed in between, a copy that placed otherwise, a position viewed for the first time, a record that no
longer holds) it writes the board from the state. Every view is compared with protobuf's serialization of its dict view.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

from referee import playout
from referee.games.merchants.state import MerchantsState
from referee.games.merchants.wire import WIRE
from referee.registry import get_game

GAME = get_game("merchants")


def _boards(state: MerchantsState) -> list[tuple[Any, ...]]:
    """Each seat's board token and a copy of what its public board shows."""
    return [
        (state.board_tokens[seat], dict(player.shop), list(player.discards), player.score, list(player.chips), player.final)
        for seat, player in enumerate(state.players_state)
    ]


def _check_views(state: MerchantsState) -> None:
    for seat in range(len(state.players_state)):
        assert WIRE.view_bytes(state, seat, None) == WIRE.view_message(state.private_view(seat)).SerializeToString()


def test_placements_and_scorings_record_the_board_each_grew_from() -> None:
    """Right after a placement or a round scored (and only then) the record names, for every seat, the board token it
    replaced and the cell placed: the new board is the old one with that cell set (and the tile it replaced
    discarded), nothing else; for a round scored (the token made in place of a cell), the old one with a chip used
    and its points added."""
    rng = random.Random(21)
    for players, variant in ((1, {}), (2, {}), (3, {"personal_board_back": True}), (4, {"first_game": True})):
        state = GAME.new_initial_state(GAME.make_config(players, variant))
        grown = scored = 0
        while not state.is_terminal():
            before = _boards(state)
            playout.step(state, rng)
            for seat, player in enumerate(state.players_state):
                token, shop, discards, score, chips, final = before[seat]
                cell = state.grown_cells[seat]
                if isinstance(cell, int) and cell == state.board_tokens[seat] != token:
                    assert state.grown_from[seat] == token
                    scored += 1
                    assert (player.shop, player.discards, player.final) == (shop, discards, final)
                    assert player.chips[:-1] == chips and player.score == score + player.chips[-1].points
                    continue
                if state.grown_at != state.public_token or isinstance(cell, int):
                    continue
                assert state.grown_from[seat] == token != state.board_tokens[seat]
                grown += 1
                assert isinstance(cell, tuple) and cell in player.shop
                assert {key: value for key, value in player.shop.items() if key != cell} == {
                    key: value for key, value in shop.items() if key != cell
                }
                assert player.discards == discards + ([shop[cell][0]] if cell in shop else [])
                assert (player.score, player.chips, player.final) == (score, chips, final)
        assert grown > 0 or players == 1  # a solo game draws (a chance outcome) right after each placement
        assert scored >= 2 * players  # the last round's scoring is followed by final scoring (a new token)


def test_grown_boards_are_protobufs_bytes() -> None:
    """Every seat's view at every step of random games, with seats viewed in either order, some positions never
    viewed (the next placement's record then names a board the writer never wrote), another game and copies that
    place otherwise viewed in between."""
    rng = random.Random(34)
    for players in (2, 3, 4):
        state = GAME.new_initial_state(GAME.make_config(players))
        other = GAME.new_initial_state(GAME.make_config(players))
        copies: list[MerchantsState] = []
        while not state.is_terminal():
            playout.step(state, rng)
            if rng.random() < 0.15:
                continue  # this position is not viewed
            if rng.random() < 0.1:
                copies.append(state.clone())
            _check_views(state)
            if not other.is_terminal() and rng.random() < 0.2:
                playout.step(other, rng)
                _check_views(other)
            for copy in copies[-2:]:
                if not copy.is_terminal() and rng.random() < 0.5:
                    playout.step(copy, rng)  # a copy placing from the same boards, its own tiles
                    _check_views(copy)
                    _check_views(state)


def test_a_record_counts_only_for_its_own_position() -> None:
    """A pickled state (new tokens, no record), a position's board edited from outside and given new tokens, and a
    determinized world (which keeps the public token and every board) are all written as protobuf writes them."""
    from referee.games.merchants.state import TOKENS

    rng = random.Random(55)
    state = GAME.new_initial_state(GAME.make_config(3))
    while not state.is_terminal() and not (state.grown_at == state.public_token and len(state.players_state[0].shop) >= 4):
        playout.step(state, rng)
    _check_views(state)
    twin = pickle.loads(pickle.dumps(state))
    assert twin.grown_from == [None] * 3
    playout.step(twin, rng)
    _check_views(twin)
    world = state.determinize(0, random.Random(1))
    _check_views(world)
    # the same decision played again on a copy: its record names the same boards, the writer's are the first copy's
    copy = state.clone()
    playout.step(copy, rng)
    _check_views(copy)
    playout.step(state, rng)
    _check_views(state)
    # a board edited from outside right after a placement: new tokens (the public one too) leave the record unused
    while not state.is_terminal() and state.grown_at != state.public_token:
        playout.step(state, rng)
    if not state.is_terminal():
        player = state.players_state[1]
        player.discards.append("zz-outside")
        state.board_tokens[1] = TOKENS.new()
        state.public_token = TOKENS.new()
        _check_views(state)
