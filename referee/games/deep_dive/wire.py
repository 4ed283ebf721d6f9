"""DEEP DIVE's typed messages on the wire, and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order;
each tile's message is serialized once per tile table. Tests compare the two on random games.
"""

from __future__ import annotations

from collections.abc import Sequence

from b99.games import deep_dive_pb2 as pb

from referee.engine import Seat
from referee.games.deep_dive.scoring import complete_rows, row_score
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from referee.games.deep_dive.views import tile_tables
from referee.wire import (
    Blocks,
    GameWire,
    SharedParts,
    key,
    message_field,
    optional_string_field,
    packed_field,
    shared_part,
    string_field,
    varint,
    varint_field,
)

# View
SEAT, PLAYERS, SOLO, AI_DIFFICULTY, ROUND, START_PLAYER, TOKEN, END_TRIGGERED, FINAL_ROUND = (
    key(1, 0), key(2, 0), key(3, 0), key(4, 2), key(5, 0), key(6, 0), key(7, 2), key(8, 0), key(9, 0),
)
ACTIVE, AI_TURN, DECISION, CURRENT_DEPTH, JUST_FLIPPED, DEPTHS, BOARDS, AI_BOARD, DISCARDED, GAME_OVER = (
    key(10, 0), key(11, 0), key(12, 2), key(13, 0), key(14, 2), key(15, 2), key(16, 2), key(17, 2), key(18, 2), key(19, 0),
)
# Depth
DEPTH, FACE_DOWN, REMOVED, UNSEEN, AVAILABLE, INERT = key(1, 0), key(2, 0), key(3, 0), key(4, 2), key(5, 2), key(6, 2)
INERT_TILE, INERT_PENGUIN = key(1, 2), key(2, 0)
# Board (AiBoard shares pink..rocks; its position is 1, open water 6, score 7, rows 8)
BOARD_SEAT, PINK, GREEN, YELLOW, ROCKS, SUPPLY, CAPTURED_DEPTHS, CAPTURED_TILES, SCORE, COMPLETE_ROWS = (
    key(1, 0), key(2, 2), key(3, 2), key(4, 2), key(5, 2), key(6, 0), key(7, 2), key(8, 2), key(9, 0), key(10, 0),
)
AI_POSITION, AI_OPEN_WATER, AI_SCORE, AI_COMPLETE_ROWS = key(1, 0), key(6, 2), key(7, 0), key(8, 0)


class _WireTiles:
    """Per tile index, each field a tile appears in, serialized once per tile table (tiles never change)."""

    __slots__ = (
        "tiles", "pink", "green", "yellow", "rocks", "available", "open_water", "flipped", "inert", "inert_entries", "unseen",
        "captured", "discarded", "depths", "boards", "tables", "turns", "discards", "values", "depth_of", "depth_counts",
    )

    def __init__(
        self, tiles: Sequence[object], wire: Sequence[dict[str, object]], ids: Sequence[str], values: Sequence[int],
        depths: Sequence[int],
    ) -> None:
        self.tiles = tiles
        #: each tile's food value and depth
        self.values = values
        self.depth_of = depths
        #: a depth's number, face-down and removed counts (View.Depth fields 1-3), by their values
        self.depth_counts: dict[tuple[int, int, int], bytes] = {}
        framed = [_framed(pb.Tile(**message).SerializeToString()) for message in wire]
        names = [_framed(text.encode()) for text in ids]
        self.pink, self.green, self.yellow, self.rocks, self.available, self.open_water, self.flipped, self.inert = (
            tuple(field_key + body for body in framed)
            for field_key in (PINK, GREEN, YELLOW, ROCKS, AVAILABLE, AI_OPEN_WATER, JUST_FLIPPED, INERT_TILE)
        )
        #: an inert tile without a penguin on it, as a whole Depth.inert entry
        self.inert_entries = tuple(message_field(INERT, entry) for entry in self.inert)
        self.unseen = tuple(UNSEEN + name for name in names)
        self.captured = tuple(CAPTURED_TILES + name for name in names)
        self.discarded = tuple(DISCARDED + name for name in names)
        #: depths, boards and discarded rocks already written, by the engine's token of each
        self.depths = Blocks()
        self.boards = Blocks()
        self.discards = Blocks()
        #: the table's scalars (View fields 2-9) and the turn's (10-14) already written, by what they show
        self.tables = Blocks()
        self.turns = Blocks(TURNS_KEPT)


def _framed(body: bytes) -> bytes:
    return varint(len(body)) + body


#: turn parts of the head kept (seat, phase, depth and flipped tile: a few thousand in all)
TURNS_KEPT = 4096
_WIRE_TILES: dict[int, _WireTiles] = {}


#: the tile table last written from (one game's components: checked by identity before any lookup)
_LAST: list[_WireTiles] = []


def _wire_tiles(state: DeepDiveState) -> _WireTiles:
    tiles = state.data.tiles
    for last in _LAST:  # one entry, read once (another thread may replace it)
        if last.tiles is tiles:
            return last
    known = _WIRE_TILES.get(id(tiles))
    if known is None or known.tiles is not tiles:
        tables = tile_tables(state)
        known = _WIRE_TILES[id(tiles)] = _WireTiles(tiles, tables.wire, tables.ids, tables.values, tables.depths)
    _LAST[:] = [known]
    return known


def _tableau(tiles: _WireTiles, pink: Sequence[int], green: Sequence[int], yellow: Sequence[int], rocks: Sequence[int]) -> bytes:
    return b"".join(
        [
            b"".join(map(tiles.pink.__getitem__, pink)),
            b"".join(map(tiles.green.__getitem__, green)),
            b"".join(map(tiles.yellow.__getitem__, yellow)),
            b"".join(map(tiles.rocks.__getitem__, rocks)),
        ]
    )


def _board(
    state: DeepDiveState,
    tiles: _WireTiles,
    player: int,
    pink: Sequence[int],
    green: Sequence[int],
    yellow: Sequence[int],
    rocks: Sequence[int],
    captured: Sequence[int],
) -> bytes:
    """One seat's board as View field 16."""
    values = tiles.values
    score = row_score([[values[t] for t in pink], [values[t] for t in green], [values[t] for t in yellow]])
    board = b"".join(
        [
            varint_field(BOARD_SEAT, player),
            b"".join(map(tiles.pink.__getitem__, pink)),
            b"".join(map(tiles.green.__getitem__, green)),
            b"".join(map(tiles.yellow.__getitem__, yellow)),
            b"".join(map(tiles.rocks.__getitem__, rocks)),
            varint_field(SUPPLY, state.supply(player)),
            packed_field(CAPTURED_DEPTHS, [tiles.depth_of[t] for t in captured]) if captured else b"",
            b"".join(map(tiles.captured.__getitem__, captured)),
            varint_field(SCORE, score),
            varint_field(COMPLETE_ROWS, min(len(pink), len(green), len(yellow))),
        ]
    )
    return BOARDS + varint(len(board)) + board


def _ai_board(state: DeepDiveState, tiles: _WireTiles) -> bytes:
    """The solo AI's tableau and position as View field 17."""
    ai = b"".join(
        [
            varint_field(AI_POSITION, state.ai_position),
            _tableau(tiles, state.ai_columns[0], state.ai_columns[1], state.ai_columns[2], state.ai_rocks),
            b"".join(map(tiles.open_water.__getitem__, state.ai_open_water)),
            varint_field(AI_SCORE, state.ai_totals()[0]),
            varint_field(AI_COMPLETE_ROWS, complete_rows(state.ai_columns)),
        ]
    )
    return message_field(AI_BOARD, ai)


def view_bytes(state: DeepDiveState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat,
    then what every seat sees, written once for all of a decision's requests when `shared` is given."""
    public = shared_part(shared, "public", _public, state)
    return SEAT + varint(seat) + public


def _depth_block(state: DeepDiveState, tiles: _WireTiles, index: int) -> bytes:
    """Depth `index + 1` as View field 15, from the state."""
    inert = state.inert[index]
    penguin_on = state.penguin_on
    if penguin_on and inert:
        entries = []
        for t in inert:
            penguin = penguin_on.get(t)
            if penguin is None:
                entries.append(tiles.inert_entries[t])
            else:
                entries.append(message_field(INERT, tiles.inert[t] + INERT_PENGUIN + varint(penguin)))
        inert_part = b"".join(entries)
    else:
        inert_part = b"".join(map(tiles.inert_entries.__getitem__, inert))
    face_down, removed = state.face_down[index], state.removed_per_depth
    counts = tiles.depth_counts.get((index, face_down, removed))
    if counts is None:
        counts = tiles.depth_counts[(index, face_down, removed)] = (
            DEPTH_NUMBERS[index] + varint_field(FACE_DOWN, face_down) + varint_field(REMOVED, removed)
        )
    depth = b"".join(
        [
            counts,
            b"".join(map(tiles.unseen.__getitem__, state.unseen[index])),
            b"".join(map(tiles.available.__getitem__, state.available[index])),
            inert_part,
        ]
    )
    return DEPTHS + varint(len(depth)) + depth


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


def _public(state: DeepDiveState) -> bytes:
    """Every View field but the viewer's seat (field 1): nothing in this game's view is secret."""
    tiles = _wire_tiles(state)
    solo = state.solo
    table_key = (
        state.players, solo, state.difficulty if solo else None, state.round, state.start_player, state.last_dive,
        state.end_triggered, state.final_round,
    )
    table = tiles.tables.get(table_key)
    if table is None:
        table = tiles.tables.keep(table_key, _table(*table_key))
    turn_key = (state.active, state.phase, state.depth, state.flipped)
    turn = tiles.turns.get(turn_key)
    if turn is None:
        turn = tiles.turns.keep(turn_key, _turn(tiles, *turn_key))
    parts = [table, turn]
    # Each part found by the token the engine replaces wherever that part changes (DeepDiveState.depth_tokens...).
    depths = tiles.depths
    for index, token in enumerate(state.depth_tokens):
        block = depths.get(token)
        if block is None:
            block = depths.keep(token, _depth_block(state, tiles, index))
        parts.append(block)
    boards = tiles.boards
    columns, rocks, captured = state.columns, state.rocks, state.captured
    for player, token in enumerate(state.board_tokens):
        block = boards.get(token)
        if block is None:
            pink, green, yellow = columns[player]
            block = boards.keep(token, _board(state, tiles, player, pink, green, yellow, rocks[player], captured[player]))
        parts.append(block)
    if solo:
        ai_key = (state.ai_token, state.ai_position)
        block = boards.get(ai_key)
        if block is None:
            block = boards.keep(ai_key, _ai_board(state, tiles))
        parts.append(block)
    discarded = tiles.discards.get(state.discarded_token)
    if discarded is None:
        discarded = tiles.discards.keep(state.discarded_token, b"".join(map(tiles.discarded.__getitem__, state.discarded)))
    parts += [
        discarded,
        GAME_OVER_FIELDS[state.phase == OVER],
    ]
    return b"".join(parts)


TOKEN_LAST_DIVE, TOKEN_START_PLAYER = string_field(TOKEN, "last_dive"), string_field(TOKEN, "start_player")
GAME_OVER_FIELDS = (varint_field(GAME_OVER, False), varint_field(GAME_OVER, True))
DEPTH_NUMBERS = tuple(DEPTH + varint(index + 1) for index in range(5))


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
