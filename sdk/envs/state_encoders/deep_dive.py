"""DEEP DIVE observations from the state: the vector `game_encoding("deep_dive").view` gives a seat's view.

Everything in a DEEP DIVE view is public, so a seat's vector is the table's plus its seat number.
Each depth, board, the solo AI and the discarded rocks is a block of the vector written once and found
again by the token the engine replaces wherever that part changes (DeepDiveState.depth_tokens...): most
parts are the very ones handed out one step before (one identity check each). A part whose token changed
is made from the block last made at its place, writing again only what differs from the copies kept of
the lists it showed (a flip changes one unseen count, the face-down count and one tile list's last item).
The table's fields are a block found by what they show (a few thousand a game), the tile just flipped
another (one per tile).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from referee.engine import Seat
from referee.games.deep_dive.data import FOOD
from referee.games.deep_dive.scoring import ai_score, complete_rows
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from referee.wire import Blocks
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import block_slots, check_cap, make_block, naming_vocabulary_errors

GAME: Final = "deep_dive"
#: parts kept per memory before it is emptied
PARTS_KEPT: Final = 4096
_E = game_encoding(GAME).view


# ----- the table's own fields (slots from the encoding's blocks) -------------------------------
# (Final: the compiled module reads them as constants, not from its globals)
SEAT: Final = _E.start("seat")
PLAYERS: Final = _E.start("players")
SOLO: Final = _E.start("solo")
ROUND: Final = _E.start("round")
DIFFICULTY: Final = _E.one_hot("ai_difficulty")
START_PLAYER: Final = _E.start("start_player")
TOKEN_SLOT: Final = _E.one_hot("token")
END_TRIGGERED, FINAL_ROUND, ACTIVE, AI_TURN = (
    _E.start("end_triggered"), _E.start("final_round"), _E.start("active"), _E.start("ai_turn"),
)
DECISION: Final = _E.one_hot("decision")
CURRENT_DEPTH: Final = _E.start("current_depth")
JUST_FLIPPED: Final = _E.start("just_flipped")
DEPTHS: Final = _E.start("depths")
DEPTH_ITEM: Final = _E.start("depths[]")
DEPTH_STRIDE: Final = _E.stride("depths")
DEPTH_CAP: Final = _E.cap("depths")
BOARDS: Final = _E.start("boards")
BOARD_ITEM: Final = _E.start("boards[]")
BOARD_STRIDE: Final = _E.stride("boards")
BOARD_CAP: Final = _E.cap("boards")
AI_PART, AI_SIZE = _E.start("ai"), _E.node("ai").size
DISCARDED_START, DISCARDED_SIZE = _E.start("discarded_rocks"), _E.node("discarded_rocks").size
DISCARDED = _E.slots("discarded_rocks")  # tile id -> its place in the block
GAME_OVER: Final = _E.start("game_over")


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
        #: an item's slots all zero (what a list's items past its count hold)
        zero: Any = np.zeros(self.stride, np.float32)  # Any: numpy's stubs do not declare its buffer
        self.zero: Any = memoryview(zero)
        #: per tile table: each tile's whole item (presence and Tile, zeros to the stride), as float32 memoryviews
        self.items: dict[int, tuple[Any, list[Any]]] = {}

    def tile_items(self, tiles: Any) -> list[Any]:  # noqa: ANN401 - the state's tile table
        """Each tile's item slots, from its presence slot to the item's last slot (made once per tile table): a
        float32 memoryview, copied over an item in one go."""
        known = self.items.get(id(tiles))
        if known is None or known[0] is not tiles:
            rows = []
            for tile in tiles:
                slots: dict[int, float] = {0: 1.0}
                write_tile(tile, self.fields, self.ids, slots, 0)
                row: Any = np.zeros(self.stride, np.float32)  # Any: numpy's stubs do not declare its buffer
                for slot, value in slots.items():
                    row[slot] = value
                rows.append(memoryview(row))
            known = self.items[id(tiles)] = (tiles, rows)
        return known[1]

    def update(self, tiles: Any, before: list[int], now: list[int], out: Any, at: int) -> None:  # noqa: ANN401
        """Make the list at part offset `at` of `out` (a block's slots holding the list `before`) hold the tile
        indices `now` (tiles: the state's tile table): only the items that differ are written."""
        count = len(now)
        check_cap(GAME, self.path, count, self.cap)
        had = len(before)
        if had != count or not had:
            out[at + self.count] = float(count)
        rows = self.tile_items(tiles)
        stride = self.stride
        item = at + self.first
        for position in range(count):
            t = now[position]
            if position >= had or before[position] != t:
                out[item : item + stride] = rows[t]
            item += stride
        zero = self.zero
        for _ in range(count, had):
            out[item : item + stride] = zero
            item += stride

    def write(self, tiles: Any, indices: list[int], out: Any, at: int) -> None:  # noqa: ANN401 - slots
        """The list of tile indices `indices` (tiles: the state's tile table) at part offset `at` of a block of zeros."""
        self.update(tiles, [], indices, out, at)


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

_D_DEPTH: Final = _E.offset("depths[].depth", "depths[]")
_D_FACE_DOWN: Final = _E.offset("depths[].face_down", "depths[]")
_D_REMOVED: Final = _E.offset("depths[].removed", "depths[]")
_D_UNSEEN_START, UNSEEN_SIZE = _E.offset("depths[].unseen", "depths[]"), _E.node("depths[].unseen").size
_D_UNSEEN = _E.slots("depths[].unseen")  # tile id -> its place in the block
_D_AVAILABLE: Final = _TileList("depths[].available", "depths[]")
_D_INERT: Final = _TileList("depths[].inert", "depths[]", "depths[].inert[].tile")
_D_PENGUIN: Final = _E.offset("depths[].inert[].penguin", "depths[].inert[]")

_B_SEAT: Final = _E.offset("boards[].seat", "boards[]")
_B_SUPPLY: Final = _E.offset("boards[].supply", "boards[]")
_B_SCORE: Final = _E.offset("boards[].score", "boards[]")
_B_ROWS: Final = _E.offset("boards[].complete_rows", "boards[]")
_B_COLUMNS: Final = tuple(_TileList(f"boards[].{colour}", "boards[]") for colour in ("pink", "green", "yellow"))
_B_ROCKS: Final = _TileList("boards[].rocks", "boards[]")
_B_DEPTHS: Final = _E.offset("boards[].captured_depths", "boards[]")
_B_DEPTHS_FIRST: Final = _E.offset("boards[].captured_depths[]", "boards[]")
_B_DEPTHS_CAP: Final = _E.cap("boards[].captured_depths")
_B_TILES = _E.one_hot("boards[].captured_tiles", "boards[]")

_A_POSITION, _A_SCORE, _A_ROWS = (_E.offset(f"ai.{name}", "ai") for name in ("position", "score", "complete_rows"))
_A_COLUMNS = tuple(_TileList(f"ai.{colour}", "ai") for colour in ("pink", "green", "yellow"))
_A_ROCKS = _TileList("ai.rocks", "ai")
_A_OPEN_WATER = _TileList("ai.open_water", "ai")

#: a block of the vector (parts.Block: its first slot and its float32 values) typed Any: a tuple typed as such is
#: unpacked by the compiled module and made again (another object) wherever it is handed on
Part = Any
#: the table's fields but the tile just flipped: slots 0 to just before it, one block
HEAD_SIZE: Final = JUST_FLIPPED
#: the tile just flipped and the depths' count (slots from JUST_FLIPPED to DEPTHS), one block per tile
FLIPPED_SIZE: Final = DEPTHS + 1 - JUST_FLIPPED
#: table's fields kept (by what they show) before that memory is emptied: a game meets a few thousand
HEADS_KEPT: Final = 16384
_heads: Final[dict[tuple[Any, ...], Part]] = {}
#: parts already written, by the engine's token of each (DeepDiveState.depth_tokens...): a part changes a few
#: times a game, and its token with it, so the last few thousand cover every state in play
_depths: Final[dict[object, Part]] = {}
_boards: Final[dict[object, Part]] = {}
_ai, _discarded = Blocks(PARTS_KEPT), Blocks(PARTS_KEPT)
#: per depth and per seat: the token of the part handed out last there, and that part
_last_depth_tokens: Final[list[object]] = [object()] * DEPTH_CAP
_last_depth_parts: Final[list[Part]] = [None] * DEPTH_CAP
_last_board_tokens: Final[list[object]] = [object()] * BOARD_CAP
_last_board_parts: Final[list[Part]] = [None] * BOARD_CAP


class _Places:
    """What the encoder looks up per tile of a tile table (lists by tile index, made once per table)."""

    __slots__ = ("tiles", "unseen", "captured", "values", "flipped")

    def __init__(self, tiles: Any) -> None:  # noqa: ANN401 - the state's tile table
        self.tiles = tiles
        #: a tile's slot in a depth's unseen counts, from the depth's first slot
        self.unseen: list[int] = [_D_UNSEEN_START + _D_UNSEEN[tile.id] for tile in tiles]
        #: a tile's slot in a board's captured tiles, from the board's first slot
        self.captured: list[int] = [_B_TILES[tile.id] for tile in tiles]
        #: a tile's food value (0 for other tiles)
        self.values: list[int] = [tile.value for tile in tiles]
        #: the block of the tile just flipped (with the depths' count), by 1 + the tile's index (0: none), made when met
        self.flipped: list[Part] = [None] * (len(tiles) + 1)

    def flipped_block(self, flipped: int | None) -> Part:
        """The block from JUST_FLIPPED to the depths' count, for the tile index `flipped` (None: no tile)."""
        place = 0 if flipped is None else flipped + 1
        block = self.flipped[place]
        if block is None:
            values: Any = np.zeros(FLIPPED_SIZE, np.float32)  # Any: numpy's stubs do not declare its buffer
            out: Any = memoryview(values)
            if flipped is not None:
                out[0] = 1.0
                write_tile(self.tiles[flipped], _JUST_FLIPPED_FIELDS, _JUST_FLIPPED_IDS, out, 0)
            out[DEPTHS - JUST_FLIPPED] = float(DEPTH_CAP)
            block = self.flipped[place] = (JUST_FLIPPED, values)
        return block


_places: Final[list[_Places]] = []


def _places_of(tiles: Any) -> _Places:  # noqa: ANN401 - the state's tile table
    """The places of the tiles of `tiles` (kept for the last table met: a game has one)."""
    if _places and _places[0].tiles is tiles:
        return _places[0]
    places = _Places(tiles)
    _places[:] = [places]
    return places


def _rows_and_score(values: list[int], columns: list[list[int]]) -> tuple[int, int]:
    """(complete rows, score) of food columns (tile indices; `values`: each tile's value), as
    referee.games.deep_dive.scoring counts them (complete_rows, row_score): here compiled with the encoder, where
    those functions run as Python (tests check that both agree)."""
    complete = min([len(column) for column in columns])
    longest = max([len(column) for column in columns])
    total = 0
    for column in columns:
        for row in range(complete):
            total += values[column[row]]
    for row in range(complete, longest):
        row_sum = 0
        for column in columns:
            if len(column) > row:
                row_sum += values[column[row]]
        total += row_sum // 2
    return complete, total


class _MadeDepth:
    """The depth block last made at a depth's place, with copies of the state's values it shows (the state's lists
    are changed in place): a depth whose token changed is made from it by writing again only what differs."""

    __slots__ = ("tiles", "values", "face_down", "removed", "unseen", "available", "inert", "penguins")

    def __init__(self, tiles: object, values: Any, face_down: int, removed: int, unseen: list[int],  # noqa: ANN401
                 available: list[int], inert: list[int], penguins: list[int] | None) -> None:
        self.tiles = tiles
        self.values = values
        self.face_down = face_down
        self.removed = removed
        self.unseen = unseen
        self.available = available
        self.inert = inert
        self.penguins = penguins


class _MadeBoard:
    """The board block last made for a seat, with copies of the state's lists it shows (as `_MadeDepth`)."""

    __slots__ = ("tiles", "values", "columns", "rocks", "captured")

    def __init__(self, tiles: object, values: Any, columns: list[list[int]], rocks: list[int],  # noqa: ANN401
                 captured: list[int]) -> None:
        self.tiles = tiles
        self.values = values
        self.columns = columns
        self.rocks = rocks
        self.captured = captured


#: per depth and per seat: the part last made there
_made_depths: Final[list[_MadeDepth | None]] = [None] * DEPTH_CAP
_made_boards: Final[list[_MadeBoard | None]] = [None] * BOARD_CAP
_NO_TILES: Final[list[int]] = []


def _penguins(penguin_on: dict[int, Seat], inert: list[int]) -> list[int] | None:
    """The seat of the penguin on each inert tile, -1 where none is; None when no penguin is on any tile."""
    if not penguin_on:
        return None
    return [penguin_on.get(t, -1) for t in inert]


def _depth_block(state: DeepDiveState, places: _Places, index: int) -> Part:
    """The whole of depth `index + 1` as a block of the vector: from the depth last made at that place, what differs
    written again (a flip changes one unseen count, the face-down count and one tile list's last item)."""
    tiles = places.tiles
    face_down = state.face_down[index]
    removed = state.removed_per_depth
    unseen, available, inert = state.unseen[index], state.available[index], state.inert[index]
    penguins = _penguins(state.penguin_on, inert)
    made = _made_depths[index]
    values: Any  # a float32 array (Any: numpy's stubs do not declare its buffer)
    if made is None or made.tiles is not tiles or made.removed != removed:
        values = np.zeros(DEPTH_STRIDE, np.float32)
        out: Any = memoryview(values)
        out[0] = 1.0
        out[_D_DEPTH] = float(index + 1)
        out[_D_FACE_DOWN] = float(face_down)
        out[_D_REMOVED] = float(removed)
        _update_unseen(places, _NO_TILES, unseen, out)
        _D_AVAILABLE.update(tiles, _NO_TILES, available, out, 0)
        _update_inert(tiles, _NO_TILES, None, inert, penguins, out)
        made = _MadeDepth(tiles, values, face_down, removed, list(unseen), list(available), list(inert), penguins)
    else:
        values = made.values.copy()
        out = memoryview(values)
        if made.face_down != face_down:
            out[_D_FACE_DOWN] = float(face_down)
        kept_unseen, kept_available, kept_inert = made.unseen, made.available, made.inert
        if kept_unseen != unseen:
            _update_unseen(places, kept_unseen, unseen, out)
            kept_unseen = list(unseen)
        if kept_available != available:
            _D_AVAILABLE.update(tiles, kept_available, available, out, 0)
            kept_available = list(available)
        if kept_inert != inert or made.penguins != penguins:
            _update_inert(tiles, kept_inert, made.penguins, inert, penguins, out)
            kept_inert = list(inert)
        made = _MadeDepth(tiles, values, face_down, removed, kept_unseen, kept_available, kept_inert, penguins)
    _made_depths[index] = made
    return DEPTH_ITEM + index * DEPTH_STRIDE, values


def _update_unseen(places: _Places, before: list[int], now: list[int], out: Any) -> None:  # noqa: ANN401
    """Make a depth's unseen counts (a count per tile, each tile once in the rules) in `out` (its block's slots, holding
    the counts of `before`) those of `now`: where `now` is `before` with tiles taken out (as the rules take them),
    only those tiles' counts drop; otherwise every count is written again."""
    slots = places.unseen
    count = len(now)
    matched = 0
    taken: list[int] = []
    for t in before:
        if matched < count and now[matched] == t:
            matched += 1
        else:
            taken.append(t)
    if matched == count:
        for t in taken:
            slot = slots[t]
            out[slot] = out[slot] - 1.0
        return
    for t in before:
        out[slots[t]] = 0.0
    for t in now:
        slot = slots[t]
        out[slot] = out[slot] + 1.0


def _update_inert(tiles: Any, before: list[int], before_penguins: list[int] | None, now: list[int],  # noqa: ANN401
                  penguins: list[int] | None, out: Any) -> None:  # noqa: ANN401 - slots
    """Make a depth's inert tiles and the penguins on them in `out` (its block's slots, holding `before` and
    `before_penguins`) `now` and `penguins` (a seat per tile, -1 for none; None: no penguin on any): only the items
    that differ are written."""
    tile_list = _D_INERT
    count = len(now)
    check_cap(GAME, tile_list.path, count, tile_list.cap)
    had = len(before)
    if had != count or not had:
        out[tile_list.count] = float(count)
    rows = tile_list.tile_items(tiles)
    stride = tile_list.stride
    item = tile_list.first
    for position in range(count):
        t = now[position]
        seat = penguins[position] if penguins is not None else -1
        if (position >= had or before[position] != t
                or (before_penguins[position] if before_penguins is not None else -1) != seat):
            out[item : item + stride] = rows[t]
            if seat >= 0:
                out[item + _D_PENGUIN] = 1.0
                out[item + _D_PENGUIN + 1] = float(seat)
        item += stride
    zero = tile_list.zero
    for _ in range(count, had):
        out[item : item + stride] = zero
        item += stride


def _board_block(state: DeepDiveState, places: _Places, player: int) -> Part:
    """The player's board as a block of the vector: from the board last made for that seat, what differs written again."""
    tiles = places.tiles
    columns = state.columns[player]
    rocks, captured = state.rocks[player], state.captured[player]
    made = _made_boards[player]
    values: Any  # a float32 array (Any: numpy's stubs do not declare its buffer)
    if made is None or made.tiles is not tiles:
        values = np.zeros(BOARD_STRIDE, np.float32)
        out: Any = memoryview(values)
        out[0] = 1.0
        out[_B_SEAT] = float(player)
        for column, tile_list in zip(columns, _B_COLUMNS):
            tile_list.update(tiles, _NO_TILES, column, out, 0)
        _B_ROCKS.update(tiles, _NO_TILES, rocks, out, 0)
        _update_captured(state, places, player, _NO_TILES, out)
        _write_board_score(places, columns, out)
        made = _MadeBoard(tiles, values, [list(column) for column in columns], list(rocks), list(captured))
    else:
        values = made.values.copy()
        out = memoryview(values)
        kept_columns = made.columns
        if kept_columns[0] != columns[0] or kept_columns[1] != columns[1] or kept_columns[2] != columns[2]:
            for column, tile_list, was in zip(columns, _B_COLUMNS, kept_columns):
                if was != column:
                    tile_list.update(tiles, was, column, out, 0)
            _write_board_score(places, columns, out)
            kept_columns = [list(column) for column in columns]
        kept_rocks, kept_captured = made.rocks, made.captured
        if kept_rocks != rocks:
            _B_ROCKS.update(tiles, kept_rocks, rocks, out, 0)
            kept_rocks = list(rocks)
        if kept_captured != captured:
            _update_captured(state, places, player, kept_captured, out)
            kept_captured = list(captured)
        made = _MadeBoard(tiles, values, kept_columns, kept_rocks, kept_captured)
    _made_boards[player] = made
    return BOARD_ITEM + player * BOARD_STRIDE, values


def _encode(state: DeepDiveState, seat: Seat, out: dict[int, float]) -> None:
    """The seat's observation slots (see the module's docstring), as blocks where `out` keeps them (a `Slots`)."""
    kept = getattr(out, "blocks", None)
    parts: list[Part] = kept if kept is not None else []
    places = _places_of(state.data.tiles)
    players = state.config.players  # GameState.players, without the call of a property
    solo = state.solo
    phase = state.phase
    # The table's fields: a few thousand different ones a game, each a block found again by what it shows.
    head = (
        seat, players, state.difficulty if solo else None, state.round, state.start_player, state.last_dive,
        state.end_triggered, state.final_round, state.active, phase, state.depth,
    )
    heads = _heads
    block = heads.get(head)
    if block is None:
        if len(heads) >= HEADS_KEPT:
            heads.clear()
        block = heads[head] = _head_block(state, seat)
    parts.append(block)
    parts.append(places.flipped_block(state.flipped))
    # Each part found by the token the engine replaces wherever that part changes: the part handed out last at its
    # place when the token is the same object (most are, from one step to the next), else by its token.
    tokens, handed = _last_depth_tokens, _last_depth_parts
    memory = _depths
    index = 0
    for token in state.depth_tokens:
        if tokens[index] is token:
            block = handed[index]
        else:
            block = memory.get(token)
            if block is None:
                if len(memory) >= PARTS_KEPT:
                    memory.clear()
                block = memory[token] = _depth_block(state, places, index)
            tokens[index] = token
            handed[index] = block
        parts.append(block)
        index += 1
    check_cap(GAME, "boards", players, BOARD_CAP)
    out[BOARDS] = float(players)
    tokens, handed = _last_board_tokens, _last_board_parts
    memory = _boards
    player = 0
    for token in state.board_tokens:
        if tokens[player] is token:
            block = handed[player]
        else:
            block = memory.get(token)
            if block is None:
                if len(memory) >= PARTS_KEPT:
                    memory.clear()
                block = memory[token] = _board_block(state, places, player)
            tokens[player] = token
            handed[player] = block
        parts.append(block)
        player += 1
    if solo:
        key = (state.ai_token, state.ai_position)
        block = _ai.get(key)
        if block is None:
            block = _ai.keep(key, make_block(AI_PART, AI_SIZE, lambda slots: _write_ai(state, slots, 0)))
        parts.append(block)
    if state.discarded:
        block = _discarded.get(state.discarded_token)
        if block is None:
            block = _discarded.keep(
                state.discarded_token, make_block(DISCARDED_START, DISCARDED_SIZE, lambda slots: _write_discarded(state, slots, 0))
            )
        parts.append(block)
    if phase == OVER:
        out[GAME_OVER] = 1.0
    if kept is None:  # a plain dict: the blocks' non-zero slots
        for block in parts:
            out.update(block_slots(block))


def _head_block(state: DeepDiveState, seat: Seat) -> Part:
    """The table's fields but the tile just flipped (slots 0 to HEAD_SIZE) as a block."""
    values: Any = np.zeros(HEAD_SIZE, np.float32)  # Any: numpy's stubs do not declare its buffer
    out: Any = memoryview(values)
    out[SEAT] = 1.0
    out[SEAT + 1] = float(seat)
    out[PLAYERS] = float(state.players)
    if state.solo:
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
    return 0, values


def _update_captured(state: DeepDiveState, places: _Places, player: int, before: list[int], out: Any) -> None:  # noqa: ANN401
    """The player's supply and captured penguins (their depths and tiles) in `out` (its board's slots, holding the
    penguins `before` captured)."""
    tiles = places.tiles
    slots = places.captured
    out[_B_SUPPLY] = float(state.supply(player))
    captured = state.captured[player]
    count = len(captured)
    check_cap(GAME, "boards[].captured_depths", count, _B_DEPTHS_CAP)
    out[_B_DEPTHS] = float(count)
    for t in before:
        out[slots[t]] = 0.0
    for position in range(count, len(before)):
        out[_B_DEPTHS_FIRST + position] = 0.0
    for position, t in enumerate(captured):
        out[_B_DEPTHS_FIRST + position] = float(tiles[t].depth)
        slot = slots[t]
        out[slot] = out[slot] + 1.0


def _write_board_score(places: _Places, columns: list[list[int]], out: Any) -> None:  # noqa: ANN401 - slots
    """A board's score and complete rows (its columns: tile indices) in `out` (the board's slots)."""
    rows, score = _rows_and_score(places.values, columns)
    out[_B_SCORE] = float(score)
    out[_B_ROWS] = float(rows)


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
