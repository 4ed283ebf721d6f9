"""Merchants of B99's typed messages (proto/b99/games/merchants.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` in field-number order: the public fields
(1-14), then the seat's own (15-20: its hand, reputation cards and pending answers). A seat's public board
and the layout change a few times a game: each is written from its dict (views.py, the state's layout rows)
once and then found by a tuple of what it shows. Tests compare the two on random games of every variant.
"""

from __future__ import annotations

from typing import Any

from b99.games import merchants_pb2 as pb

from referee.engine import Seat
from referee.games.merchants.state import OVER, MerchantsState
from referee.games.merchants.views import _public_player
from referee.wire import (
    Blocks,
    GameWire,
    SharedParts,
    blocks_of,
    encode,
    key,
    message_field,
    optional_string_field,
    shared_part,
    string_field,
    strings_field,
    varint,
    varint_field,
)

PLAYERS, ROUND, PICK, PHASE, SOLO, BACK, LAYOUT, D_CARD, D_KIND, SEATS = (
    key(1, 0), key(2, 0), key(3, 0), key(4, 2), key(5, 0), key(6, 0), key(7, 2), key(8, 2), key(9, 2), key(10, 2),
)
SUPPLY_SIZE, REPUTATION_DECK_SIZE, SOLO_REMOVED, PASS_DIRECTION, SEAT, HAND, REPUTATION_HAND, RETURNED = (
    key(11, 0), key(12, 0), key(13, 2), key(14, 2), key(15, 0), key(16, 2), key(17, 2), key(18, 2),
)
PENDING_TILE, PENDING_TARGET = key(19, 2), key(20, 2)
TARGET_ROW, TARGET_COL, TARGET_MODE = key(1, 0), key(2, 0), key(3, 2)
PASS_LEFT, PASS_RIGHT = string_field(PASS_DIRECTION, "left"), string_field(PASS_DIRECTION, "right")

#: Per component data: seats' public boards and layouts already written, by what they show.
_PARTS: dict[int, tuple[Any, Blocks]] = {}


def view_bytes(state: MerchantsState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the public fields,
    written once for all of a decision's requests when `shared` is given, then the seat's own."""
    public = shared_part(shared, "public", _public, state)
    player = state.players_state[seat]
    parts = [
        public,
        SEAT + varint(seat),
        strings_field(HAND, sorted(player.bundle.tiles) if player.bundle is not None else ()),
        strings_field(REPUTATION_HAND, sorted(player.reputation)),
        strings_field(RETURNED, player.returned),
        optional_string_field(PENDING_TILE, player.pending_tile),
    ]
    if player.pending_target is not None:
        row, col, mode = player.pending_target
        parts.append(message_field(PENDING_TARGET, varint_field(TARGET_ROW, row) + varint_field(TARGET_COL, col) + string_field(TARGET_MODE, mode)))
    return b"".join(parts)


def _public(state: MerchantsState) -> bytes:
    """View fields 1-14: what every seat (and a spectator) sees."""
    written = blocks_of(_PARTS, state.data)
    revealed = state.trends_revealed()
    parts = [
        varint_field(PLAYERS, state.players),
        varint_field(ROUND, state.round),
        varint_field(PICK, state.pick),
        string_field(PHASE, state.phase),
        varint_field(SOLO, state.solo),
        varint_field(BACK, state.back_side),
    ]
    layout_key = (
        "layout", revealed, tuple(state.layout.items()), tuple(state.c_cards.items()) if revealed else (),
        tuple(state.grey.items()) if revealed else (),
    )
    block = written.get(layout_key)
    if block is None:
        block = written.keep(layout_key, encode(pb.View, {"layout": state.layout_rows(with_hidden=revealed)}).SerializeToString())
    parts.append(block)
    if revealed and state.d_card is not None:
        parts.append(optional_string_field(D_CARD, state.d_card) + optional_string_field(D_KIND, state.data.grey_kinds[state.grey["D"]]))
    for index, player in enumerate(state.players_state):
        bundle = player.bundle
        seat_key = (
            index, player.score, tuple(player.shop.items()), tuple(player.discards), tuple(player.unused_chips),
            tuple([(chip.round, chip.dungeon, chip.thumb, chip.points) for chip in player.chips]),
            len(bundle.tiles) if bundle is not None else 0, len(player.reputation),
        )
        block = None if player.final is not None else written.get(seat_key)
        if block is None:
            block = message_field(SEATS, encode(pb.Player, _public_player(state, index)).SerializeToString())
            if player.final is None:
                written.keep(seat_key, block)
        parts.append(block)
    parts += [
        varint_field(SUPPLY_SIZE, len(state.supply)),
        varint_field(REPUTATION_DECK_SIZE, len(state.reputation_deck)),
        strings_field(SOLO_REMOVED, state.solo_removed),
    ]
    if state.phase != OVER and state.round >= 1 and not state.solo:
        parts.append(PASS_RIGHT if state.round == 2 else PASS_LEFT)
    return b"".join(parts)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
