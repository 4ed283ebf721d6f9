"""Fuji 99's typed protobuf messages (proto/b99/games/fuji99.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order
(nothing in a Fuji 99 view is secret); tests compare the two on random games.
"""

from __future__ import annotations

import operator
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


def _seat_head(player: int, position: int, turns_taken: int) -> bytes:
    """Player fields 1-3."""
    return varint_field(PLAYER_SEAT, player) + varint_field(POSITION, position) + varint_field(TURNS_TAKEN, turns_taken)


def _bag_and_got(bag: list[int], got: list[bool]) -> bytes:
    """Player fields 4-6: the bag's cubes, and the yellow spaces reached."""
    clear, yellow, red = bag
    return _cubes(BAG, clear, yellow, red) + varint_field(GOT20, got[0]) + varint_field(GOT50, got[1])


def _hand_and_omens(state: Fuji99State, player: int) -> bytes:
    """Player fields 7-9: the hand's cards and danger, and the omens."""
    hand, hand_danger = _hand(state, blocks_of(_PARTS, state.data), state.hands[player])
    return b"".join(
        [
            *hand,
            varint_field(HAND_DANGER, hand_danger),
            *[message_field(OMENS, string_field(OMEN_CARD, card) + varint_field(OMEN_ACTIVE, active)) for card, active in state.omens[player]],
        ]
    )


def view_bytes(state: Fuji99State, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat,
    then what every seat sees, written once for all of a decision's requests when `shared` is given."""
    public = shared_part(shared, "public", _public, state)
    return SEAT + varint(seat) + public


class _SeatWritten:
    """One seat's View field 8 as last written for a state: its three parts, each with a copy of what it showed."""

    def __init__(self) -> None:
        self.position = self.turns_taken = -1
        self.bag: list[int] = []
        self.got: list[bool] = []
        self.hand: list[str] | None = None
        #: the clear cubes on the hand's cards, in hand order
        self.on_hand: tuple[int, ...] = ()
        self.omens: list[tuple[str, bool]] | None = None
        #: fields 1-3, 4-6 and 7-9
        self.head = b""
        self.bag_block = b""
        self.hand_block = b""
        #: the whole field 8
        self.block = b""
        #: the hand's move bonus (`Fuji99State.move_bonus`), None until asked since the hand last changed
        self.move_bonus: int | None = None


class _Written:
    """What was last written for one state, part by part, with copies of what each part showed then. A part as it
    was (compared in C with its copy, identity first: no key built) is not written again."""

    def __init__(self, state: Fuji99State) -> None:
        self.seats = [_SeatWritten() for _ in range(state.players)]
        #: a copy of the clear cubes on every hand's cards
        self.cubes: dict[str, int] | None = None
        #: `_HEAD_SHOWN` and View fields 2-7
        self.head_shown: tuple[Any, ...] = ()
        self.head = b""
        #: `_MIDDLE_SHOWN` (copied), the deck's size and the active seat's move bonus; View fields 9-18
        self.middle_shown: tuple[Any, ...] = ()
        self.middle_phase = ""
        self.deck_size = -1
        self.move_bonus = -1
        self.middle = b""
        #: `_TAIL_SHOWN` (copied) and View fields 19-25
        self.tail_shown: tuple[Any, ...] = ()
        self.tail = b""


#: id(state) -> (the state, what was last written for it); emptied when full.
_WRITTEN: dict[int, tuple[Fuji99State, _Written]] = {}
_WRITTEN_LIMIT = 256
#: The state of the last request, and what was written for it (`_written`)
_LAST: tuple[Fuji99State, _Written] | None = None
#: What View fields 2-7, 9-17 and 19-25 show, each read in one C call (`players` and `max_rounds` never change)
_HEAD_SHOWN = operator.attrgetter("round", "active", "phase", "m")
_MIDDLE_SHOWN = operator.attrgetter("draw", "to_draw", "red_area", "spent", "available", "pagoda", "yellow_left")
_TAIL_SHOWN = operator.attrgetter("discard", "resolving", "drawing", "placed", "to_place", "winner", "over")


def _written(state: Fuji99State) -> _Written:
    """What was last written for `state`: most requests are for the state the last one was for."""
    global _LAST
    last = _LAST
    if last is not None and last[0] is state:
        return last[1]
    written = kept_for(_WRITTEN, state, _Written, _WRITTEN_LIMIT)
    _LAST = (state, written)
    return written


def _copied(shown: tuple[Any, ...]) -> tuple[Any, ...]:
    """`shown` with each list or dict copied: the copy compares by contents where the state's own containers, shown
    again, would be the same objects mutated since."""
    return tuple([item.copy() if type(item) is list or type(item) is dict else item for item in shown])


def _public(state: Fuji99State) -> bytes:
    """Every View field but the viewer's seat (field 1): nothing in this game's view is secret. Each part is written
    again only when what it shows differs from the copy kept when it was last written for this state."""
    written = _written(state)
    head = _HEAD_SHOWN(state)
    if head != written.head_shown:
        written.head_shown = head
        round_number, active, phase, movement = head
        written.head = b"".join(
            [
                varint_field(PLAYERS, state.players),
                varint_field(ROUND, round_number),
                varint_field(MAX_ROUNDS, state.max_rounds),
                varint_field(ACTIVE, active),
                string_field(PHASE, phase),
                varint_field(MOVEMENT, movement),
            ]
        )
    parts = [written.head]
    cubes = state.cubes
    cubes_changed = cubes != written.cubes
    if cubes_changed:
        written.cubes = cubes.copy()
    seats = written.seats
    for player in range(state.players):
        parts.append(_seat(state, seats[player], player, cubes_changed))
    active = state.active
    kept_seat = seats[active]
    move_bonus = kept_seat.move_bonus
    if move_bonus is None:
        move_bonus = kept_seat.move_bonus = state.move_bonus(active)
    middle = _MIDDLE_SHOWN(state)
    deck_size = len(state.deck)
    if middle != written.middle_shown or deck_size != written.deck_size or move_bonus != written.move_bonus or head[2] != written.middle_phase:
        written.middle_shown = _copied(middle)
        written.deck_size = deck_size
        written.move_bonus = move_bonus
        written.middle_phase = head[2]
        draw, to_draw, red_area, spent, available, pagoda, yellow_left = middle
        written.middle = b"".join(
            [
                _cubes(CURRENT_DRAW, draw[0], draw[1], draw[2]),
                varint_field(CUBES_TO_DRAW, to_draw if head[2] == CUBES else 0),
                varint_field(RED_AREA, red_area),
                varint_field(SPENT_YELLOW, spent),
                varint_field(AVAILABLE_YELLOW, available),
                varint_field(MOVE_BONUS, move_bonus),
                varint_field(PAGODA, pagoda),
                varint_field(YELLOW_ON_20, yellow_left[0]),
                varint_field(YELLOW_ON_50, yellow_left[1]),
                varint_field(DECK_SIZE, deck_size),
            ]
        )
    parts.append(written.middle)
    tail = _TAIL_SHOWN(state)
    if tail != written.tail_shown:
        written.tail_shown = _copied(tail)
        written.tail = _tail(*tail)
    parts.append(written.tail)
    return b"".join(parts)


def _seat(state: Fuji99State, kept: _SeatWritten, player: int, cubes_changed: bool) -> bytes:
    """One seat's View field 8, each of its parts written again where it differs from its copy."""
    changed = False
    position = state.pos[player]
    turns_taken = state.turns_taken[player]
    if position != kept.position or turns_taken != kept.turns_taken:
        kept.position, kept.turns_taken = position, turns_taken
        kept.head = _seat_head(player, position, turns_taken)
        changed = True
    bag = state.bags[player]
    got = state.got[player]
    if bag != kept.bag or got != kept.got:
        kept.bag, kept.got = bag.copy(), got.copy()
        kept.bag_block = _bag_and_got(bag, got)
        changed = True
    hand = state.hands[player]
    omens = state.omens[player]
    hand_changed = hand != kept.hand
    on_hand = kept.on_hand
    if hand_changed or cubes_changed:
        cubes_get = state.cubes.get
        on_hand = tuple([cubes_get(card, 0) for card in hand])
    if hand_changed or on_hand != kept.on_hand or omens != kept.omens:
        if hand_changed:
            kept.hand = hand.copy()
            kept.move_bonus = None
        kept.on_hand = on_hand
        kept.omens = omens.copy()
        kept.hand_block = _hand_and_omens(state, player)
        changed = True
    if changed:
        kept.block = message_field(SEATS, kept.head + kept.bag_block + kept.hand_block)
    return kept.block


def _tail(
    discard: list[str], resolving: list[str], drawing: int | None, placed: dict[str, int], to_place: int, winner: int | None,
    over: bool,
) -> bytes:
    """View fields 19-25."""
    parts = [strings_field(DISCARD, discard), strings_field(RESOLVING, resolving)]
    if drawing is not None:
        parts.append(DRAWING_CARD + varint(drawing))
    if placed:
        parts += [message_field(PLACED, string_field(PLACED_CARD, card) + varint_field(PLACED_CUBES, count)) for card, count in placed.items()]
    parts.append(varint_field(CUBES_TO_PLACE, to_place))
    if winner is not None:
        parts.append(WINNER + varint(winner))
    parts.append(varint_field(OVER, over))
    return b"".join(parts)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
