"""Fuji 99's typed protobuf messages (proto/b99/games/fuji99.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order
(nothing in a Fuji 99 view is secret); tests compare the two on random games.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Final

from b99.games import fuji99_pb2 as pb

from referee.engine import Seat
from referee.games.fuji99.phases import CUBES
from referee.games.fuji99.phases import OVER as PHASE_OVER
from referee.games.fuji99.state import Fuji99State
from referee.wire import (
    Blocks,
    GameWire,
    IntField,
    LastKept,
    SharedParts,
    StringField,
    blocks_of,
    key,
    message_field,
    packed_field,
    shared_part,
    small_packed_field,
    string_field,
    strings_field,
    varint,
    varint_field,
)

# View
SEAT: Final = key(1, 0)
PLAYERS: Final = key(2, 0)
ROUND: Final = key(3, 0)
MAX_ROUNDS: Final = key(4, 0)
ACTIVE: Final = key(5, 0)
PHASE: Final = key(6, 2)
MOVEMENT: Final = key(7, 0)
SEATS: Final = key(8, 2)
CURRENT_DRAW: Final = key(9, 2)
CUBES_TO_DRAW: Final = key(10, 0)
RED_AREA: Final = key(11, 0)
SPENT_YELLOW: Final = key(12, 0)
AVAILABLE_YELLOW: Final = key(13, 0)
MOVE_BONUS: Final = key(14, 0)
PAGODA: Final = key(15, 0)
YELLOW_ON_20: Final = key(16, 0)
YELLOW_ON_50: Final = key(17, 0)
DECK_SIZE: Final = key(18, 0)
DISCARD: Final = key(19, 2)
RESOLVING: Final = key(20, 2)
DRAWING_CARD: Final = key(21, 0)
PLACED: Final = key(22, 2)
CUBES_TO_PLACE: Final = key(23, 0)
WINNER: Final = key(24, 0)
OVER: Final = key(25, 0)
# Player
PLAYER_SEAT: Final = key(1, 0)
POSITION: Final = key(2, 0)
TURNS_TAKEN: Final = key(3, 0)
BAG: Final = key(4, 2)
GOT20: Final = key(5, 0)
GOT50: Final = key(6, 0)
HAND: Final = key(7, 2)
HAND_DANGER: Final = key(8, 0)
OMENS: Final = key(9, 2)
# Cubes, HandCard, OmenCard, Placement
CLEAR: Final = key(1, 0)
YELLOW: Final = key(2, 0)
RED: Final = key(3, 0)
CARD: Final = key(1, 2)
CARD_TYPE: Final = key(2, 2)
CARD_CUBES: Final = key(3, 0)
CARD_DANGER: Final = key(4, 0)
OMEN_CARD: Final = key(1, 2)
OMEN_ACTIVE: Final = key(2, 0)
PLACED_CARD: Final = key(1, 2)
PLACED_CUBES: Final = key(2, 0)

#: Per component data: hand cards already written (card, cubes on it -> the card and its danger).
_PARTS: dict[int, tuple[Any, Blocks]] = {}


#: counts of cubes a _CubesField keeps before it is emptied
_KNOWN_TEXTS: Final = 4096


class _CubesField:
    """A Cubes message field of one key (a bag, the current draw), each count of cubes written once."""

    def __init__(self, field_key: bytes) -> None:
        self.key = field_key
        #: (clear << 16 | yellow << 8 | red) -> the field's bytes
        self.known: dict[int, bytes] = {}

    def of(self, clear: int, yellow: int, red: int) -> bytes:
        if not (0 <= clear < 256 and 0 <= yellow < 256 and 0 <= red < 256):
            return _cubes(self.key, clear, yellow, red)
        code = clear << 16 | yellow << 8 | red
        known = self.known.get(code)
        if known is None:
            if len(self.known) >= _KNOWN_TEXTS:
                self.known.clear()
            known = self.known[code] = _cubes(self.key, clear, yellow, red)
        return known


def _cubes(field_key: bytes, clear: int, yellow: int, red: int) -> bytes:
    return message_field(field_key, varint_field(CLEAR, clear) + varint_field(YELLOW, yellow) + varint_field(RED, red))


_PLAYERS_FIELD: Final = IntField(PLAYERS)
_ROUND: Final = IntField(ROUND)
_MAX_ROUNDS: Final = IntField(MAX_ROUNDS)
_ACTIVE: Final = IntField(ACTIVE)
_MOVEMENT: Final = IntField(MOVEMENT)
_PHASE: Final = StringField(PHASE)
_CURRENT_DRAW: Final = _CubesField(CURRENT_DRAW)
_BAG: Final = _CubesField(BAG)
_CUBES_TO_DRAW: Final = IntField(CUBES_TO_DRAW)
_RED_AREA: Final = IntField(RED_AREA)
_SPENT_YELLOW: Final = IntField(SPENT_YELLOW)
_AVAILABLE_YELLOW: Final = IntField(AVAILABLE_YELLOW)
_MOVE_BONUS: Final = IntField(MOVE_BONUS)
_PAGODA: Final = IntField(PAGODA)
_YELLOW_ON_20: Final = IntField(YELLOW_ON_20)
_YELLOW_ON_50: Final = IntField(YELLOW_ON_50)
_DECK_SIZE: Final = IntField(DECK_SIZE)
_PLAYER_SEAT: Final = IntField(PLAYER_SEAT)
_POSITION: Final = IntField(POSITION)
_TURNS_TAKEN: Final = IntField(TURNS_TAKEN)
_GOT20: Final = IntField(GOT20)
_GOT50: Final = IntField(GOT50)
_CUBES_TO_PLACE: Final = IntField(CUBES_TO_PLACE)
_OVER: Final = IntField(OVER)


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
    return _PLAYER_SEAT.of(player) + _POSITION.of(position) + _TURNS_TAKEN.of(turns_taken)


def _bag_and_got(bag: list[int], got: list[bool]) -> bytes:
    """Player fields 4-6: the bag's cubes, and the yellow spaces reached."""
    clear, yellow, red = bag
    return _BAG.of(clear, yellow, red) + _GOT20.of(got[0]) + _GOT50.of(got[1])


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
    """One seat's View field 8 as last written for a state, and its parts."""

    def __init__(self) -> None:
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
        #: `_SEATS_SHOWN` as last written, copied, and every seat's field 8
        self.seats_shown: tuple[Any, ...] = ()
        self.seats_block = b""
        #: `_HEAD_SHOWN` and View fields 2-7
        self.head_shown: tuple[Any, ...] = ()
        self.head = b""
        #: `_MIDDLE_SHOWN` (copied), the deck's size and the active seat's move bonus; View fields 9-18
        self.middle_shown: tuple[Any, ...] = ()
        self.middle_phase = ""
        self.deck_size = -1
        self.move_bonus = -1
        self.middle = b""
        #: `_TAIL_SHOWN` (copied), whether the game is over, and View fields 19-25
        self.tail_shown: tuple[Any, ...] = ()
        self.over = False
        #: View field 19, the discard pile
        self.discard = b""
        self.tail = b""


#: per state, what was last written for it (the last request's state found first); emptied at 256 states
_WRITTEN: Final = LastKept(_Written, 256)
#: What View fields 2-7, 9-17 and 19-25 show, each read in one C call (`players` and `max_rounds` never change)
_HEAD_SHOWN: Final = operator.attrgetter("round", "active", "phase", "m")
_MIDDLE_SHOWN: Final = operator.attrgetter("draw", "to_draw", "red_area", "spent", "available", "pagoda", "yellow_left")
#: What the seats' fields 8 show, for all seats at once: positions, turns taken, bags, yellow spaces reached, hands,
#: omens, and the clear cubes on the hands' cards
_SEATS_SHOWN: Final = operator.attrgetter("pos", "turns_taken", "bags", "got", "hands", "omens", "cubes")
#: (`over` is the phase OVER: read from the head, without calling the state's property)
_TAIL_SHOWN: Final = operator.attrgetter("discard", "resolving", "drawing", "placed", "to_place", "winner")



def _move_bonus(state: Fuji99State, seat: int) -> int:
    """`state.move_bonus(seat)`: it reads the seat's hand alone (and the component data), so it is kept by hand."""
    hand = tuple(state.hands[seat])
    bonuses = blocks_of(_BONUSES, state.data)
    bonus = bonuses.get(hand)
    if bonus is None:
        bonus = bonuses.keep(hand, state.move_bonus(seat))
    return bonus


#: Per component data: a hand's move bonus, by its cards.
_BONUSES: dict[int, tuple[Any, Blocks]] = {}


def _public(state: Fuji99State) -> bytes:
    """Every View field but the viewer's seat (field 1): nothing in this game's view is secret. Each part is written
    again only when what it shows differs from the copy kept when it was last written for this state."""
    written: _Written = _WRITTEN.get(state)
    head = _HEAD_SHOWN(state)
    if head != written.head_shown:
        written.head_shown = head
        round_number, active, phase, movement = head
        written.head = b"".join(
            [
                _PLAYERS_FIELD.of(state.players),
                _ROUND.of(round_number),
                _MAX_ROUNDS.of(state.max_rounds),
                _ACTIVE.of(active),
                _PHASE.of(phase),
                _MOVEMENT.of(movement),
            ]
        )
    parts = [written.head]
    parts.append(_seats(state, written))
    active = state.active
    kept_seat = written.seats[active]
    move_bonus = kept_seat.move_bonus
    if move_bonus is None:
        move_bonus = kept_seat.move_bonus = _move_bonus(state, active)
    middle = _MIDDLE_SHOWN(state)
    deck_size = len(state.deck)
    if middle != written.middle_shown or deck_size != written.deck_size or move_bonus != written.move_bonus or head[2] != written.middle_phase:
        draw, to_draw, red_area, spent, available, pagoda, yellow_left = middle
        written.middle_shown = (draw.copy(), to_draw, red_area, spent, available, pagoda, yellow_left.copy())
        written.deck_size = deck_size
        written.move_bonus = move_bonus
        written.middle_phase = head[2]
        written.middle = b"".join(
            [
                _CURRENT_DRAW.of(draw[0], draw[1], draw[2]),
                _CUBES_TO_DRAW.of(to_draw if head[2] == CUBES else 0),
                _RED_AREA.of(red_area),
                _SPENT_YELLOW.of(spent),
                _AVAILABLE_YELLOW.of(available),
                _MOVE_BONUS.of(move_bonus),
                _PAGODA.of(pagoda),
                _YELLOW_ON_20.of(yellow_left[0]),
                _YELLOW_ON_50.of(yellow_left[1]),
                _DECK_SIZE.of(deck_size),
            ]
        )
    parts.append(written.middle)
    tail = _TAIL_SHOWN(state)
    over = head[2] == PHASE_OVER
    if tail != written.tail_shown or over != written.over:
        discard, resolving, drawing, placed, to_place, winner = tail
        kept = written.tail_shown
        if not kept or discard != kept[0]:
            written.discard = strings_field(DISCARD, discard)
        written.tail_shown = (discard.copy(), resolving.copy(), drawing, placed.copy(), to_place, winner)
        written.over = over
        written.tail = written.discard + _tail(resolving, drawing, placed, to_place, winner, over)
    parts.append(written.tail)
    return b"".join(parts)


def _seats(state: Fuji99State, written: _Written) -> bytes:
    """View field 8 of every seat. What all seats show is compared at once with a copy (a few C calls); where it
    differs, each seat's parts (fields 1-3, 4-6, 7-9) that differ from their copies are written again."""
    shown = _SEATS_SHOWN(state)
    kept = written.seats_shown
    if shown == kept:
        return written.seats_block
    first = not kept
    heads = first or shown[0] != kept[0] or shown[1] != kept[1]
    bags = first or shown[2] != kept[2] or shown[3] != kept[3]
    cubes_changed = first or shown[6] != kept[6]
    hands = cubes_changed or shown[4] != kept[4] or shown[5] != kept[5]
    positions, turns_taken, all_bags, all_got, all_hands, all_omens, cubes = shown
    if first:
        # The copies, kept in lists of our own: a seat's entries are replaced where they change.
        kept = written.seats_shown = (
            positions.copy(), turns_taken.copy(), [bag.copy() for bag in all_bags], [got.copy() for got in all_got],
            [hand.copy() for hand in all_hands], [omens.copy() for omens in all_omens], cubes.copy(),
        )
    kept_positions, kept_turns, kept_bags, kept_got, kept_hands, kept_omens = kept[0], kept[1], kept[2], kept[3], kept[4], kept[5]
    # The cards whose clear cubes changed (or that left every hand): only a hand holding one of them shows a change.
    recounted: list[str] = []
    if cubes_changed and not first:
        kept_cubes: dict[str, int] = kept[6]
        recounted = [card for card, count in cubes.items() if kept_cubes.get(card, -1) != count]
        recounted += [card for card in kept_cubes if card not in cubes]
    blocks = []
    for player in range(state.players):
        seat = written.seats[player]
        changed = first
        if first or heads and (positions[player] != kept_positions[player] or turns_taken[player] != kept_turns[player]):
            seat.head = _seat_head(player, positions[player], turns_taken[player])
            kept_positions[player] = positions[player]
            kept_turns[player] = turns_taken[player]
            changed = True
        if first or bags and (all_bags[player] != kept_bags[player] or all_got[player] != kept_got[player]):
            seat.bag_block = _bag_and_got(all_bags[player], all_got[player])
            kept_bags[player] = all_bags[player].copy()
            kept_got[player] = all_got[player].copy()
            changed = True
        if hands:
            hand = all_hands[player]
            hand_changed = first or hand != kept_hands[player]
            if hand_changed or all_omens[player] != kept_omens[player] or _holds_any(hand, recounted):
                if hand_changed:
                    seat.move_bonus = None
                    kept_hands[player] = hand.copy()
                kept_omens[player] = all_omens[player].copy()
                seat.hand_block = _hand_and_omens(state, player)
                changed = True
        if changed:
            seat.block = message_field(SEATS, seat.head + seat.bag_block + seat.hand_block)
        blocks.append(seat.block)
    if cubes_changed and not first:
        written.seats_shown = (*kept[:6], cubes.copy())
    written.seats_block = b"".join(blocks)
    return written.seats_block


def _holds_any(hand: list[str], cards: list[str]) -> bool:
    """Whether `hand` holds one of `cards`."""
    for card in cards:
        if card in hand:
            return True
    return False


def _tail(resolving: list[str], drawing: int | None, placed: dict[str, int], to_place: int, winner: int | None, over: bool) -> bytes:
    """View fields 20-25."""
    parts = [strings_field(RESOLVING, resolving)] if resolving else []
    if drawing is not None:
        parts.append(DRAWING_CARD + varint(drawing))
    if placed:
        parts += [message_field(PLACED, string_field(PLACED_CARD, card) + varint_field(PLACED_CUBES, count)) for card, count in placed.items()]
    parts.append(_CUBES_TO_PLACE.of(to_place))
    if winner is not None:
        parts.append(WINNER + varint(winner))
    parts.append(_OVER.of(over))
    return b"".join(parts)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
