"""DEEP DIVE's typed messages on the wire, and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order;
each tile's message is serialized once per tile table. Tests compare the two on random games.
"""

from __future__ import annotations

from collections.abc import Sequence

from b99.games import deep_dive_pb2 as pb

from referee.engine import Seat
from referee.games.deep_dive.scoring import complete_rows
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

    __slots__ = ("tiles", "pink", "green", "yellow", "rocks", "available", "open_water", "flipped", "inert", "unseen", "captured", "discarded", "depths", "boards", "heads")

    def __init__(self, tiles: Sequence[object], wire: Sequence[dict[str, object]], ids: Sequence[str]) -> None:
        self.tiles = tiles
        framed = [_framed(pb.Tile(**message).SerializeToString()) for message in wire]
        names = [_framed(text.encode()) for text in ids]
        self.pink, self.green, self.yellow, self.rocks, self.available, self.open_water, self.flipped, self.inert = (
            tuple(field_key + body for body in framed)
            for field_key in (PINK, GREEN, YELLOW, ROCKS, AVAILABLE, AI_OPEN_WATER, JUST_FLIPPED, INERT_TILE)
        )
        self.unseen = tuple(UNSEEN + name for name in names)
        self.captured = tuple(CAPTURED_TILES + name for name in names)
        self.discarded = tuple(DISCARDED + name for name in names)
        #: depths and boards already written, by what they show
        self.depths = Blocks()
        self.boards = Blocks()
        self.heads = Blocks()


def _framed(body: bytes) -> bytes:
    return varint(len(body)) + body


_WIRE_TILES: dict[int, _WireTiles] = {}


def _wire_tiles(state: DeepDiveState) -> _WireTiles:
    tiles = state.data.tiles
    known = _WIRE_TILES.get(id(tiles))
    if known is None or known.tiles is not tiles:
        tables = tile_tables(state)
        known = _WIRE_TILES[id(tiles)] = _WireTiles(tiles, tables.wire, tables.ids)
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


def _depth(
    tiles: _WireTiles,
    index: int,
    face_down: int,
    removed: int,
    unseen: Sequence[int],
    available: Sequence[int],
    inert: Sequence[int],
    penguins: Sequence[int | None] | None,
) -> bytes:
    """One depth as View field 15 (`index` = depth - 1)."""
    entries = []
    for position, t in enumerate(inert):
        entry = tiles.inert[t]
        penguin = penguins[position] if penguins else None
        if penguin is not None:
            entry += INERT_PENGUIN + varint(penguin)
        entries.append(INERT + varint(len(entry)) + entry)
    depth = b"".join(
        [
            DEPTH_NUMBERS[index],
            varint_field(FACE_DOWN, face_down),
            varint_field(REMOVED, removed),
            b"".join(map(tiles.unseen.__getitem__, unseen)),
            b"".join(map(tiles.available.__getitem__, available)),
            *entries,
        ]
    )
    return DEPTHS + varint(len(depth)) + depth


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
    tables = tile_tables(state)
    score, rows = tables.tableau_score((pink, green, yellow))
    board = b"".join(
        [
            varint_field(BOARD_SEAT, player),
            _tableau(tiles, pink, green, yellow, rocks),
            varint_field(SUPPLY, state.supply(player)),
            packed_field(CAPTURED_DEPTHS, [tables.depths[t] for t in captured]),
            b"".join(map(tiles.captured.__getitem__, captured)),
            varint_field(SCORE, score),
            varint_field(COMPLETE_ROWS, rows),
        ]
    )
    return BOARDS + varint(len(board)) + board


def _ai_board(state: DeepDiveState, tiles: _WireTiles) -> bytes:
    """The solo AI's tableau and position as View field 17."""
    pink, green, yellow = state.ai_columns
    ai = b"".join(
        [
            varint_field(AI_POSITION, state.ai_position),
            _tableau(tiles, pink, green, yellow, state.ai_rocks),
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


def _depths(
    state: DeepDiveState,
    tiles: _WireTiles,
    unseen: tuple[tuple[int, ...], ...],
    available: tuple[tuple[int, ...], ...],
    inert: tuple[tuple[int, ...], ...],
) -> bytes:
    """View field 15, depth by depth, each remembered by what it shows."""
    depths = tiles.depths
    removed = state.removed_per_depth
    penguin_on = state.penguin_on
    written = []
    for index in range(5):
        inert_here = inert[index]
        block_key = (
            index,
            state.face_down[index],
            removed,
            unseen[index],
            available[index],
            inert_here,
            tuple([penguin_on.get(t) for t in inert_here]) if penguin_on and inert_here else None,
        )
        block = depths.get(block_key)
        if block is None:
            block = depths.keep(block_key, _depth(tiles, *block_key))
        written.append(block)
    return b"".join(written)


def _head(
    tiles: _WireTiles,
    players: int,
    solo: bool,
    difficulty: str | None,
    round_number: int,
    start_player: int | None,
    last_dive: bool,
    end_triggered: bool,
    final_round: bool,
    active: int | None,
    phase: str,
    depth: int,
    flipped: int | None,
) -> bytes:
    """View fields 2-14: the table's scalars and the tile just flipped."""
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
    head_key = (
        state.players, solo, state.difficulty if solo else None, state.round, state.start_player, state.last_dive,
        state.end_triggered, state.final_round, state.active, state.phase, state.depth, state.flipped,
    )
    head = tiles.heads.get(head_key)
    if head is None:
        head = tiles.heads.keep(head_key, _head(tiles, *head_key))
    parts = [head]
    boards = tiles.boards
    # Depth by depth (a key for all five together missed at most decisions and kept more keys alive).
    unseen, available, inert = tuple(map(tuple, state.unseen)), tuple(map(tuple, state.available)), tuple(map(tuple, state.inert))
    parts.append(_depths(state, tiles, unseen, available, inert))
    for player in range(state.players):
        pink, green, yellow = state.columns[player]
        block_key = (player, tuple(pink), tuple(green), tuple(yellow), tuple(state.rocks[player]), tuple(state.captured[player]))
        block = boards.get(block_key)
        if block is None:
            block = boards.keep(block_key, _board(state, tiles, *block_key))
        parts.append(block)
    if solo:
        pink, green, yellow = state.ai_columns
        ai_key = (
            state.difficulty, state.ai_position, tuple(pink), tuple(green), tuple(yellow), tuple(state.ai_rocks),
            tuple(state.ai_open_water),
        )
        block = boards.get(ai_key)
        if block is None:
            block = boards.keep(ai_key, _ai_board(state, tiles))
        parts.append(block)
    parts += [
        b"".join(map(tiles.discarded.__getitem__, state.discarded)),
        varint_field(GAME_OVER, state.phase == OVER),
    ]
    return b"".join(parts)


TOKEN_LAST_DIVE, TOKEN_START_PLAYER = string_field(TOKEN, "last_dive"), string_field(TOKEN, "start_player")
DEPTH_NUMBERS = tuple(DEPTH + varint(index + 1) for index in range(5))


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
