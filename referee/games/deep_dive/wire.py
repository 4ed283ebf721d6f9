"""DEEP DIVE's typed messages on the wire, and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order;
each tile's message is serialized once per tile table. A depth's, a board's and the solo AI's parts are kept as
pieces with copies of what each showed, and only the pieces that changed are written again (docs/decisions.md,
"DEEP DIVE's View written piece by piece"). Tests compare the bytes with the dict views on random games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from b99.games import deep_dive_pb2 as pb

from referee.engine import Seat
from referee.games.deep_dive.data import PENGUINS_PER_PLAYER
from referee.games.deep_dive.scoring import AI_OPEN_WATER_POINTS, AI_ROCK_POINTS
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from referee.games.deep_dive.views import tile_tables
from referee.wire import (
    SMALL_VARINTS,
    GameWire,
    SharedParts,
    add_pieces,
    dict_bytes,
    key,
    message_field,
    optional_string_field,
    packed_field,
    string_field,
    varint,
    varint_field,
)

# View
SEAT: Final = key(1, 0)
PLAYERS: Final = key(2, 0)
SOLO: Final = key(3, 0)
AI_DIFFICULTY: Final = key(4, 2)
ROUND: Final = key(5, 0)
START_PLAYER: Final = key(6, 0)
TOKEN: Final = key(7, 2)
END_TRIGGERED: Final = key(8, 0)
FINAL_ROUND: Final = key(9, 0)
ACTIVE: Final = key(10, 0)
AI_TURN: Final = key(11, 0)
DECISION: Final = key(12, 2)
CURRENT_DEPTH: Final = key(13, 0)
JUST_FLIPPED: Final = key(14, 2)
DEPTHS: Final = key(15, 2)
BOARDS: Final = key(16, 2)
AI_BOARD: Final = key(17, 2)
DISCARDED: Final = key(18, 2)
GAME_OVER: Final = key(19, 0)
# Depth
DEPTH: Final = key(1, 0)
FACE_DOWN: Final = key(2, 0)
REMOVED: Final = key(3, 0)
UNSEEN: Final = key(4, 2)
AVAILABLE: Final = key(5, 2)
INERT: Final = key(6, 2)
INERT_TILE: Final = key(1, 2)
INERT_PENGUIN: Final = key(2, 0)
# Board (AiBoard shares pink..rocks; its position is 1, open water 6, score 7, rows 8)
BOARD_SEAT: Final = key(1, 0)
PINK: Final = key(2, 2)
GREEN: Final = key(3, 2)
YELLOW: Final = key(4, 2)
ROCKS: Final = key(5, 2)
SUPPLY: Final = key(6, 0)
CAPTURED_DEPTHS: Final = key(7, 2)
CAPTURED_TILES: Final = key(8, 2)
SCORE: Final = key(9, 0)
COMPLETE_ROWS: Final = key(10, 0)
AI_POSITION: Final = key(1, 0)
AI_OPEN_WATER: Final = key(6, 2)
AI_SCORE: Final = key(7, 0)
AI_COMPLETE_ROWS: Final = key(8, 0)


class _WireTiles:
    """Per tile index, each field a tile appears in, serialized once per tile table (tiles never change), and the
    parts of views last written from states of this table."""

    __slots__ = (
        "tiles", "data", "pink", "green", "yellow", "rocks", "available", "open_water", "flipped", "inert", "inert_entries",
        "penguin_entries", "unseen", "unseen_width", "captured", "discarded", "depths", "boards", "ai_tableaux", "tables",
        "turns", "discards", "values", "depth_of", "penguins", "last_depths", "last_boards", "last_table", "last_ai", "last_ai_tiles",
        "last_discarded",
    )

    def __init__(
        self, tiles: Sequence[object], data: object, wire: Sequence[dict[str, object]], ids: Sequence[str],
        values: Sequence[int], depths: Sequence[int],
    ) -> None:
        self.tiles = tiles
        #: the component data the tiles belong to (a state's `data`: found by identity before any lookup)
        self.data = data
        #: each tile's food value and depth
        self.values: tuple[int, ...] = tuple(values)
        self.depth_of: tuple[int, ...] = tuple(depths)
        framed = [_framed(_tile_bytes(message)) for message in wire]
        names = [_framed(text.encode()) for text in ids]
        self.pink, self.green, self.yellow, self.rocks, self.available, self.open_water, self.flipped, self.inert = (
            tuple(field_key + body for body in framed)
            for field_key in (PINK, GREEN, YELLOW, ROCKS, AVAILABLE, AI_OPEN_WATER, JUST_FLIPPED, INERT_TILE)
        )
        #: an inert tile without a penguin on it, as a whole Depth.inert entry
        self.inert_entries = tuple(message_field(INERT, entry) for entry in self.inert)
        #: an inert tile with a penguin on it, as a whole Depth.inert entry, by tile index * PENGUIN_SEATS + seat
        self.penguin_entries: dict[int, bytes] = {}
        self.unseen = tuple(UNSEEN + name for name in names)
        #: every unseen element's length where all are alike and tile indices fit a byte, else 0 (`_unseen_part`)
        self.unseen_width = len(self.unseen[0]) if 0 < len(self.unseen) <= 256 and len(set(map(len, self.unseen))) == 1 else 0
        self.captured = tuple(CAPTURED_TILES + name for name in names)
        self.discarded = tuple(DISCARDED + name for name in names)
        #: depths, boards and discarded rocks already written, by the engine's token of each
        self.depths: dict[object, bytes] = {}
        self.boards: dict[object, bytes] = {}
        #: the solo AI's board but its position (View.AiBoard fields 2-8), by the AI's token and difficulty
        self.ai_tableaux: dict[tuple[object, object], bytes] = {}
        self.discards: dict[object, bytes] = {}
        #: the table's scalars (View fields 2-9) and the turn's (10-14) already written, by what they show
        self.tables: dict[tuple[object, ...], bytes] = {}
        self.turns: dict[tuple[object, ...], bytes] = {}
        #: a copy of the penguins on tiles (tile -> seat) the inert parts last written were written with
        self.penguins: dict[int, int] = {}
        #: per depth and per seat, the part last written with its pieces and what each was written from (a state's
        #: next view finds its part there by the token alone, or writes only the pieces that changed)
        self.last_depths: list[_DepthPieces] = [_NO_DEPTH] * 5
        self.last_boards: list[_BoardPieces] = [_NO_BOARD] * PENGUIN_SEATS
        #: the table's part, the AI's board and the discarded rocks last written, with what they show
        self.last_table = _NO_HEAD
        self.last_ai = _NO_AI
        #: the AI's columns, rocks and open water as last written (`_tiles_piece`)
        self.last_ai_tiles = (_NO_TILES, _NO_TILES, _NO_TILES, _NO_TILES, _NO_TILES)
        self.last_discarded = _NO_DISCARDED


class _DepthPieces:
    """A depth's View.Depth field as last written (`block`, for the depth's `token`), and its pieces with the
    state's values each was written from: the depth's counts, its unseen tiles, the tiles available there and
    the inert ones. Never changed once made (another thread may read it), replaced whole."""

    __slots__ = (
        "token", "block", "face_down", "removed", "counts", "unseen", "unseen_part", "available", "available_part",
        "inert", "penguins", "inert_part",
    )

    def __init__(
        self, token: object, block: bytes, face_down: int, removed: int, counts: bytes, unseen: list[int],
        unseen_part: bytes, available: list[int], available_part: bytes, inert: list[int], penguins: dict[int, int],
        inert_part: bytes,
    ) -> None:
        self.token = token
        self.block = block
        self.face_down = face_down
        self.removed = removed
        self.counts = counts
        #: copies of the state's lists (the state changes its own in place)
        self.unseen = unseen
        self.unseen_part = unseen_part
        self.available = available
        self.available_part = available_part
        self.inert = inert
        #: the copy of the state's penguins on tiles (`_penguins`) the inert part was written with
        self.penguins = penguins
        self.inert_part = inert_part


class _TilesPiece:
    """A list of tiles as last written in one field (`part`), with a copy of the list."""

    __slots__ = ("tiles", "part")

    def __init__(self, tiles: list[int], part: bytes) -> None:
        self.tiles = tiles
        self.part = part


def _tiles_piece(written: tuple[bytes, ...], now: list[int], kept: _TilesPiece) -> _TilesPiece:
    """The tiles `now` as repeated fields (`written`: each tile's field), found as the `kept` piece if the list is
    unchanged, that piece and one more field if a tile was appended, else written in full."""
    count = len(now)
    kept_tiles = kept.tiles
    if count == len(kept_tiles) and now == kept_tiles:
        return kept
    if count == len(kept_tiles) + 1 and now[:-1] == kept_tiles:
        return _TilesPiece(list(now), kept.part + written[now[-1]])
    return _TilesPiece(list(now), b"".join([written[t] for t in now]))


_NO_TILES: Final = _TilesPiece([], b"")


class _BoardPieces:
    """A seat's View.Board field as last written (`block`, for the board's `token`), and its pieces with what each
    was written from: the columns and rocks with the score, and the supply with the captured penguins."""

    __slots__ = ("token", "block", "pink", "green", "yellow", "rocks", "tiles_part", "score_part", "captured", "captured_part")

    def __init__(
        self, token: object, block: bytes, pink: _TilesPiece, green: _TilesPiece, yellow: _TilesPiece, rocks: _TilesPiece,
        tiles_part: bytes, score_part: bytes, captured: list[int], captured_part: bytes,
    ) -> None:
        self.token = token
        self.block = block
        #: each column's and the rocks' fields, with a copy of the list
        self.pink = pink
        self.green = green
        self.yellow = yellow
        self.rocks = rocks
        #: the columns and rocks (Board fields 2-5), and the score and complete rows they make (fields 9, 10)
        self.tiles_part = tiles_part
        self.score_part = score_part
        self.captured = captured
        #: the supply and the captured penguins (Board fields 6-8)
        self.captured_part = captured_part


class _Head:
    """A part of the View's head as last written, with the values it shows (compared by identity: equal values that
    are other objects only send the writer to its dict)."""

    __slots__ = ("values", "part")

    def __init__(self, values: tuple[object, ...], part: bytes) -> None:
        self.values = values
        self.part = part


class _AiField:
    """The solo AI's board field as last written, with the token, difficulty and position it shows."""

    __slots__ = ("token", "difficulty", "position", "field", "tableau")

    def __init__(self, token: object, difficulty: object, position: object, field: bytes, tableau: bytes) -> None:
        self.token = token
        self.difficulty = difficulty
        self.position = position
        self.field = field
        #: the field's tableau (AiBoard fields 2-8), for the token and difficulty
        self.tableau = tableau


class _Discarded:
    """The discarded rocks' part as last written, with its token."""

    __slots__ = ("token", "part")

    def __init__(self, token: object, part: bytes) -> None:
        self.token = token
        self.part = part


#: seats whose board pieces are kept by seat (every player count this game has), and penguins' seats written once
PENGUIN_SEATS: Final = 8
_NOTHING: Final = object()
_NO_DEPTH: Final = _DepthPieces(_NOTHING, b"", -1, -1, b"", [], b"", [], b"", [], {}, b"")
#: what each seat's and depth's first part is compared with: no tiles (written as the empty lists are), counts never seen
_NO_BOARD: Final = _BoardPieces(
    _NOTHING, b"", _NO_TILES, _NO_TILES, _NO_TILES, _NO_TILES, b"", b"", [], varint_field(SUPPLY, PENGUINS_PER_PLAYER)
)
_NO_HEAD: Final = _Head((), b"")
_NO_AI: Final = _AiField(_NOTHING, _NOTHING, _NOTHING, b"", b"")
_NO_DISCARDED: Final = _Discarded(_NOTHING, b"")


def _tile_bytes(message: dict[str, object]) -> bytes:
    """A tile's serialized Tile message: written by the wire's dict writer (protobuf's constructor and serializer cost
    some twenty thousand instructions a tile, at the first view of a process), by protobuf where that one does not."""
    written = dict_bytes(pb.Tile.DESCRIPTOR, message)
    return pb.Tile(**message).SerializeToString() if written is None else written


def _framed(body: bytes) -> bytes:
    return varint(len(body)) + body


#: turn parts of the head kept (seat, phase, depth and flipped tile: a few thousand in all)
TURNS_KEPT: Final = 4096
#: other parts kept by token or by what they show before that memory is emptied
PARTS_KEPT: Final = 512
_WIRE_TILES: Final[dict[int, _WireTiles]] = {}


#: the tile table last written from (one game's components: checked by identity before any lookup)
_LAST: Final[list[_WireTiles | None]] = [None]


def _wire_tiles(state: DeepDiveState, data: Any) -> _WireTiles:  # noqa: ANN401 - the state's DeepDiveData, from its __dict__
    """The tile table's written fields and parts for `state`, whose component data is `data`."""
    last = _LAST[0]  # read once (another thread may replace it)
    if last is not None and last.data is data:
        return last
    tiles = data.tiles
    known = _WIRE_TILES.get(id(tiles))
    if known is None or known.tiles is not tiles:
        tables = tile_tables(state)
        known = _WIRE_TILES[id(tiles)] = _WireTiles(tiles, data, tables.wire, tables.ids, tables.values, tables.depths)
    elif known.data is not data:
        known.data = data  # the same tiles in another data object (never in play: the data is loaded once)
    _LAST[0] = known
    return known


def _keep(memory: dict[Any, bytes], block_key: object, block: bytes, limit: int) -> bytes:
    """Remember `block` under `block_key` in `memory`, emptied when it holds `limit` parts."""
    if len(memory) >= limit:
        memory.clear()
    memory[block_key] = block
    return block


def _same(kept: list[int], now: list[int]) -> bool:
    """Whether a kept copy of a list still equals the state's list."""
    return len(kept) == len(now) and kept == now


def _board(tiles: _WireTiles, player: int, token: object, fields: dict[str, Any]) -> bytes:
    """Seat `player`'s board as View field 16: its pieces written again only where they changed since the board
    this seat last had written (the state's lists compared with copies of them)."""
    columns: list[list[int]] = fields["columns"][player]
    pink, green, yellow = columns[0], columns[1], columns[2]
    rocks: list[int] = fields["rocks"][player]
    captured: list[int] = fields["captured"][player]
    last = tiles.last_boards[player] if player < PENGUIN_SEATS else _NO_BOARD
    pinks = _tiles_piece(tiles.pink, pink, last.pink)
    greens = _tiles_piece(tiles.green, green, last.green)
    yellows = _tiles_piece(tiles.yellow, yellow, last.yellow)
    rock_fields = _tiles_piece(tiles.rocks, rocks, last.rocks)
    if pinks is last.pink and greens is last.green and yellows is last.yellow and rock_fields is last.rocks:
        tiles_part, score_part = last.tiles_part, last.score_part
    else:
        tiles_part = b"".join([pinks.part, greens.part, yellows.part, rock_fields.part])
        score, rows = _row_score(tiles.values, pinks.tiles, greens.tiles, yellows.tiles)
        score_part = varint_field(SCORE, score) + varint_field(COMPLETE_ROWS, rows)
    if _same(last.captured, captured):
        captured, captured_part = last.captured, last.captured_part
    else:
        captured = list(captured)
        captured_part = _board_captured(tiles, captured)
    seat_part = BOARD_SEATS[player] if player < len(BOARD_SEATS) else varint_field(BOARD_SEAT, player)
    size = len(seat_part) + len(tiles_part) + len(captured_part) + len(score_part)
    head = BOARD_HEADS[size] if size < len(BOARD_HEADS) else BOARDS + varint(size)
    block = b"".join([head, seat_part, tiles_part, captured_part, score_part])
    if player < PENGUIN_SEATS:
        tiles.last_boards[player] = _BoardPieces(
            token, block, pinks, greens, yellows, rock_fields, tiles_part, score_part, captured, captured_part
        )
    return block


def _board_captured(tiles: _WireTiles, captured: list[int]) -> bytes:
    """A board's supply and captured penguins (Board fields 6-8)."""
    # The supply as DeepDiveState.supply counts it: every penguin not captured (a test compares the two).
    parts = [varint_field(SUPPLY, PENGUINS_PER_PLAYER - len(captured))]
    if captured:
        parts.append(packed_field(CAPTURED_DEPTHS, [tiles.depth_of[t] for t in captured]))
        captured_fields = tiles.captured
        for t in captured:
            parts.append(captured_fields[t])
    return b"".join(parts)


def _row_score(values: tuple[int, ...], pink: list[int], green: list[int], yellow: list[int]) -> tuple[int, int]:
    """(scoring.row_score, scoring.complete_rows) of three food columns given as tile indices: the same sums, in
    compiled loops (the rules' own functions are interpreted Python; a test compares the two)."""
    pinks, greens, yellows = len(pink), len(green), len(yellow)
    complete = pinks if pinks < greens else greens
    complete = complete if complete < yellows else yellows
    longest = pinks if pinks > greens else greens
    longest = longest if longest > yellows else yellows
    total = 0
    for row in range(longest):
        row_sum = 0
        if row < pinks:
            row_sum += values[pink[row]]
        if row < greens:
            row_sum += values[green[row]]
        if row < yellows:
            row_sum += values[yellow[row]]
        total += row_sum if row < complete else row_sum // 2
    return total, complete


def _ai_score(values: tuple[int, ...], columns: list[list[int]], rocks: int, open_water: int, difficulty: str) -> tuple[int, int]:
    """(scoring.ai_score, complete rows) of the solo AI's columns (tile indices), compiled as `_row_score` (a test
    compares it with the rules' own function)."""
    food, rows = _row_score(values, columns[0], columns[1], columns[2])
    if difficulty == "hard":
        food = 0
        for column in columns:
            for t in column:
                food += values[t]
    return food + rocks * AI_ROCK_POINTS[difficulty] + open_water * AI_OPEN_WATER_POINTS[difficulty], rows


def _ai_board(tiles: _WireTiles, fields: dict[str, Any]) -> bytes:
    """The solo AI's tableau and position as View field 17: all but the position kept by the AI's token (its
    track position moves at every AI turn, its tiles and score only when it takes one); a new tableau from the
    pieces of the last one written, each of its lists written again only where it changed."""
    token, difficulty, position = fields["ai_token"], fields["difficulty"], fields["ai_position"]
    last = tiles.last_ai
    if last.token is token and last.difficulty is difficulty and last.position is position:
        return last.field
    if last.token is token and last.difficulty is difficulty:
        tableau: bytes | None = last.tableau  # the AI moved on its track only
    else:
        tableau = tiles.ai_tableaux.get((token, difficulty))
    if tableau is None:
        columns: list[list[int]] = fields["ai_columns"]
        ai_rocks: list[int] = fields["ai_rocks"]
        ai_open_water: list[int] = fields["ai_open_water"]
        kept = tiles.last_ai_tiles
        pink = _tiles_piece(tiles.pink, columns[0], kept[0])
        green = _tiles_piece(tiles.green, columns[1], kept[1])
        yellow = _tiles_piece(tiles.yellow, columns[2], kept[2])
        rocks = _tiles_piece(tiles.rocks, ai_rocks, kept[3])
        water = _tiles_piece(tiles.open_water, ai_open_water, kept[4])
        tiles.last_ai_tiles = (pink, green, yellow, rocks, water)
        score, rows = _ai_score(tiles.values, columns, len(ai_rocks), len(ai_open_water), difficulty)
        parts = [pink.part, green.part, yellow.part, rocks.part, water.part]
        parts.append(varint_field(AI_SCORE, score))
        parts.append(varint_field(AI_COMPLETE_ROWS, rows))
        tableau = _keep(tiles.ai_tableaux, (token, difficulty), b"".join(parts), PARTS_KEPT)
    position_field = AI_POSITIONS[position] if 0 <= position < len(AI_POSITIONS) else varint_field(AI_POSITION, position)
    size = len(position_field) + len(tableau)
    ai_field = b"".join([AI_BOARD, SMALL_VARINTS[size] if size < 1024 else varint(size), position_field, tableau])
    tiles.last_ai = _AiField(token, difficulty, position, ai_field, tableau)
    return ai_field




def view_bytes(state: DeepDiveState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat,
    then what every seat sees (`view_parts`, joined)."""
    parts: list[bytes] = []
    view_parts(state, seat, shared, parts)
    return b"".join(parts)


def view_parts(state: DeepDiveState, seat: Seat, shared: SharedParts | None, parts: list[bytes]) -> int:
    """`view_bytes` as pieces appended to `parts` (for the request to join them with its own fields in one go: the
    view is never joined on its own), and their size: the viewer's seat, then the parts every seat sees (`_public`).
    One seat decides at a time in this game, so a decision's requests have nothing to share (`shared` is not used:
    keeping the pieces for another seat cost more than it ever saved)."""
    seat_field = SEAT_FIELDS[seat] if 0 <= seat < len(SEAT_FIELDS) else SEAT + varint(seat)
    return add_pieces(parts, seat_field, _public(state))


def _depth_block(tiles: _WireTiles, index: int, token: object, fields: dict[str, Any]) -> bytes:
    """Depth `index + 1` as View field 15: its pieces written again only where they changed since this depth was
    last written (the state's values compared with those each piece was written from)."""
    face_downs: list[int] = fields["face_down"]
    unseens: list[list[int]] = fields["unseen"]
    availables: list[list[int]] = fields["available"]
    inerts: list[list[int]] = fields["inert"]
    face_down = face_downs[index]
    removed: int = fields["removed_per_depth"]
    unseen = unseens[index]
    available = availables[index]
    inert = inerts[index]
    penguin_on: dict[int, int] = fields["penguin_on"]
    last = tiles.last_depths[index]
    if face_down == last.face_down and removed == last.removed:
        counts = last.counts
    else:
        counts = (
            DEPTH_NUMBERS[index]
            + (FACE_DOWN_FIELDS[face_down] if 0 <= face_down < len(FACE_DOWN_FIELDS) else varint_field(FACE_DOWN, face_down))
            + (REMOVED_FIELDS[removed] if 0 <= removed < len(REMOVED_FIELDS) else varint_field(REMOVED, removed))
        )
    if _same(last.unseen, unseen):
        unseen, unseen_part = last.unseen, last.unseen_part
    else:
        unseen_part = _unseen_part(tiles, unseen, last.unseen, last.unseen_part)
        unseen = list(unseen)
    if _same(last.available, available):
        available, available_part = last.available, last.available_part
    else:
        available_fields = tiles.available
        available_part = b"".join([available_fields[t] for t in available])
        available = list(available)
    kept_inert = last.inert
    if not inert:
        # no inert tile: nothing to write, whatever the penguins (the next part compares its own)
        inert, inert_part, penguins = _NO_DEPTH.inert, b"", last.penguins
    else:
        penguins = _penguins(tiles, penguin_on)
        if last.penguins is penguins and len(inert) == len(kept_inert) + 1 and inert[:-1] == kept_inert:
            # a tile flipped here turned inert: the kept part and that tile's entry
            inert_part = last.inert_part + _inert_part(tiles, inert[-1:], penguins)
            inert = list(inert)
        elif last.penguins is penguins and _same(kept_inert, inert):
            inert, inert_part = kept_inert, last.inert_part
        else:
            inert_part = _inert_part(tiles, inert, penguins)
            inert = list(inert)
    size = len(counts) + len(unseen_part) + len(available_part) + len(inert_part)
    head = DEPTH_HEADS[size] if size < len(DEPTH_HEADS) else DEPTHS + varint(size)
    block = b"".join([head, counts, unseen_part, available_part, inert_part])
    tiles.last_depths[index] = _DepthPieces(
        token, block, face_down, removed, counts, unseen, unseen_part, available, available_part, inert, penguins, inert_part
    )
    return block


def _penguins(tiles: _WireTiles, penguin_on: dict[int, int]) -> dict[int, int]:
    """A copy of the state's penguins on tiles: the one last made while it is equal (an inert part written with a
    copy is found again by the copy's identity), else a new one."""
    kept = tiles.penguins
    if len(kept) == len(penguin_on) and kept == penguin_on:
        return kept
    kept = tiles.penguins = dict(penguin_on)
    return kept


def _inert_part(tiles: _WireTiles, inert: list[int], penguins: dict[int, int]) -> bytes:
    """A depth's inert tiles (View.Depth field 6, every entry)."""
    inert_entries = tiles.inert_entries
    if not penguins:
        return b"".join([inert_entries[t] for t in inert])
    parts = []
    for t in inert:
        penguin = penguins.get(t)
        parts.append(inert_entries[t] if penguin is None else _penguin_entry(tiles, t, penguin))
    return b"".join(parts)


def _penguin_entry(tiles: _WireTiles, tile: int, penguin: int) -> bytes:
    """An inert tile with seat `penguin`'s penguin on it, as a whole Depth.inert entry (written once per pair)."""
    if not 0 <= penguin < PENGUIN_SEATS:
        return message_field(INERT, tiles.inert[tile] + INERT_PENGUIN + varint(penguin))
    entry_key = tile * PENGUIN_SEATS + penguin
    entry = tiles.penguin_entries.get(entry_key)
    if entry is None:
        entry = tiles.penguin_entries[entry_key] = message_field(INERT, tiles.inert[tile] + INERT_PENGUIN + varint(penguin))
    return entry


def _unseen_part(tiles: _WireTiles, unseen: list[Any], last: list[Any], last_part: bytes) -> bytes:
    """A depth's unseen tiles (View.Depth field 4, every element): a flip takes one tile out of the list, so the
    part last written for this depth (`last_part`, of the tiles `last`) is cut where that tile was instead of
    written again (every element has the same width: checked when the tile table is built); any other change
    is written in full."""
    count = len(unseen)
    width = tiles.unseen_width
    if width and count == len(last) - 1:
        cut = 0
        # Tile indices compared by identity (small ints are shared objects; compiled, no unboxing): an index that
        # is another object of the same value only sends the part to be written in full.
        while cut < count and unseen[cut] is last[cut]:
            cut += 1
        rest = cut
        while rest < count and unseen[rest] is last[rest + 1]:
            rest += 1
        if rest == count:
            return last_part[:cut * width] + last_part[(cut + 1) * width:]
    unseen_fields = tiles.unseen
    return b"".join([unseen_fields[t] for t in unseen])


def _table(
    players: int,
    solo: bool,
    difficulty: str | None,
    round_number: int,
    start_player: int | None,
    last_dive: bool,
    end_triggered: bool,
    final_round: bool,
) -> bytes:
    """View fields 2-9: the table's scalars."""
    parts = [varint_field(PLAYERS, players), varint_field(SOLO, solo)]
    if solo:
        parts.append(optional_string_field(AI_DIFFICULTY, difficulty))
    parts.append(varint_field(ROUND, round_number))
    if start_player is not None:
        parts.append(START_PLAYER + varint(start_player))
    parts += [
        TOKEN_LAST_DIVE if last_dive else TOKEN_START_PLAYER,
        varint_field(END_TRIGGERED, end_triggered),
        varint_field(FINAL_ROUND, final_round),
    ]
    return b"".join(parts)


def _turn(tiles: _WireTiles, active: int | None, phase: str, depth: int, flipped: int | None) -> bytes:
    """View fields 10-14: whose turn, the decision, the current depth and the tile just flipped."""
    parts = []
    if active is not None and active != AI:
        parts.append(ACTIVE + varint(active))
    parts += [varint_field(AI_TURN, active == AI), string_field(DECISION, phase)]
    if depth:
        parts.append(CURRENT_DEPTH + varint(depth))
    if flipped is not None:
        parts.append(tiles.flipped[flipped])
    return b"".join(parts)


def _table_part(tiles: _WireTiles, fields: dict[str, Any]) -> bytes:
    """View fields 2-9, found by identity with the values last written, else by their values."""
    config, difficulty, round_number, start_player = fields["config"], fields["difficulty"], fields["round"], fields["start_player"]
    last_dive, end_triggered, final_round = fields["last_dive"], fields["end_triggered"], fields["final_round"]
    last = tiles.last_table
    values = last.values
    if (
        values
        and values[0] is config
        and values[1] is difficulty
        and values[2] is round_number
        and values[3] is start_player
        and values[4] is last_dive
        and values[5] is end_triggered
        and values[6] is final_round
    ):
        return last.part
    solo = fields["solo"]
    table_key = (
        config.players, solo, difficulty if solo else None, round_number, start_player, last_dive, end_triggered, final_round,
    )
    table = tiles.tables.get(table_key)
    if table is None:
        table = _keep(tiles.tables, table_key, _table(*table_key), PARTS_KEPT)
    tiles.last_table = _Head((config, difficulty, round_number, start_player, last_dive, end_triggered, final_round), table)
    return table


def _turn_part(tiles: _WireTiles, fields: dict[str, Any]) -> bytes:
    """View fields 10-14, found by the values they show (they change at nearly every decision)."""
    active, phase, depth, flipped = fields["active"], fields["phase"], fields["depth"], fields["flipped"]
    turn_key = (active, phase, depth, flipped)
    turn = tiles.turns.get(turn_key)
    if turn is None:
        turn = _keep(tiles.turns, turn_key, _turn(tiles, active, phase, depth, flipped), TURNS_KEPT)
    return turn


def _public(state: DeepDiveState) -> list[bytes]:
    """Every View field but the viewer's seat (field 1), as parts (they follow the seat's field): nothing in this
    game's view is secret."""
    # The state's attributes read from its __dict__: compiled, reading an attribute of an interpreted object goes
    # through its type's attribute lookup first (some 300 instructions), a dict lookup of a constant name costs a
    # third of that, and a view reads some twenty.
    fields: dict[str, Any] = state.__dict__
    tiles = _wire_tiles(state, fields["data"])
    parts = [_table_part(tiles, fields), _turn_part(tiles, fields)]
    # Each part found by the token the engine replaces wherever that part changes (DeepDiveState.depth_tokens...):
    # first the part last written for that depth or seat, then any part kept by its token.
    last_depths = tiles.last_depths
    index = 0
    depth_tokens: list[object] = fields["depth_tokens"]
    for token in depth_tokens:
        last_depth = last_depths[index]
        if last_depth.token is token:
            parts.append(last_depth.block)
        else:
            block = tiles.depths.get(token)
            if block is None:
                block = _keep(tiles.depths, token, _depth_block(tiles, index, token, fields), PARTS_KEPT)
            parts.append(block)
        index += 1
    last_boards = tiles.last_boards
    player = 0
    board_tokens: list[object] = fields["board_tokens"]
    for token in board_tokens:
        last_board = last_boards[player] if player < PENGUIN_SEATS else _NO_BOARD
        if last_board.token is token:
            parts.append(last_board.block)
        else:
            block = tiles.boards.get(token)
            if block is None:
                block = _keep(tiles.boards, token, _board(tiles, player, token, fields), PARTS_KEPT)
            parts.append(block)
        player += 1
    if fields["solo"]:
        parts.append(_ai_board(tiles, fields))
    discarded_token = fields["discarded_token"]
    last_discarded = tiles.last_discarded
    if last_discarded.token is discarded_token:
        parts.append(last_discarded.part)
    else:
        discarded = tiles.discards.get(discarded_token)
        if discarded is None:
            discarded_fields = tiles.discarded
            rocks: list[int] = fields["discarded"]
            discarded = _keep(tiles.discards, discarded_token, b"".join([discarded_fields[t] for t in rocks]), PARTS_KEPT)
        tiles.last_discarded = _Discarded(discarded_token, discarded)
        parts.append(discarded)
    parts.append(GAME_OVER_FIELDS[fields["phase"] == OVER])
    return parts


TOKEN_LAST_DIVE: Final = string_field(TOKEN, "last_dive")
TOKEN_START_PLAYER: Final = string_field(TOKEN, "start_player")
GAME_OVER_FIELDS: Final = (varint_field(GAME_OVER, False), varint_field(GAME_OVER, True))
DEPTH_NUMBERS: Final = tuple(DEPTH + varint(index + 1) for index in range(5))
BOARD_SEATS: Final = tuple(varint_field(BOARD_SEAT, player) for player in range(8))
FACE_DOWN_FIELDS: Final = tuple(varint_field(FACE_DOWN, count) for count in range(64))
REMOVED_FIELDS: Final = tuple(varint_field(REMOVED, count) for count in range(64))
AI_POSITIONS: Final = tuple(varint_field(AI_POSITION, position) for position in range(8))
SEAT_FIELDS: Final = tuple(SEAT + varint(seat) for seat in range(8))
#: a depth's and a board's field key and length, by the length
DEPTH_HEADS: Final = tuple(DEPTHS + varint(size) for size in range(1024))
BOARD_HEADS: Final = tuple(BOARDS + varint(size) for size in range(1024))


def decision_of(state: DeepDiveState, seat: Seat) -> str:
    """The decision of a seat offered options: the phase (the engine's `decision_name` for a deciding seat,
    without its interpreted call and its deciding-seats tuple)."""
    return state.phase


WIRE = GameWire(
    view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes, decision_of=decision_of, view_parts=view_parts
)
