"""Fuji 99's typed protobuf messages (proto/b99/games/fuji99.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order
(nothing in a Fuji 99 view is secret); tests compare the two on random games.
"""

from __future__ import annotations

from typing import Any, Final

from b99.games import fuji99_pb2 as pb

from referee.engine import Seat
from referee.games.fuji99.effects import EFFECTS
from referee.games.fuji99.phases import CUBES
from referee.games.fuji99.phases import OVER as PHASE_OVER
from referee.games.fuji99.state import Fuji99State
from referee.wire import (
    GameWire,
    IntField,
    LastKept,
    SharedParts,
    StringField,
    key,
    message_field,
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



#: counts of cubes a _CubesField keeps before it is emptied
_KNOWN_TEXTS: Final = 4096


class _CubesField:
    """A Cubes message field of one key (a bag, the current draw), each count of cubes written once: counts under 64
    clear, 16 yellow and 16 red found by position in a table (no int key made and hashed per count), others by a
    dict."""

    def __init__(self, field_key: bytes) -> None:
        self.key = field_key
        #: per count of clear cubes, the fields by (yellow << 4 | red) (an empty list: none written yet)
        self.rows: list[list[bytes]] = [[] for _ in range(64)]
        #: (clear << 16 | yellow << 8 | red) -> the field's bytes, for larger counts
        self.known: dict[int, bytes] = {}

    def of(self, clear: int, yellow: int, red: int) -> bytes:
        if 0 <= clear < 64 and 0 <= yellow < 16 and 0 <= red < 16:
            row = self.rows[clear]
            if not row:
                row = self.rows[clear] = [b""] * 256
            known = row[yellow << 4 | red]
            if not known:
                known = row[yellow << 4 | red] = _cubes(self.key, clear, yellow, red)
            return known
        if not (0 <= clear < 256 and 0 <= yellow < 256 and 0 <= red < 256):
            return _cubes(self.key, clear, yellow, red)
        code = clear << 16 | yellow << 8 | red
        written = self.known.get(code)
        if written is None:
            if len(self.known) >= _KNOWN_TEXTS:
                self.known.clear()
            written = self.known[code] = _cubes(self.key, clear, yellow, red)
        return written


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


class _Card:
    """A Fuji card as a hand shows it: its printed danger (None: the clear cubes on it), the spaces it adds to every S3
    move while held (what `Fuji99State.move_bonus` adds for it: a persistent card's effect's bonus of its parameters),
    and its Player field 7 by the clear cubes on it, each written once."""

    def __init__(self, data: Any, card: str) -> None:  # noqa: ANN401 - the state's FujiData
        kind = data.card_type[card]
        self.card = card
        self.type: str = kind.type
        self.danger: int | None = kind.danger
        bonus = 0
        if kind.timing == "persistent":
            hook = EFFECTS[kind.effect].move_bonus
            if hook is not None:
                bonus = hook(kind.params)
        self.bonus: int = bonus
        #: cubes on it -> its field (b"": not written yet)
        self.fields: list[bytes] = []

    def field(self, cubes: int) -> bytes:
        """The card with `cubes` clear cubes on it, as Player field 7."""
        if 0 <= cubes < len(self.fields):
            written = self.fields[cubes]
            if written:
                return written
        written = _hand_card(self.card, self.type, cubes, cubes if self.danger is None else self.danger)
        if 0 <= cubes < _CUBES_KEPT:
            while len(self.fields) <= cubes:
                self.fields.append(b"")
            self.fields[cubes] = written
        return written


#: counts of clear cubes on a card whose fields a `_Card` keeps
_CUBES_KEPT: Final = 64


def _cards_of(data: object) -> dict[str, _Card]:
    """The hand cards of one set of components (found by identity, the last one first), by card."""
    last = _LAST_CARDS[0]
    if last is not None and last[0] is data:
        return last[1]
    known = _CARDS.get(id(data))
    if known is None or known[0] is not data:
        known = _CARDS[id(data)] = (data, {})
    _LAST_CARDS[0] = known
    return known[1]


#: id(component data) -> (the data, card -> what its fields are written from)
_CARDS: Final[dict[int, tuple[object, dict[str, _Card]]]] = {}
_LAST_CARDS: Final[list[tuple[object, dict[str, _Card]] | None]] = [None]


def _seat_head(player: int, position: int, turns_taken: int) -> bytes:
    """Player fields 1-3."""
    return _PLAYER_SEAT.of(player) + _POSITION.of(position) + _TURNS_TAKEN.of(turns_taken)


def _hand_and_omens(fields: dict[str, Any], player: int, seat: _SeatWritten) -> bytes:
    """Player fields 7-9: the hand's cards and danger, and the omens; sets the seat's move bonus (the sum of its hand
    cards', as `Fuji99State.move_bonus` sums them)."""
    data = fields["data"]
    cards = _cards_of(data)
    on_cards: dict[str, int] = fields["cubes"]
    hand: list[str] = fields["hands"][player]
    parts: list[bytes] = []
    hand_danger = 0
    bonus = 0
    for card in hand:
        cubes = on_cards.get(card, 0)
        known = cards.get(card)
        if known is None:
            known = cards[card] = _Card(data, card)
        parts.append(known.field(cubes))
        danger = known.danger
        hand_danger += cubes if danger is None else danger
        bonus += known.bonus
    parts.append(varint_field(HAND_DANGER, hand_danger))
    omens: list[tuple[str, bool]] = fields["omens"][player]
    for card, active in omens:
        parts.append(message_field(OMENS, string_field(OMEN_CARD, card) + varint_field(OMEN_ACTIVE, active)))
    seat.move_bonus = bonus
    return b"".join(parts)


#: View field 1 of seats 0..15
_SEAT_FIELDS: Final = tuple(SEAT + varint(seat) for seat in range(16))
#: `shared`'s key saying that this state's parts were made current by the decision's first request
SHARED_PUBLIC: Final = "fuji99.public"


def view_bytes(state: Fuji99State, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat,
    then what every seat sees, written once for all of a decision's requests when `shared` is given."""
    parts: list[bytes] = []
    view_parts(state, seat, shared, parts)
    return b"".join(parts)


def view_parts(state: Fuji99State, seat: Seat, shared: SharedParts | None, parts: list[bytes]) -> int:
    """`view_bytes` as pieces appended to `parts` (the viewer's seat, then the parts every seat sees as last written
    for this state: `_public`, once for all of a decision's requests when `shared` is given); returns their size."""
    seat_field = _SEAT_FIELDS[seat] if 0 <= seat < len(_SEAT_FIELDS) else SEAT + varint(seat)
    if shared is not None and SHARED_PUBLIC in shared:
        written: _Written = _WRITTEN.get(state)  # made current for this state by the decision's first request
    else:
        written = _public(state)
        if shared is not None:
            shared[SHARED_PUBLIC] = b""
    head = written.head
    seats = written.seats_block
    middle = written.middle
    tail = written.tail
    parts.append(seat_field)
    parts.append(head)
    parts.append(seats)
    parts.append(middle)
    parts.append(tail)
    return len(seat_field) + len(head) + len(seats) + len(middle) + len(tail)



class _SeatWritten:
    """One seat's View field 8 as last written for a state, its parts, and the values each part was written from."""

    def __init__(self) -> None:
        #: fields 1-3 (position, turns taken), 4-6 (the bag's cubes, the yellow spaces reached) and 7-9 (hand, omens)
        self.head = b""
        self.position = -1
        self.turns_taken = -1
        self.bag_block = b""
        self.clear = -1
        self.yellow = -1
        self.red = -1
        self.got20 = -1
        self.got50 = -1
        self.hand_block = b""
        #: the state's `hand_tokens[seat]` when fields 7-9 were written (None: never)
        self.hand_token: object = None
        #: the whole field 8
        self.block = b""
        #: the hand's move bonus (`Fuji99State.move_bonus`), found with fields 7-9
        self.move_bonus = 0


class _Written:
    """What was last written for one state, part by part, with the values (or copies) each part showed then. A part
    as it was (its seats' hands found by the state's change tokens, the rest compared with what it showed) is not
    written again."""

    def __init__(self, state: Fuji99State) -> None:
        self.seats = [_SeatWritten() for _ in range(state.players)]
        #: every seat's field 8
        self.seats_block = b""
        #: View fields 2-7 and the values they show
        self.head = b""
        self.round = -1
        self.active = -1
        self.phase = ""
        self.movement = -1
        #: View fields 9-18 and the values they show
        self.middle = b""
        self.middle_phase = ""
        self.draw_clear = -1
        self.draw_yellow = -1
        self.draw_red = -1
        self.to_draw = -1
        self.red_area = -1
        self.spent = -1
        self.available = -1
        self.move_bonus = -1
        self.pagoda = -1
        self.yellow_on_20 = -1
        self.yellow_on_50 = -1
        self.deck_size = -1
        #: View fields 19-25: copies of the lists and dict they show, the values, whether the game is over
        self.tail_written = False
        self.discard_shown: list[str] = []
        self.resolving_shown: list[str] = []
        self.drawing: int | None = None
        self.placed_shown: dict[str, int] = {}
        self.to_place = -1
        self.winner: int | None = None
        self.over = False
        #: View field 19, the discard pile
        self.discard = b""
        self.tail = b""


#: per state, what was last written for it (the last request's state found first); emptied at 256 states
_WRITTEN: Final = LastKept(_Written, 256)


def _public(state: Fuji99State) -> _Written:
    """Every View field but the viewer's seat (field 1), as parts made current for this state (nothing in this game's
    view is secret). Each part is written again only when what it shows differs from what it showed when last written
    for this state."""
    written: _Written = _WRITTEN.get(state)
    # The state's attributes read from its __dict__ (compiled, a dict lookup costs a third of an interpreted object's
    # attribute read); every one is an instance attribute the state sets in __init__ and `clone` copies.
    fields: dict[str, Any] = state.__dict__
    round_number: int = fields["round"]
    active: int = fields["active"]
    phase: str = fields["phase"]
    movement: int = fields["m"]
    if round_number != written.round or active != written.active or phase != written.phase or movement != written.movement:
        written.round = round_number
        written.active = active
        written.phase = phase
        written.movement = movement
        written.head = b"".join(
            [
                _PLAYERS_FIELD.of(len(written.seats)),  # the player count (`state.players` is an interpreted property)
                _ROUND.of(round_number),
                _MAX_ROUNDS.of(fields["max_rounds"]),
                _ACTIVE.of(active),
                _PHASE.of(phase),
                _MOVEMENT.of(movement),
            ]
        )
    _seats(state, fields, written)
    move_bonus = written.seats[active].move_bonus
    draw: list[int] = fields["draw"]
    yellow_left: list[int] = fields["yellow_left"]
    deck: list[str] = fields["deck"]
    to_draw: int = fields["to_draw"] if phase == CUBES else 0
    red_area: int = fields["red_area"]
    spent: int = fields["spent"]
    available: int = fields["available"]
    pagoda: int = fields["pagoda"]
    if (
        draw[0] != written.draw_clear or draw[1] != written.draw_yellow or draw[2] != written.draw_red
        or to_draw != written.to_draw or red_area != written.red_area or spent != written.spent
        or available != written.available or move_bonus != written.move_bonus or pagoda != written.pagoda
        or yellow_left[0] != written.yellow_on_20 or yellow_left[1] != written.yellow_on_50 or len(deck) != written.deck_size
    ):
        written.draw_clear = draw[0]
        written.draw_yellow = draw[1]
        written.draw_red = draw[2]
        written.to_draw = to_draw
        written.red_area = red_area
        written.spent = spent
        written.available = available
        written.move_bonus = move_bonus
        written.pagoda = pagoda
        written.yellow_on_20 = yellow_left[0]
        written.yellow_on_50 = yellow_left[1]
        written.deck_size = len(deck)
        written.middle = b"".join(
            [
                _CURRENT_DRAW.of(draw[0], draw[1], draw[2]),
                _CUBES_TO_DRAW.of(to_draw),
                _RED_AREA.of(red_area),
                _SPENT_YELLOW.of(spent),
                _AVAILABLE_YELLOW.of(available),
                _MOVE_BONUS.of(move_bonus),
                _PAGODA.of(pagoda),
                _YELLOW_ON_20.of(yellow_left[0]),
                _YELLOW_ON_50.of(yellow_left[1]),
                _DECK_SIZE.of(len(deck)),
            ]
        )
    discard: list[str] = fields["discard"]
    resolving: list[str] = fields["resolving"]
    drawing: int | None = fields["drawing"]
    placed: dict[str, int] = fields["placed"]
    to_place: int = fields["to_place"]
    winner: int | None = fields["winner"]
    over = phase == PHASE_OVER
    if (
        not written.tail_written or discard != written.discard_shown or resolving != written.resolving_shown
        or drawing != written.drawing or placed != written.placed_shown or to_place != written.to_place
        or winner != written.winner or over != written.over
    ):
        if not written.tail_written or discard != written.discard_shown:
            kept = written.discard_shown
            count = len(kept)
            if written.tail_written and count < len(discard) and discard[:count] == kept:
                # cards put on the pile (the rules only ever add to it or empty it): their elements after the kept ones
                written.discard = written.discard + strings_field(DISCARD, discard[count:])
            else:
                written.discard = strings_field(DISCARD, discard)
            written.discard_shown = discard.copy()
        written.tail_written = True
        written.resolving_shown = resolving.copy()
        written.drawing = drawing
        written.placed_shown = placed.copy()
        written.to_place = to_place
        written.winner = winner
        written.over = over
        written.tail = written.discard + _tail(resolving, drawing, placed, to_place, winner, over)
    return written


def _seats(state: Fuji99State, fields: dict[str, Any], written: _Written) -> bytes:
    """View field 8 of every seat. A seat's parts (fields 1-3, 4-6, 7-9) are written again where the values they show
    differ from those they were written from, its hand and omens where the state's change token for them did."""
    positions: list[int] = fields["pos"]
    turns: list[int] = fields["turns_taken"]
    bags: list[list[int]] = fields["bags"]
    gots: list[list[int]] = fields["got"]  # bools (ints where a position was written by hand)
    hand_tokens: list[object] = fields["hand_tokens"]
    kept_seats = written.seats
    changed_any = False
    for player in range(len(kept_seats)):
        seat = kept_seats[player]
        changed = False
        position = positions[player]
        turns_taken = turns[player]
        if position != seat.position or turns_taken != seat.turns_taken:
            seat.head = _seat_head(player, position, turns_taken)
            seat.position = position
            seat.turns_taken = turns_taken
            changed = True
        bag = bags[player]
        got = gots[player]
        clear, yellow, red = bag[0], bag[1], bag[2]
        got20, got50 = got[0], got[1]
        if clear != seat.clear or yellow != seat.yellow or red != seat.red or got20 != seat.got20 or got50 != seat.got50:
            seat.bag_block = _BAG.of(clear, yellow, red) + _GOT20.of(got20) + _GOT50.of(got50)
            seat.clear = clear
            seat.yellow = yellow
            seat.red = red
            seat.got20 = got20
            seat.got50 = got50
            changed = True
        token = hand_tokens[player]
        if token is not seat.hand_token:
            seat.hand_block = _hand_and_omens(fields, player, seat)
            seat.hand_token = token
            changed = True
        if changed:
            seat.block = message_field(SEATS, seat.head + seat.bag_block + seat.hand_block)
            changed_any = True
    if changed_any:
        written.seats_block = b"".join([seat.block for seat in kept_seats])
    return written.seats_block


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


def decision_of(state: Fuji99State, seat: Seat) -> str:
    """The decision of a seat offered options: the phase (the engine's `decision_name` for its one deciding seat, the
    active one), read from the state's __dict__ without the engine's interpreted call."""
    phase: str = state.__dict__["phase"]
    return phase


WIRE = GameWire(
    view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes, decision_of=decision_of, view_parts=view_parts
)
