"""Merchants of B99's events written as a DecisionRequest's fields, straight from their data (`write_event`).

Most of a game's events are a draft's (every seat's placement, every hand passed, each seat's new hand, told to
it alone) and the draws and returns of each round: their arena Event fields are written here straight from
their data, each field looked up in a table (the shared writer reads every data key through a generic field
table, and looks events of repeated content up by a key built of it), and so are the chips revealed and the round
scored. The layout, the trends revealed and the final scoring are left to the shared writer (`GameWire.event_tail`),
as is any event whose data are not the engine's (a key the message lacks, a value of another type or out of range).

The first request of a decision has the log's deferred entries built by this game's own builder of a read
(`state.build_deferred`, `referee.wire.DEFERRED_BUILDS`) and the fields of all of them written here at once, from
their builders' arguments (`write_built`, `referee.wire.BUILT_WRITERS`): one call each a decision from the requests'
module, where there was a call per event.

tests/games/merchants/test_wire_writers.py compares them with protobuf's serialization.
"""

from __future__ import annotations

from typing import Any, Final, cast

from b99.games import merchants_pb2 as pb

from referee.engine import Event
from referee.games.merchants.state import (
    MerchantsState,
    _chips_revealed_event,
    _event,
    _hand_drawn_event,
    _hand_passed_event,
    _hand_tiles_event,
    _placed_event,
    _round_scored_event,
    build_deferred,
)
from referee.wire import (
    ANY_TYPE_URL,
    ANY_VALUE,
    BUILT_WRITERS,
    DEFERRED_BUILDS,
    EVENT_DATA,
    EVENT_KIND,
    EVENT_SEQUENCE,
    REQUEST_EVENT,
    SMALL_VARINTS,
    TYPE_URL_PREFIX,
    SeatEvents,
    built_entry,
    key,
    message_field,
    optional_string_field,
    string_field,
    varint,
    varint_field,
)

#: the engine's builders of deferred events whose arguments `_write_built` writes from (final names: compared by identity)
_PLACED_EVENT: Final[object] = _placed_event
_HAND_PASSED_EVENT: Final[object] = _hand_passed_event
_HAND_TILES_EVENT: Final[object] = _hand_tiles_event
_HAND_DRAWN_EVENT: Final[object] = _hand_drawn_event
_EVENT_BUILDER: Final[object] = _event
_ROUND_SCORED_EVENT: Final[object] = _round_scored_event
_CHIPS_REVEALED_EVENT: Final[object] = _chips_revealed_event
#: an Any's type URL field of a Merchants of B99 Event, and its value's key
_URL_VALUE: Final = string_field(ANY_TYPE_URL, TYPE_URL_PREFIX + pb.Event.DESCRIPTOR.full_name) + ANY_VALUE
_UINT32: Final = 1 << 32
_INT32: Final = 1 << 31
#: values of an integer field written from a table (1024: a rotation, a sequence number)
_TABLE_SIZE: Final = 1024


def _int_table(field_key: bytes) -> tuple[bytes, ...]:
    """An integer field of `field_key` holding each value 0.._TABLE_SIZE-1 (nothing for 0: proto3)."""
    return tuple(varint_field(field_key, value) for value in range(_TABLE_SIZE))


#: integer fields 1-5 (every event message's seat, count, round... are among them), their keys and tables
_KEY1: Final = key(1, 0)
_KEY2: Final = key(2, 0)
_KEY3: Final = key(3, 0)
_KEY4: Final = key(4, 0)
_KEY5: Final = key(5, 0)
_INT1: Final = _int_table(_KEY1)
_INT2: Final = _int_table(_KEY2)
_INT3: Final = _int_table(_KEY3)
_INT4: Final = _int_table(_KEY4)
_INT5: Final = _int_table(_KEY5)
#: integer fields 3 and 4 (Placed.row, Placed.col: a shop grows around its first tile) holding -1, -2, ... -64
_NEGATIVE3: Final = tuple(varint_field(_KEY3, -value) for value in range(1, 65))
_NEGATIVE4: Final = tuple(varint_field(_KEY4, -value) for value in range(1, 65))
#: an arena Event's sequence number field, by number (0: none)
_SEQUENCES: Final = tuple(EVENT_SEQUENCE + varint(number) if number else b"" for number in range(4 * _TABLE_SIZE))
#: DecisionRequest field 5's key and length, by length
_EVENT_HEADS: Final = tuple(REQUEST_EVENT + SMALL_VARINTS[size] for size in range(1024))
#: field 3 of HandTiles (optional: written for 0 too), by seat
_FROM_SEATS: Final = tuple(_KEY3 + varint(seat) for seat in range(_TABLE_SIZE))


class _Kind:
    """What every event of one kind written here writes alike: its kind's field and data field's key, and the Event
    message's oneof field key; `tails` keeps the tails of a kind whose data are a few small numbers."""

    __slots__ = ("head", "oneof", "tails", "small_tails", "headers")

    def __init__(self, kind: str, number: int) -> None:
        self.head = string_field(EVENT_KIND, kind) + EVENT_DATA
        self.oneof = key(number, 2)
        self.tails: dict[int, bytes] = {}
        #: the tails of numbers 0-15 (the second and third -1 to 14), by position (b"": not written yet)
        self.small_tails: list[bytes] = [b""] * 4096
        #: size of the data's fields -> the tail's bytes before them (kind, data field, Any, type URL, value length,
        #: oneof key, data length), written once per size
        self.headers: dict[int, bytes] = {}

    def header(self, body: int) -> bytes:
        """The tail's bytes before data fields of `body` bytes."""
        written = self.headers.get(body)
        if written is None:
            body_length = varint(body)
            size = body + len(self.oneof) + len(body_length)
            value_length = varint(size)
            size += len(_URL_VALUE) + len(value_length)
            written = self.head + varint(size) + _URL_VALUE + value_length + self.oneof + body_length
            if len(self.headers) < 4096:
                self.headers[body] = written
        return written


_E_PLACED: Final = _Kind("placed", 3)
_E_HAND_DRAWN: Final = _Kind("hand_drawn", 4)
_E_HAND_PASSED: Final = _Kind("hand_passed", 5)
_E_SOLO_REMOVED: Final = _Kind("solo_removed", 6)
_E_REPUTATION_DRAWN: Final = _Kind("reputation_drawn", 7)
_E_REPUTATION_RETURNED: Final = _Kind("reputation_returned", 8)
_E_ROUND_STARTED: Final = _Kind("round_started", 9)
_E_HAND_TILES: Final = _Kind("hand_tiles", 14)
_E_REPUTATION_CARDS: Final = _Kind("reputation_cards", 15)
_E_RETURNED_CARD: Final = _Kind("returned_card", 16)
_E_INITIAL_TILE: Final = _Kind("initial_tile", 2)
_E_ROUND_SCORED: Final = _Kind("round_scored", 12)
_E_CHIPS_REVEALED: Final = _Kind("chips_revealed", 11)
#: field keys of strings: field 2 (a tile, a card; the elements of a list of tiles or cards), field 1 (SoloRemoved's
#: tiles), field 6 (Placed.mode), field 7 (Placed.discarded, optional: written when "" too)
_STRING1: Final = key(1, 2)
_STRING2: Final = key(2, 2)
_STRING6: Final = key(6, 2)
_STRING7: Final = key(7, 2)
#: text -> its field (a non-repeated string: nothing for ""), or its element (a repeated string), per field key
_TEXTS1: Final[dict[str, bytes]] = {}
_TEXTS2: Final[dict[str, bytes]] = {}
_TEXTS6: Final[dict[str, bytes]] = {}
_ELEMENTS1: Final[dict[str, bytes]] = {}
_ELEMENTS2: Final[dict[str, bytes]] = {}
def _int_field(table: tuple[bytes, ...], field_key: bytes, value: int) -> bytes:
    """A uint32 or int32 field: from `table` where the value is in it, else written (a negative int32 as ten bytes)."""
    if 0 <= value < _TABLE_SIZE:
        return table[value]
    return varint_field(field_key, value)


def _text(texts: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    """A (non-repeated) string field, written once per text (nothing for "": proto3)."""
    written = texts.get(text)
    if written is None:
        if len(texts) >= 4096:
            texts.clear()
        written = texts[text] = string_field(field_key, text)
    return written


def _list_elements(elements: dict[str, bytes], field_key: bytes, texts: object, parts: list[bytes]) -> bool:
    """A repeated string field's elements appended to `parts`; False where `texts` is not a list of strings."""
    if type(texts) is not list:
        return False
    for text in cast(list[Any], texts):
        if type(text) is not str:
            return False
        element = elements.get(text)
        if element is None:
            if len(elements) >= 4096:
                elements.clear()
            element = elements[text] = optional_string_field(field_key, text)
        parts.append(element)
    return True


def _uint(value: object) -> int:
    """`value` as a uint32 field's value, or -1 where it is not one."""
    if type(value) is not int:
        return -1
    number = cast(int, value)
    return number if 0 <= number < _UINT32 else -1


def _int32(value: object) -> int | None:
    """`value` as an int32 field's value, or None where it is not one."""
    if type(value) is not int:
        return None
    number = cast(int, value)
    return number if -_INT32 <= number < _INT32 else None


def _sequence_field(sequence: int) -> bytes:
    """An arena Event's sequence number field (none for 0)."""
    return _SEQUENCES[sequence] if 0 <= sequence < 4 * _TABLE_SIZE else EVENT_SEQUENCE + varint(sequence)


def _event_head(size: int) -> bytes:
    """DecisionRequest field 5's key and length, for a field of `size` bytes."""
    return _EVENT_HEADS[size] if size < 1024 else REQUEST_EVENT + varint(size)


def _written(sequence: int, kind: _Kind, body: list[bytes]) -> tuple[bytes, int]:
    """DecisionRequest's field 5 holding an arena Event of `kind` under `sequence` (none when 0), its data the Event
    message whose oneof field holds the fields `body`; and where its tail (kind and data) starts."""
    size = 0
    for part in body:
        size += len(part)
    header = kind.header(size)
    tail_size = len(header) + size
    sequence_field = _sequence_field(sequence)
    whole = b"".join([_event_head(tail_size + len(sequence_field)), sequence_field, header, *body])
    return whole, len(whole) - tail_size


def _joined(parts: list[bytes], sequence: int, kind: _Kind, body: int) -> tuple[bytes, int]:
    """`_written` for fields already in `parts` from index 3 on (`body` bytes): the field's head, the sequence number's
    field and the tail's header put in its first three places, then all of them joined in one go."""
    header = kind.headers.get(body)
    if header is None:
        header = kind.header(body)
    tail_size = len(header) + body
    sequence_field = _sequence_field(sequence)
    parts[0] = _event_head(tail_size + len(sequence_field))
    parts[1] = sequence_field
    parts[2] = header
    whole = b"".join(parts)
    return whole, len(whole) - tail_size


def _with_sequence(sequence: int, tail: bytes) -> bytes:
    """DecisionRequest's field 5 holding an arena Event under `sequence` (none when 0), from its tail (three short
    pieces built in one go: compiled, a bytes format of bytes is one allocation, no list and no join)."""
    sequence_field = _sequence_field(sequence)
    return b"%b%b%b" % (_event_head(len(sequence_field) + len(tail)), sequence_field, tail)


def _small_tail(kind: _Kind, first: int, second: int, third: int) -> bytes:
    """The tail of an event of `kind` whose data are up to three uint32s below 1024 (fields 1, 2, 3; -1: not there),
    kept by them."""
    small = first < 16 and second < 15 and third < 15
    if small:  # a draft's numbers: read by position (a key above 256 is a new int object, then a dict lookup)
        known = kind.small_tails[first << 8 | (second + 1) << 4 | (third + 1)]
        if known:
            return known
    tail_key = (first + 1) | (second + 1) << 11 | (third + 1) << 22
    found = kind.tails.get(tail_key)
    if found is not None:
        tail = found
    else:
        body = [_INT1[first]]
        if second >= 0:
            body.append(_INT2[second])
        if third >= 0:
            body.append(_INT3[third])
        whole, start = _written(0, kind, body)
        tail = kind.tails[tail_key] = whole[start:]
    if small:
        kind.small_tails[first << 8 | (second + 1) << 4 | (third + 1)] = tail
    return tail


def _placed(data: dict[str, Any], sequence: int) -> tuple[bytes, int]:
    """A Placed event's field (seat, tile, row, col, rotation, mode, discarded), or (b"", -1) where the data are not the
    engine's."""
    seat = data.get("seat")
    tile = data.get("tile")
    row = data.get("row")
    col = data.get("col")
    rotation = data.get("rotation")
    mode = data.get("mode")
    discarded = data.get("discarded")
    if (
        type(seat) is not int or type(tile) is not str or type(row) is not int or type(col) is not int
        or type(rotation) is not int or type(mode) is not str
        or len(data) != (6 if discarded is None else 7) or (discarded is not None and type(discarded) is not str)
    ):
        return b"", -1
    return _placed_fields(
        cast(int, seat), cast(str, tile), cast(int, row), cast(int, col), cast(int, rotation), cast(str, mode),
        cast("str | None", discarded), sequence,
    )


def _placed_fields(
    seat: int, tile: str, row: int, col: int, rotation: int, mode: str, discarded: str | None, sequence: int
) -> tuple[bytes, int]:
    """`_placed` from the placement's values (its data's, or the arguments its Event was built from), or (b"", -1)
    where a number is out of its field's range."""
    if not (0 <= seat < _UINT32 and -_INT32 <= row < _INT32 and -_INT32 <= col < _INT32 and 0 <= rotation < _UINT32):
        return b"", -1
    seat_field = _INT1[seat] if seat < _TABLE_SIZE else varint_field(_KEY1, seat)
    tile_field = _text(_TEXTS2, _STRING2, tile)
    mode_field = _text(_TEXTS6, _STRING6, mode)
    discarded_field = b"" if discarded is None else _discarded_field(discarded)
    if not (-_REACH <= row <= _REACH and -_REACH <= col <= _REACH and rotation < 360 and rotation % 90 == 0):
        row_field = _INT3[row] if 0 <= row < _TABLE_SIZE else _NEGATIVE3[-row - 1] if -64 <= row < 0 else varint_field(_KEY3, row)
        col_field = _INT4[col] if 0 <= col < _TABLE_SIZE else _NEGATIVE4[-col - 1] if -64 <= col < 0 else varint_field(_KEY4, col)
        rotation_field = _INT5[rotation] if rotation < _TABLE_SIZE else varint_field(_KEY5, rotation)
        return _written(sequence, _E_PLACED, [seat_field, tile_field, row_field, col_field, rotation_field, mode_field, discarded_field])
    # a shop's square and a quarter turn: row, col and rotation as one piece; the field built in one go from its eight
    # pieces (compiled, a bytes format of bytes is one allocation: no list, no join)
    place_field = _SQUARE_FIELDS[((row + _REACH) * _SQUARES + col + _REACH) * 4 + rotation // 90]
    body = len(seat_field) + len(tile_field) + len(place_field) + len(mode_field) + len(discarded_field)
    header = _E_PLACED.headers.get(body)
    if header is None:
        header = _E_PLACED.header(body)
    tail_size = len(header) + body
    sequence_field = _sequence_field(sequence)
    whole = b"%b%b%b%b%b%b%b%b" % (
        _event_head(tail_size + len(sequence_field)), sequence_field, header, seat_field, tile_field, place_field,
        mode_field, discarded_field,
    )
    return whole, len(whole) - tail_size


#: Placed.discarded (optional: written for "" too) -> its field
_DISCARDED: Final[dict[str, bytes]] = {}


def _discarded_field(discarded: str) -> bytes:
    """Placed.discarded's field (optional: written for "" too), kept by text."""
    field = _DISCARDED.get(discarded)
    if field is None:
        field = optional_string_field(_STRING7, discarded)
        if len(_DISCARDED) < 4096:
            _DISCARDED[discarded] = field
    return field


#: a shop's squares lie within this many rows and columns of its first tile's (shop.MAX_SIDE - 1)
_REACH: Final = 3
_SQUARES: Final = 2 * _REACH + 1


def _square_field(row: int, col: int, rotation: int) -> bytes:
    """Placed's fields 3-5 (row, col, rotation) of a square within reach."""
    row_field = _INT3[row] if row >= 0 else _NEGATIVE3[-row - 1]
    col_field = _INT4[col] if col >= 0 else _NEGATIVE4[-col - 1]
    return row_field + col_field + _INT5[rotation]


#: Placed's fields 3-5 of a tile at a square within reach, by square * 4 + rotation / 90
_SQUARE_FIELDS: Final = tuple(
    _square_field(row, col, rotation)
    for row in range(-_REACH, _REACH + 1)
    for col in range(-_REACH, _REACH + 1)
    for rotation in (0, 90, 180, 270)
)


#: RoundScored.seats, SeatRound.cards (length-delimited), SeatRound.thumb, thumb_points, round_points, score
_STRING3: Final = key(3, 2)
_THUMB: Final = key(4, 0) + b"\x01"
_KEY6: Final = key(6, 0)
_KEY7: Final = key(7, 0)


def _round_scored_body(data: dict[str, Any]) -> list[bytes] | None:
    """RoundScored's fields (the round, then each seat's SeatRound with its CardScores), or None where the data are
    not the engine's (`_round_scored_event`)."""
    number = _uint(data.get("round"))
    seats = data.get("seats")
    if number < 0 or type(seats) is not list or len(data) != 2:
        return None
    body = [_int_field(_INT1, _KEY1, number)]
    for entry in cast(list[Any], seats):
        if type(entry) is not dict:
            return None
        seat_data = cast(dict[str, Any], entry)
        seat = _uint(seat_data.get("seat"))
        dungeon = seat_data.get("dungeon")
        cards = seat_data.get("cards")
        thumb = seat_data.get("thumb")
        thumb_points = _int32(seat_data.get("thumb_points"))
        round_points = _int32(seat_data.get("round_points"))
        score = _int32(seat_data.get("score"))
        if (
            seat < 0 or type(dungeon) is not str or type(cards) is not list or type(thumb) is not bool
            or thumb_points is None or round_points is None or score is None or len(seat_data) != 7
        ):
            return None
        parts = [_int_field(_INT1, _KEY1, seat), _text(_TEXTS2, _STRING2, cast(str, dungeon))]
        for card_entry in cast(list[Any], cards):
            if type(card_entry) is not dict:
                return None
            card_data = cast(dict[str, Any], card_entry)
            card = card_data.get("card")
            face = card_data.get("face")
            card_kind = card_data.get("kind")
            points = _int32(card_data.get("points"))
            if (
                type(card) is not str or type(face) is not str or points is None
                or len(card_data) != (3 if card_kind is None else 4) or (card_kind is not None and type(card_kind) is not str)
            ):
                return None
            parts.append(_card_score(cast(str, card), cast(str, face), cast("str | None", card_kind), points))
        body.append(_seat_round(parts, cast(bool, thumb), thumb_points, round_points, score))
    return body


def _card_score(card: str, face: str, kind: str | None, points: int) -> bytes:
    """A SeatRound's CardScore field (card, face, the K of a C or D card, points)."""
    card_body = _text(_TEXTS1, _STRING1, card) + _text(_TEXTS2, _STRING2, face)
    if kind is not None:
        card_body += optional_string_field(_STRING3, kind)
    return message_field(_STRING3, card_body + _int_field(_INT4, _KEY4, points))


def _seat_round(parts: list[bytes], thumb: bool, thumb_points: int, round_points: int, score: int) -> bytes:
    """RoundScored's SeatRound field: `parts` (its seat, dungeon and CardScore fields) and its last four fields."""
    if thumb:
        parts.append(_THUMB)
    parts.append(_int_field(_INT5, _KEY5, thumb_points))
    parts.append(varint_field(_KEY6, round_points))
    parts.append(varint_field(_KEY7, score))
    return message_field(_STRING2, b"".join(parts))


def _round_scored_built(number: int, scored: list[Any], sequence: int) -> tuple[bytes, int]:
    """A RoundScored event's field from its builder's arguments (`state._round_scored_event`: the round, and per seat
    its seat, dungeon, (card, face, K) scored, their points, 👍, 👍 points and new score), with no dict read back;
    (b"", -1) where a number is out of its field's range."""
    if not 0 <= number < _UINT32:
        return b"", -1
    body = [_int_field(_INT1, _KEY1, number)]
    for seat_round in scored:
        seat: int = seat_round[0]
        dungeon: str = seat_round[1]
        round_cards: list[tuple[str, str, str | None]] = seat_round[2]
        points: list[int] = seat_round[3]
        thumb: bool = seat_round[4]
        thumb_points: int = seat_round[5]
        score: int = seat_round[6]
        round_points = sum(points) + thumb_points
        if not (
            0 <= seat < _UINT32 and -_INT32 <= thumb_points < _INT32 and -_INT32 <= round_points < _INT32
            and -_INT32 <= score < _INT32
        ):
            return b"", -1
        parts = [_int_field(_INT1, _KEY1, seat), _text(_TEXTS2, _STRING2, dungeon)]
        for (card, face, kind), earned in zip(round_cards, points):
            if not -_INT32 <= earned < _INT32:
                return b"", -1
            parts.append(_card_score(card, face, kind, earned))
        body.append(_seat_round(parts, thumb, thumb_points, round_points, score))
    return _written(sequence, _E_ROUND_SCORED, body)


def _chip_choice(seat: int, dungeon: str) -> bytes:
    """ChipsRevealed's ChipChoice field (a seat and the dungeon it chose)."""
    return message_field(_STRING1, _int_field(_INT1, _KEY1, seat) + _text(_TEXTS2, _STRING2, dungeon))


def _chips_revealed(choices: object) -> list[bytes] | None:
    """ChipsRevealed's fields from its data's choices, or None where they are not the engine's."""
    if type(choices) is not list:
        return None
    body = []
    for choice in cast(list[Any], choices):
        if type(choice) is not dict:
            return None
        choice_data = cast(dict[str, Any], choice)
        seat = _uint(choice_data.get("seat"))
        dungeon = choice_data.get("dungeon")
        if seat < 0 or type(dungeon) is not str or len(choice_data) != 2:
            return None
        body.append(_chip_choice(seat, cast(str, dungeon)))
    return body


def write_event(event: Event, sequence: int) -> tuple[bytes, int]:
    """An event of a kind written here as DecisionRequest's field 5 under `sequence` and where its tail starts, or
    (b"", -1) where it is left to the shared writer. An event the requests have just built from the log's deferred
    entry (`referee.wire.built_entry`: found by the very Event) is written from its builder's arguments, with no read
    of its kind and data (a placement's seven values, a hand passed on's three numbers)."""
    entry = built_entry(event)
    if len(entry):
        written = _write_built(event, entry, sequence)
        if written[1] >= 0:
            return written
    return _write_data(event.kind, event.data, sequence)


def _write_built(event: Event, entry: tuple[Any, ...], sequence: int) -> tuple[bytes, int]:
    """`write_event` for an event built from the deferred entry `(build, arguments...)` (the engine's builders in
    referee/games/merchants/state.py make its data from these arguments alone), or (b"", -1) where the entry is not
    one written here or its numbers are out of range (then the event is written from its data)."""
    build = entry[0]
    count = len(entry)
    if build is _PLACED_EVENT and count == 8:  # (seat, tile, row, col, rotation, mode, discarded)
        return _placed_fields(entry[1], entry[2], entry[3], entry[4], entry[5], entry[6], entry[7], sequence)
    if build is _HAND_PASSED_EVENT and count == 4:  # (from_seat, to_seat, count)
        first: int = entry[1]
        second: int = entry[2]
        third: int = entry[3]
        if 0 <= first < _TABLE_SIZE and 0 <= second < _TABLE_SIZE and 0 <= third < _TABLE_SIZE:
            return _small_written(sequence, _small_tail(_E_HAND_PASSED, first, second, third))
    elif build is _HAND_TILES_EVENT and count == 4:  # (seat, from_seat, tiles): the data hold the tiles sorted
        seat: int = entry[1]
        data = event.data
        if 0 <= seat < _UINT32 and type(data) is dict:
            return _hand_tiles(seat, entry[2], cast(dict[str, Any], data).get("tiles"), sequence)
    elif build is _HAND_DRAWN_EVENT and count == 3:  # (seat, count)
        first = entry[1]
        second = entry[2]
        if 0 <= first < _TABLE_SIZE and 0 <= second < _TABLE_SIZE:
            return _small_written(sequence, _small_tail(_E_HAND_DRAWN, first, second, -1))
    elif build is _EVENT_BUILDER and count >= 3:  # (kind, data, audience): the Event's own kind and data objects
        return _write_data(entry[1], entry[2], sequence)
    elif build is _ROUND_SCORED_EVENT and count == 3:  # (round, each seat's scoring)
        return _round_scored_built(entry[1], entry[2], sequence)
    elif build is _CHIPS_REVEALED_EVENT and count == 2:  # (each seat's dungeon)
        dungeons: tuple[str, ...] = entry[1]
        return _written(sequence, _E_CHIPS_REVEALED, [_chip_choice(seat, dungeon) for seat, dungeon in enumerate(dungeons)])
    return b"", -1


def write_built(shared: SeatEvents, fields: list[bytes]) -> None:
    """The fields of every entry a decision's first read built (`SeatEvents.built`), under its log position, into
    `fields` by entry (`referee.wire.BUILT_WRITERS`: one call a decision where `events_into` made a call per event);
    an event of a kind left to the shared writer keeps b"" (`events_into` has it written as before)."""
    built = shared.built
    events = shared.events
    sequence = shared.start
    for offset in range(len(built)):
        entry = built[offset]
        if len(entry):
            written = _write_built(events[offset], entry, sequence)
            if written[1] >= 0:
                fields[offset] = written[0]
        sequence += 1


BUILT_WRITERS[write_event] = write_built
DEFERRED_BUILDS[MerchantsState] = build_deferred


def _small_written(sequence: int, tail: bytes) -> tuple[bytes, int]:
    """The field of an event whose tail is `tail`, and where that tail starts."""
    whole = _with_sequence(sequence, tail)
    return whole, len(whole) - len(tail)


def _hand_tiles(seat: int, from_seat: object, tiles: object, sequence: int) -> tuple[bytes, int]:
    """A HandTiles event's field (seat, its tiles, and who passed them on where `from_seat` is not None), or
    (b"", -1) where the tiles are not a list of strings or `from_seat` is not a uint32."""
    seat_field = _INT1[seat] if seat < _TABLE_SIZE else varint_field(_KEY1, seat)
    parts = [b"", b"", b"", seat_field]
    if not _list_elements(_ELEMENTS2, _STRING2, tiles, parts):
        return b"", -1
    if from_seat is not None:
        giver = _uint(from_seat)
        if giver < 0:
            return b"", -1
        parts.append(_FROM_SEATS[giver] if giver < _TABLE_SIZE else _KEY3 + varint(giver))
    fields_size = 0
    for part in parts:
        fields_size += len(part)
    return _joined(parts, sequence, _E_HAND_TILES, fields_size)


def _write_data(kind: str, data: object, sequence: int) -> tuple[bytes, int]:
    """`write_event` from an event's kind and data."""
    if type(data) is not dict:
        return b"", -1
    fields = cast(dict[str, Any], data)
    size = len(fields)
    if kind == "placed":
        return _placed(fields, sequence)
    tail = b""
    if kind == "hand_passed":
        first = _uint(fields.get("from_seat"))
        second = _uint(fields.get("to_seat"))
        third = _uint(fields.get("count"))
        if not (0 <= first < _TABLE_SIZE and 0 <= second < _TABLE_SIZE and 0 <= third < _TABLE_SIZE) or size != 3:
            return b"", -1
        tail = _small_tail(_E_HAND_PASSED, first, second, third)
    elif kind == "hand_tiles":
        seat = _uint(fields.get("seat"))
        from_seat = fields.get("from_seat")
        if seat < 0 or size != (2 if from_seat is None else 3):
            return b"", -1
        return _hand_tiles(seat, from_seat, fields.get("tiles"), sequence)
    elif kind == "hand_drawn" or kind == "reputation_drawn":
        first = _uint(fields.get("seat"))
        second = _uint(fields.get("count"))
        if not (0 <= first < _TABLE_SIZE and 0 <= second < _TABLE_SIZE) or size != 2:
            return b"", -1
        tail = _small_tail(_E_HAND_DRAWN if kind == "hand_drawn" else _E_REPUTATION_DRAWN, first, second, -1)
    elif kind == "reputation_returned" or kind == "round_started":
        number = _uint(fields.get("seat" if kind == "reputation_returned" else "round"))
        if not 0 <= number < _TABLE_SIZE or size != 1:
            return b"", -1
        written = _E_REPUTATION_RETURNED if kind == "reputation_returned" else _E_ROUND_STARTED
        tail = _small_tail(written, number, -1, -1)
    elif kind == "returned_card" or kind == "initial_tile":
        # (seat, card) or (seat, tile)
        seat = _uint(fields.get("seat"))
        text = fields.get("card" if kind == "returned_card" else "tile")
        if seat < 0 or type(text) is not str or size != 2:
            return b"", -1
        written = _E_RETURNED_CARD if kind == "returned_card" else _E_INITIAL_TILE
        return _written(sequence, written, [_int_field(_INT1, _KEY1, seat), _text(_TEXTS2, _STRING2, cast(str, text))])
    elif kind == "reputation_cards":
        seat = _uint(fields.get("seat"))
        if seat < 0 or size != 2:
            return b"", -1
        body = [_int_field(_INT1, _KEY1, seat)]
        if not _list_elements(_ELEMENTS2, _STRING2, fields.get("cards"), body):
            return b"", -1
        return _written(sequence, _E_REPUTATION_CARDS, body)
    elif kind == "round_scored":
        scored = _round_scored_body(fields)
        if scored is None:
            return b"", -1
        return _written(sequence, _E_ROUND_SCORED, scored)
    elif kind == "chips_revealed":
        chosen = _chips_revealed(fields.get("choices"))
        if chosen is None or size != 1:
            return b"", -1
        return _written(sequence, _E_CHIPS_REVEALED, chosen)
    elif kind == "solo_removed":
        body = []
        if size != 1 or not _list_elements(_ELEMENTS1, _STRING1, fields.get("tiles"), body):
            return b"", -1
        return _written(sequence, _E_SOLO_REMOVED, body)
    else:
        return b"", -1
    return _small_written(sequence, tail)
