"""Fuji 99's typed protobuf messages (proto/b99/games/fuji99.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order
(nothing in a Fuji 99 view is secret); tests compare the two on random games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from b99.games import fuji99_pb2 as pb

from referee.engine import Seat
from referee.games.fuji99.phases import CUBES
from referee.games.fuji99.state import Fuji99State
from referee.wire import (
    Blocks,
    GameWire,
    SharedParts,
    blocks_of,
    kept_for,
    key,
    message_field,
    shared_part,
    string_field,
    strings_field,
    varint,
    varint_field,
)

# View
SEAT, PLAYERS, ROUND, MAX_ROUNDS, ACTIVE, PHASE, MOVEMENT, SEATS, CURRENT_DRAW = (
    key(1, 0), key(2, 0), key(3, 0), key(4, 0), key(5, 0), key(6, 2), key(7, 0), key(8, 2), key(9, 2),
)
CUBES_TO_DRAW, RED_AREA, SPENT_YELLOW, AVAILABLE_YELLOW, MOVE_BONUS, PAGODA, YELLOW_ON_20, YELLOW_ON_50 = (
    key(10, 0), key(11, 0), key(12, 0), key(13, 0), key(14, 0), key(15, 0), key(16, 0), key(17, 0),
)
DECK_SIZE, DISCARD, RESOLVING, DRAWING_CARD, PLACED, CUBES_TO_PLACE, WINNER, OVER = (
    key(18, 0), key(19, 2), key(20, 2), key(21, 0), key(22, 2), key(23, 0), key(24, 0), key(25, 0),
)
# Player
PLAYER_SEAT, POSITION, TURNS_TAKEN, BAG, GOT20, GOT50, HAND, HAND_DANGER, OMENS = (
    key(1, 0), key(2, 0), key(3, 0), key(4, 2), key(5, 0), key(6, 0), key(7, 2), key(8, 0), key(9, 2),
)
# Cubes, HandCard, OmenCard, Placement
CLEAR, YELLOW, RED = key(1, 0), key(2, 0), key(3, 0)
CARD, CARD_TYPE, CARD_CUBES, CARD_DANGER = key(1, 2), key(2, 2), key(3, 0), key(4, 0)
OMEN_CARD, OMEN_ACTIVE = key(1, 2), key(2, 0)
PLACED_CARD, PLACED_CUBES = key(1, 2), key(2, 0)

#: Per component data: hand cards already written (card, cubes on it -> the card and its danger).
_PARTS: dict[int, tuple[Any, Blocks]] = {}


def _cubes(field_key: bytes, clear: int, yellow: int, red: int) -> bytes:
    return message_field(field_key, varint_field(CLEAR, clear) + varint_field(YELLOW, yellow) + varint_field(RED, red))


def _hand_card(card: str, card_type: str, cubes: int, danger: int) -> bytes:
    return message_field(
        HAND,
        string_field(CARD, card) + string_field(CARD_TYPE, card_type) + varint_field(CARD_CUBES, cubes) + varint_field(CARD_DANGER, danger),
    )


def _hand(state: Fuji99State, written_parts: Blocks, cards: Sequence[str]) -> tuple[list[bytes], int]:
    """A hand's cards as Player field 7 (each remembered by card and cubes on it) and the hand's danger."""
    card_type = state.data.card_type
    cubes_get = state.cubes.get
    hand = []
    hand_danger = 0
    for card in cards:
        on_card = cubes_get(card, 0)
        card_key = (card, on_card)
        written = written_parts.get(card_key)
        if written is None:
            kind = card_type[card]
            danger = on_card if kind.danger is None else kind.danger
            written = written_parts.keep(card_key, (_hand_card(card, kind.type, on_card, danger), danger))
        hand.append(written[0])
        hand_danger += written[1]
    return hand, hand_danger


def _seat(state: Fuji99State, player: int, hand: list[bytes], hand_danger: int) -> bytes:
    clear, yellow, red = state.bags[player]
    got = state.got[player]
    body = b"".join(
        [
            varint_field(PLAYER_SEAT, player),
            varint_field(POSITION, state.pos[player]),
            varint_field(TURNS_TAKEN, state.turns_taken[player]),
            _cubes(BAG, clear, yellow, red),
            varint_field(GOT20, got[0]),
            varint_field(GOT50, got[1]),
            *hand,
            varint_field(HAND_DANGER, hand_danger),
            *[message_field(OMENS, string_field(OMEN_CARD, card) + varint_field(OMEN_ACTIVE, active)) for card, active in state.omens[player]],
        ]
    )
    return message_field(SEATS, body)


def view_bytes(state: Fuji99State, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat,
    then what every seat sees, written once for all of a decision's requests when `shared` is given."""
    public = shared_part(shared, "public", _public, state)
    return SEAT + varint(seat) + public


class _Written:
    """What was last written for one state: each seat's part and the discard pile, with copies of what they
    showed then. A part as it was (compared in C with its copy: no key built) is not written again."""

    __slots__ = ("seats", "seat_blocks", "discard", "discard_block")

    def __init__(self, state: Fuji99State) -> None:
        #: per seat: position, turns taken, bag, yellow spaces reached, hand, cubes on the hand's cards, omens
        self.seats: list[tuple[int, int, list[int], list[bool], list[str], tuple[int | None, ...], list[tuple[str, bool]]] | None] = (
            [None] * state.players
        )
        self.seat_blocks: list[bytes] = [b""] * state.players
        self.discard: list[str] | None = None
        self.discard_block = b""


#: id(state) -> (the state, what was last written for it); emptied when full.
_WRITTEN: dict[int, tuple[Fuji99State, _Written]] = {}
_WRITTEN_LIMIT = 256


def _public(state: Fuji99State) -> bytes:
    """Every View field but the viewer's seat (field 1): nothing in this game's view is secret."""
    written = kept_for(_WRITTEN, state, _Written, _WRITTEN_LIMIT)
    phase = state.phase
    parts = [
        varint_field(PLAYERS, state.players),
        varint_field(ROUND, state.round),
        varint_field(MAX_ROUNDS, state.max_rounds),
        varint_field(ACTIVE, state.active),
        string_field(PHASE, phase),
        varint_field(MOVEMENT, state.m),
    ]
    cubes_get = state.cubes.get
    for player in range(state.players):
        hand = state.hands[player]
        on_hand = tuple(map(cubes_get, hand))
        seat = (state.pos[player], state.turns_taken[player], state.bags[player], state.got[player], hand, on_hand, state.omens[player])
        if written.seats[player] == seat:
            parts.append(written.seat_blocks[player])
            continue
        block = _seat(state, player, *_hand(state, blocks_of(_PARTS, state.data), hand))
        written.seats[player] = (seat[0], seat[1], seat[2].copy(), seat[3].copy(), hand.copy(), on_hand, seat[6].copy())
        written.seat_blocks[player] = block
        parts.append(block)
    parts += [
        _cubes(CURRENT_DRAW, *state.draw),
        varint_field(CUBES_TO_DRAW, state.to_draw if phase == CUBES else 0),
        varint_field(RED_AREA, state.red_area),
        varint_field(SPENT_YELLOW, state.spent),
        varint_field(AVAILABLE_YELLOW, state.available),
        varint_field(MOVE_BONUS, state.move_bonus(state.active)),
        varint_field(PAGODA, state.pagoda),
        varint_field(YELLOW_ON_20, state.yellow_left[0]),
        varint_field(YELLOW_ON_50, state.yellow_left[1]),
        varint_field(DECK_SIZE, len(state.deck)),
    ]
    discard = state.discard
    if written.discard != discard:
        written.discard = discard.copy()
        written.discard_block = strings_field(DISCARD, discard)
    parts += [written.discard_block, strings_field(RESOLVING, state.resolving)]
    if state.drawing is not None:
        parts.append(DRAWING_CARD + varint(state.drawing))
    if state.placed:
        parts += [message_field(PLACED, string_field(PLACED_CARD, card) + varint_field(PLACED_CUBES, count)) for card, count in state.placed.items()]
    parts.append(varint_field(CUBES_TO_PLACE, state.to_place))
    if state.winner is not None:
        parts.append(WINNER + varint(state.winner))
    parts.append(varint_field(OVER, state.over))
    return b"".join(parts)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
