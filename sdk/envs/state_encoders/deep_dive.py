"""DEEP DIVE observations from the state: the vector `game_encoding("deep_dive").view` gives a seat's view.

Everything in a DEEP DIVE view is public, so a seat's vector is the table's plus its seat number.
Each depth, board, the solo AI and the discarded rocks is a block of the vector written once and found
again by the token the engine replaces wherever that part changes (DeepDiveState.depth_tokens...): most
parts are as they were one step before, and finding them costs a dict lookup, no key made of the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from referee.engine import Seat
from referee.games.deep_dive.data import FOOD
from referee.games.deep_dive.scoring import ai_score, complete_rows, row_score
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from sdk.envs.encodings import game_encoding
from referee.wire import Blocks
from sdk.envs.state_encoders.parts import Block, block_taker, check_cap, make_block, naming_vocabulary_errors

GAME = "deep_dive"
#: parts kept per memory before it is emptied
PARTS_KEPT = 4096
_E = game_encoding(GAME).view


# ----- the table's own fields (slots from the encoding's blocks) -------------------------------
SEAT, PLAYERS, SOLO, ROUND = _E.start("seat"), _E.start("players"), _E.start("solo"), _E.start("round")
DIFFICULTY = _E.one_hot("ai_difficulty")
START_PLAYER = _E.start("start_player")
TOKEN_SLOT = _E.one_hot("token")
END_TRIGGERED, FINAL_ROUND, ACTIVE, AI_TURN = (
    _E.start("end_triggered"), _E.start("final_round"), _E.start("active"), _E.start("ai_turn"),
)
DECISION = _E.one_hot("decision")
CURRENT_DEPTH, JUST_FLIPPED = _E.start("current_depth"), _E.start("just_flipped")
DEPTHS, DEPTH_ITEM, DEPTH_STRIDE, DEPTH_CAP = _E.start("depths"), _E.start("depths[]"), _E.stride("depths"), _E.cap("depths")
BOARDS, BOARD_ITEM, BOARD_STRIDE, BOARD_CAP = _E.start("boards"), _E.start("boards[]"), _E.stride("boards"), _E.cap("boards")
AI_PART, AI_SIZE = _E.start("ai"), _E.node("ai").size
DISCARDED_START, DISCARDED_SIZE = _E.start("discarded_rocks"), _E.node("discarded_rocks").size
DISCARDED = _E.slots("discarded_rocks")  # tile id -> its place in the block
GAME_OVER = _E.start("game_over")


def _tile_fields(item: str, message: str) -> tuple[int, int, dict[str, int], dict[str, int], int]:
    """Offsets from a tile list's item slot (`item`) of its tile's id, depth, type, colour and value blocks."""
    return (
        _E.offset(f"{message}.id", item),
        _E.offset(f"{message}.depth", item),
        _E.one_hot(f"{message}.type", item),
        _E.one_hot(f"{message}.colour", item),
        _E.offset(f"{message}.value", item),
    )


class _TileList:
    """One list of tiles of the View (a capped list of Tile messages): each tile's slots from the item's start."""

    def __init__(self, path: str, within: str, message: str | None = None) -> None:
        self.path = path
        self.count = _E.offset(path, within)  # the list's count slot, from the part it belongs to
        self.first = _E.offset(f"{path}[]", within)  # the first item's presence slot
        self.stride = _E.stride(path)
        self.cap = _E.cap(path)
        self.fields = _tile_fields(f"{path}[]", message or f"{path}[]")
        self.ids = _E.slots(f"{message or path + '[]'}.id")
        #: per tile table: each tile's item slots (presence and Tile), as float32 arrays from the item's start
        self.items: dict[int, tuple[Any, list[np.ndarray]]] = {}

    def tile_items(self, tiles: Any) -> list[np.ndarray]:  # noqa: ANN401 - the state's tile table
        """Each tile's item slots, from its presence slot to its last Tile slot (made once per tile table)."""
        known = self.items.get(id(tiles))
        if known is None or known[0] is not tiles:
            rows = []
            for tile in tiles:
                slots: dict[int, float] = {0: 1.0}
                write_tile(tile, self.fields, self.ids, slots, 0)
                row = np.zeros(max(slots) + 1, np.float32)
                for slot, value in slots.items():
                    row[slot] = value
                rows.append(row)
            known = self.items[id(tiles)] = (tiles, rows)
        return known[1]

    def clear(self, values: np.ndarray, at: int) -> None:
        """Zeros over the list (its count and every item up to the cap) at part offset `at` of a block's values."""
        values[at + self.count : at + self.first + self.cap * self.stride] = 0.0

    def write(self, tiles: Any, indices: Sequence[int], out: Any, at: int) -> None:  # noqa: ANN401 - slots
        """The list of tile indices `indices` (tiles: the state's tile table) at part offset `at` of a block."""
        check_cap(GAME, self.path, len(indices), self.cap)
        out[at + self.count] = float(len(indices))
        rows = self.tile_items(tiles)
        item = at + self.first
        stride = self.stride
        for t in indices:
            row = rows[t]
            out[item : item + len(row)] = row
            item += stride


def write_tile(tile: Any, fields: tuple[int, int, dict[str, int], dict[str, int], int], ids: dict[str, int],  # noqa: ANN401
               out: Any, at: int) -> None:  # noqa: ANN401 - slots (a dict or a memoryview)
    """One Tile message's slots (its id as 1 + its index, depth, type, and colour and value for food)."""
    id_slot, depth_slot, types, colours, value_slot = fields
    out[at + id_slot] = float(ids[tile.id] + 1)
    out[at + depth_slot] = float(tile.depth)
    out[at + types[tile.type]] = 1.0
    if tile.type == FOOD:
        out[at + colours[tile.colour]] = 1.0
        out[at + value_slot] = 1.0
        out[at + value_slot + 1] = float(tile.value)


# ----- parts ------------------------------------------------------------------------------------
_JUST_FLIPPED_FIELDS = _tile_fields("just_flipped", "just_flipped")
_JUST_FLIPPED_IDS = _E.slots("just_flipped.id")

_D_DEPTH, _D_FACE_DOWN, _D_REMOVED = (_E.offset(f"depths[].{name}", "depths[]") for name in ("depth", "face_down", "removed"))
_D_UNSEEN_START, UNSEEN_SIZE = _E.offset("depths[].unseen", "depths[]"), _E.node("depths[].unseen").size
_D_UNSEEN = _E.slots("depths[].unseen")  # tile id -> its place in the block
_D_AVAILABLE = _TileList("depths[].available", "depths[]")
_D_INERT = _TileList("depths[].inert", "depths[]", "depths[].inert[].tile")
_D_PENGUIN = _E.offset("depths[].inert[].penguin", "depths[].inert[]")

_B_SEAT, _B_SUPPLY, _B_SCORE, _B_ROWS = (_E.offset(f"boards[].{name}", "boards[]") for name in ("seat", "supply", "score", "complete_rows"))
_B_COLUMNS = tuple(_TileList(f"boards[].{colour}", "boards[]") for colour in ("pink", "green", "yellow"))
_B_ROCKS = _TileList("boards[].rocks", "boards[]")
_B_DEPTHS, _B_DEPTHS_FIRST, _B_DEPTHS_CAP = (
    _E.offset("boards[].captured_depths", "boards[]"), _E.offset("boards[].captured_depths[]", "boards[]"),
    _E.cap("boards[].captured_depths"),
)
_B_TILES = _E.one_hot("boards[].captured_tiles", "boards[]")
_B_TILES_FIRST, _B_TILES_END = min(_B_TILES.values()), max(_B_TILES.values()) + 1

_A_POSITION, _A_SCORE, _A_ROWS = (_E.offset(f"ai.{name}", "ai") for name in ("position", "score", "complete_rows"))
_A_COLUMNS = tuple(_TileList(f"ai.{colour}", "ai") for colour in ("pink", "green", "yellow"))
_A_ROCKS = _TileList("ai.rocks", "ai")
_A_OPEN_WATER = _TileList("ai.open_water", "ai")

#: parts already written, by the engine's token of each (DeepDiveState.depth_tokens...): a part changes a few
#: times a game, and its token with it, so the last few thousand cover every state in play
_depths, _boards, _ai, _discarded = Blocks(PARTS_KEPT), Blocks(PARTS_KEPT), Blocks(PARTS_KEPT), Blocks(PARTS_KEPT)
#: per tile table: each tile's place in an unseen block (a numpy table: a new unseen list costs one lookup)
_UNSEEN_PLACES: dict[int, tuple[Any, np.ndarray]] = {}


def _unseen_counts(state: DeepDiveState, index: int, values: np.ndarray) -> None:
    """Depth `index`'s unseen tiles into `values` (its unseen block): a count per tile (each tile once in the rules)."""
    tiles = state.data.tiles
    known = _UNSEEN_PLACES.get(id(tiles))
    if known is None or known[0] is not tiles:
        known = _UNSEEN_PLACES[id(tiles)] = (tiles, np.array([_D_UNSEEN[tile.id] for tile in tiles], np.intp))
    unseen = state.unseen[index]
    places = known[1][np.fromiter(unseen, np.intp, len(unseen))]
    if len(set(unseen)) == len(unseen):
        values[places] = 1.0
    else:  # a tile twice: counted, as the view's encoding counts it
        np.add.at(values, places, 1.0)


class _Made:
    """The block last made at a place (a depth, a seat's board) and copies of the state's values it shows: a part
    that changed is made from it by writing again only what differs (a tile list or two, a count)."""

    __slots__ = ("tiles", "values", "shown")

    def __init__(self, tiles: object, values: np.ndarray, shown: list[Any]) -> None:
        self.tiles = tiles
        self.values = values
        self.shown = shown


#: per depth and per seat: the part last made there
_made_depths: list[_Made | None] = [None] * DEPTH_CAP
_made_boards: list[_Made | None] = [None] * BOARD_CAP


def _depth_block(state: DeepDiveState, index: int) -> Block:
    """The whole of depth `index + 1` as a block of the vector: from the depth last made, what differs written again."""
    tiles = state.data.tiles
    inert = state.inert[index]
    penguin_on = state.penguin_on
    shown: list[Any] = [
        state.face_down[index], state.removed_per_depth, list(state.unseen[index]), list(state.available[index]), list(inert),
        [penguin_on.get(t) for t in inert] if penguin_on and inert else None,
    ]
    made = _made_depths[index]
    if made is None or made.tiles is not tiles or made.shown[1] != shown[1]:
        values: Any = np.zeros(DEPTH_STRIDE, np.float32)  # Any: numpy's stubs do not declare its buffer
        out: Any = memoryview(values)
        _write_depth_counts(state, index, out)
        _write_unseen(state, index, values)
        _D_AVAILABLE.write(tiles, state.available[index], out, 0)
        _write_inert(state, index, out)
    else:
        before = made.shown
        values = made.values.copy()
        out = memoryview(values)
        if before[0] != shown[0]:
            out[_D_FACE_DOWN] = float(shown[0])
        if before[2] != shown[2]:
            values[_D_UNSEEN_START : _D_UNSEEN_START + UNSEEN_SIZE] = 0.0
            _write_unseen(state, index, values)
        if before[3] != shown[3]:
            _D_AVAILABLE.clear(values, 0)
            _D_AVAILABLE.write(tiles, state.available[index], out, 0)
        if before[4] != shown[4] or before[5] != shown[5]:
            _D_INERT.clear(values, 0)
            _write_inert(state, index, out)
    _made_depths[index] = _Made(tiles, values, shown)
    return DEPTH_ITEM + index * DEPTH_STRIDE, values


def _write_unseen(state: DeepDiveState, index: int, values: np.ndarray) -> None:
    _unseen_counts(state, index, values[_D_UNSEEN_START : _D_UNSEEN_START + UNSEEN_SIZE])


def _board_block(state: DeepDiveState, player: int) -> Block:
    """The player's board as a block of the vector: from the board last made for that seat, what differs written again."""
    tiles = state.data.tiles
    columns = state.columns[player]
    shown: list[Any] = [list(columns[0]), list(columns[1]), list(columns[2]), list(state.rocks[player]), list(state.captured[player])]
    made = _made_boards[player]
    if made is None or made.tiles is not tiles:
        values: Any = np.zeros(BOARD_STRIDE, np.float32)  # Any: numpy's stubs do not declare its buffer
        _write_board(state, player, memoryview(values), 0)
    else:
        before = made.shown
        values = made.values.copy()
        out = memoryview(values)
        if before[0] != shown[0] or before[1] != shown[1] or before[2] != shown[2]:
            for column, tile_list, was, now in zip(columns, _B_COLUMNS, before, shown):
                if was != now:
                    tile_list.clear(values, 0)
                    tile_list.write(tiles, column, out, 0)
            _write_board_score(state, player, out, 0)
        if before[3] != shown[3]:
            _B_ROCKS.clear(values, 0)
            _B_ROCKS.write(tiles, state.rocks[player], out, 0)
        if before[4] != shown[4]:
            values[_B_DEPTHS : _B_DEPTHS_FIRST + _B_DEPTHS_CAP] = 0.0
            values[_B_TILES_FIRST : _B_TILES_END] = 0.0
            _write_captured(state, player, out, 0)
    _made_boards[player] = _Made(tiles, values, shown)
    return BOARD_ITEM + player * BOARD_STRIDE, values


def _encode(state: DeepDiveState, seat: Seat, out: dict[int, float]) -> None:
    """The seat's observation slots (see the module's docstring); zeros are left out."""
    tiles = state.data.tiles
    out[SEAT] = 1.0
    out[SEAT + 1] = float(seat)
    out[PLAYERS] = float(state.players)
    solo = state.solo
    if solo:
        out[SOLO] = 1.0
        out[DIFFICULTY[state.difficulty]] = 1.0
    out[ROUND] = float(state.round)
    if state.start_player is not None:
        out[START_PLAYER] = 1.0
        out[START_PLAYER + 1] = float(state.start_player)
    out[TOKEN_SLOT["last_dive" if state.last_dive else "start_player"]] = 1.0
    if state.end_triggered:
        out[END_TRIGGERED] = 1.0
    if state.final_round:
        out[FINAL_ROUND] = 1.0
    active = state.active
    if active is not None and active != AI:
        out[ACTIVE] = 1.0
        out[ACTIVE + 1] = float(active)
    if active == AI:
        out[AI_TURN] = 1.0
    out[DECISION[state.phase]] = 1.0
    if state.depth:
        out[CURRENT_DEPTH] = 1.0
        out[CURRENT_DEPTH + 1] = float(state.depth)
    if state.flipped is not None:
        out[JUST_FLIPPED] = 1.0
        write_tile(tiles[state.flipped], _JUST_FLIPPED_FIELDS, _JUST_FLIPPED_IDS, out, JUST_FLIPPED)
    out[DEPTHS] = float(DEPTH_CAP)
    put_block = block_taker(out)
    # Each part found by the token the engine replaces wherever that part changes.
    depths = _depths
    for index, token in enumerate(state.depth_tokens):
        block = depths.get(token)
        if block is None:
            block = depths.keep(token, _depth_block(state, index))
        put_block(block)
    players = state.players
    check_cap(GAME, "boards", players, BOARD_CAP)
    out[BOARDS] = float(players)
    boards = _boards
    for player, token in enumerate(state.board_tokens):
        block = boards.get(token)
        if block is None:
            block = boards.keep(token, _board_block(state, player))
        put_block(block)
    if solo:
        key = (state.ai_token, state.ai_position)
        block = _ai.get(key)
        if block is None:
            block = _ai.keep(key, make_block(AI_PART, AI_SIZE, lambda slots: _write_ai(state, slots, 0)))
        put_block(block)
    if state.discarded:
        block = _discarded.get(state.discarded_token)
        if block is None:
            block = _discarded.keep(
                state.discarded_token, make_block(DISCARDED_START, DISCARDED_SIZE, lambda slots: _write_discarded(state, slots, 0))
            )
        put_block(block)
    if state.phase == OVER:
        out[GAME_OVER] = 1.0


def _write_depth_counts(state: DeepDiveState, index: int, out: Any) -> None:  # noqa: ANN401 - slots
    """A depth's presence, number, face-down and removed counts, in its block's slots `out`."""
    out[0] = 1.0
    out[_D_DEPTH] = float(index + 1)
    out[_D_FACE_DOWN] = float(state.face_down[index])
    out[_D_REMOVED] = float(state.removed_per_depth)


def _write_inert(state: DeepDiveState, index: int, out: Any) -> None:  # noqa: ANN401 - slots
    """A depth's inert tiles and the penguins on them, in its block's slots `out`."""
    _D_INERT.write(state.data.tiles, state.inert[index], out, 0)
    item = _D_INERT.first
    for t in state.inert[index]:
        seat = state.penguin_on.get(t)
        if seat is not None:
            out[item + _D_PENGUIN] = 1.0
            out[item + _D_PENGUIN + 1] = float(seat)
        item += _D_INERT.stride


def _write_board(state: DeepDiveState, player: int, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The player's board, from slot `at` of `out`."""
    tiles = state.data.tiles
    out[at] = 1.0
    out[at + _B_SEAT] = float(player)
    columns = state.columns[player]
    for column, tile_list in zip(columns, _B_COLUMNS):
        tile_list.write(tiles, column, out, at)
    _B_ROCKS.write(tiles, state.rocks[player], out, at)
    _write_captured(state, player, out, at)
    _write_board_score(state, player, out, at)


def _write_captured(state: DeepDiveState, player: int, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The player's supply and captured penguins (their depths and tiles), from slot `at` of `out`."""
    tiles = state.data.tiles
    out[at + _B_SUPPLY] = float(state.supply(player))
    captured = state.captured[player]
    check_cap(GAME, "boards[].captured_depths", len(captured), _B_DEPTHS_CAP)
    out[at + _B_DEPTHS] = float(len(captured))
    for position, t in enumerate(captured):
        out[at + _B_DEPTHS_FIRST + position] = float(tiles[t].depth)
        out[at + _B_TILES[tiles[t].id]] += 1.0


def _write_board_score(state: DeepDiveState, player: int, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The player's score and complete rows, from slot `at` of `out`."""
    tiles = state.data.tiles
    values = [[tiles[t].value for t in column] for column in state.columns[player]]
    out[at + _B_SCORE] = float(row_score(values))
    out[at + _B_ROWS] = float(complete_rows(values))


def _write_ai(state: DeepDiveState, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The solo AI's part, from slot `at` of `out`."""
    tiles = state.data.tiles
    out[at] = 1.0
    out[at + _A_POSITION] = float(state.ai_position)
    for column, tile_list in zip(state.ai_columns, _A_COLUMNS):
        tile_list.write(tiles, column, out, at)
    _A_ROCKS.write(tiles, state.ai_rocks, out, at)
    _A_OPEN_WATER.write(tiles, state.ai_open_water, out, at)
    values = [[tiles[t].value for t in column] for column in state.ai_columns]
    out[at + _A_SCORE] = float(ai_score(values, len(state.ai_rocks), len(state.ai_open_water), state.difficulty))
    out[at + _A_ROWS] = float(complete_rows(values))


def _write_discarded(state: DeepDiveState, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The discarded rocks (a count per tile), from slot `at` of `out`."""
    tiles = state.data.tiles
    for t in state.discarded:
        out[at + DISCARDED[tiles[t].id]] += 1.0


#: the seat's observation slots; a value outside its vocabulary is an EncodingError naming it
encode = naming_vocabulary_errors(GAME, _encode)  # type: ignore[arg-type]
