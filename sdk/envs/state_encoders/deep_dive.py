"""DEEP DIVE observations from the state: the vector `game_encoding("deep_dive").view` gives a seat's view.

Everything in a DEEP DIVE view is public, so a seat's vector is the table's plus its seat number. Each state has
ONE kept vector (found by a weak reference), brought up to date in place where the state changed: the table's fields
that changed, and each depth, board, the solo AI and the discarded rocks whose token changed (the engine replaces a
part's token wherever that part changes: DeepDiveState.depth_tokens...), written again only where its lists differ
from the copies kept of them (a flip changes one unseen count, the face-down count and one tile list's last item).
`observation_vector` sets the seat's number in it (when another seat was handed it last) and hands out one copy;
`encode` hands it to a `Slots` as one block. A state met for the first time starts from a copy of another kept
vector of the same table, players and variant: the last one handed out when the state shares a part with it (a
clone), else the first vector written for them as it was then (the next game, another table's); its parts whose
tokens are the state's are right already, the others are written again where they differ.
"""

from __future__ import annotations

from typing import Any, Final, final
from weakref import ref

import numpy as np

from referee.engine import Seat
from referee.games.deep_dive.data import FOOD, PENGUINS_PER_PLAYER
from referee.games.deep_dive.scoring import ai_score, complete_rows
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import check_cap

GAME: Final = "deep_dive"
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
_TOKEN_LAST_DIVE: Final = TOKEN_SLOT["last_dive"]
_TOKEN_START_PLAYER: Final = TOKEN_SLOT["start_player"]
END_TRIGGERED: Final = _E.start("end_triggered")
FINAL_ROUND: Final = _E.start("final_round")
ACTIVE: Final = _E.start("active")
AI_TURN: Final = _E.start("ai_turn")
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
AI_PART: Final = _E.start("ai")
DISCARDED_START: Final = _E.start("discarded_rocks")
DISCARDED: Final = _E.slots("discarded_rocks")  # tile id -> its place in the block
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


@final
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
        #: the tile table met last and its items (a game has one table)
        self.last_tiles: object = None
        self.last_items: list[Any] = []

    def tile_items(self, tiles: Any) -> list[Any]:  # noqa: ANN401 - the state's tile table
        """Each tile's item slots, from its presence slot to the item's last slot (made once per tile table): a
        float32 memoryview, copied over an item in one go."""
        if tiles is self.last_tiles:
            return self.last_items
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
        self.last_tiles = tiles
        self.last_items = known[1]
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

_A_POSITION: Final = _E.offset("ai.position", "ai")
_A_SCORE: Final = _E.offset("ai.score", "ai")
_A_ROWS: Final = _E.offset("ai.complete_rows", "ai")
_A_COLUMNS: Final = tuple(_TileList(f"ai.{colour}", "ai") for colour in ("pink", "green", "yellow"))
_A_ROCKS: Final = _TileList("ai.rocks", "ai")
_A_OPEN_WATER: Final = _TileList("ai.open_water", "ai")

#: the last slot of the tile just flipped's block, with the depths' count (from JUST_FLIPPED)
FLIPPED_END: Final = DEPTHS + 1
#: kept vectors before that memory is emptied (an environment's table takes one per game, a search one per clone)
KEPT_SIZE: Final = 64


@final
class _Places:
    """What the encoder looks up per tile of a tile table (lists by tile index, made once per table)."""

    __slots__ = ("tiles", "unseen", "captured", "discarded", "depths", "values", "flipped")

    def __init__(self, tiles: Any) -> None:  # noqa: ANN401 - the state's tile table
        self.tiles = tiles
        #: a tile's slot in a depth's unseen counts, from the depth's first slot
        self.unseen: list[int] = [_D_UNSEEN_START + _D_UNSEEN[tile.id] for tile in tiles]
        #: a tile's slot in a board's captured tiles, from the board's first slot
        self.captured: list[int] = [_B_TILES[tile.id] for tile in tiles]
        #: a tile's slot among the discarded rocks
        self.discarded: list[int] = [DISCARDED_START + DISCARDED[tile.id] for tile in tiles]
        #: a tile's depth
        self.depths: list[int] = [tile.depth for tile in tiles]
        #: a tile's food value (0 for other tiles)
        self.values: list[int] = [tile.value for tile in tiles]
        #: the slots from JUST_FLIPPED to the depths' count (a float32 memoryview), by 1 + the tile's index (0: none),
        #: made when met
        self.flipped: list[Any] = [None] * (len(tiles) + 1)

    def flipped_slots(self, flipped: int | None) -> Any:  # noqa: ANN401 - a float32 memoryview
        """The slots from JUST_FLIPPED to the depths' count, for the tile index `flipped` (None: no tile)."""
        place = 0 if flipped is None else flipped + 1
        slots = self.flipped[place]
        if slots is None:
            values: Any = np.zeros(FLIPPED_END - JUST_FLIPPED, np.float32)  # Any: numpy's stubs do not declare its buffer
            out: Any = memoryview(values)
            if flipped is not None:
                out[0] = 1.0
                write_tile(self.tiles[flipped], _JUST_FLIPPED_FIELDS, _JUST_FLIPPED_IDS, out, 0)
            out[DEPTHS - JUST_FLIPPED] = float(DEPTH_CAP)
            slots = self.flipped[place] = out
        return slots


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
    complete = -1
    longest = 0
    for column in columns:
        size = len(column)
        if complete < 0 or size < complete:
            complete = size
        if size > longest:
            longest = size
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


class _Unset:
    """No value written yet (differs from every value of a state)."""


_UNSET: Final = _Unset()
_NO_TILES: Final[list[int]] = []
_NO_FIELDS: Final[dict[str, Any]] = {}
_NO_COLUMNS: Final[list[list[int]]] = [_NO_TILES, _NO_TILES, _NO_TILES]

#: how `_Kept` keeps the table's fields last written, as ints: a seat or tile that is not there, and nothing written yet
_NONE: Final = -2
_NOTHING: Final = -3
#: the engine's constants, here typed (the compiled module compares them natively)
_AI: Final[int] = AI
_OVER: Final[str] = OVER
_PENGUINS: Final[int] = PENGUINS_PER_PLAYER


@final
class _Kept:
    """The whole observation vector of one state (found by a weak reference: keeping finished games alive would cost
    more than the vector saves), showing the seat handed it last, with what it was written from: the table's fields last written,
    and per part (each depth, board, the AI, the discarded rocks) the engine's token and copies of the state's lists
    it shows. Lists kept here are copies never changed in place (a changed part's copy is replaced), so a kept vector
    made from another (`donor`, of the same table, players and variant) shares them."""

    def __init__(self, places: _Places, players: int, solo: bool, difficulty: str, removed: int,
                 donor: _Kept | None) -> None:
        #: the state this vector is kept for (a weak reference), None for a start kept as such
        self.state: Any = None
        #: made from zeros and not yet written: once written, a copy is kept as the start of its table and variant
        self.first = False
        #: the state's fields (its `__dict__`) while this vector is the last handed out, else none
        self.fields: dict[str, Any] = _NO_FIELDS
        self.places = places
        self.players = players
        self.solo = solo
        self.difficulty = difficulty
        self.removed = removed
        values: Any  # a float32 array (Any: numpy's stubs do not declare its buffer)
        if donor is not None:
            # Made from another state's vector of the same table (a clone, a game's start): its parts whose tokens
            # are the state's are the state's already, the others are written again where they differ.
            values = donor.values.copy()
            self.round: int = donor.round
            self.start_player: int = donor.start_player
            self.last_dive: int = donor.last_dive
            self.end_triggered: int = donor.end_triggered
            self.final_round: int = donor.final_round
            self.active: int = donor.active
            self.phase: object = donor.phase
            self.phase_slot: int = donor.phase_slot
            self.seat: int = donor.seat
            self.over: bool = donor.over
            self.depth: int = donor.depth
            self.flipped: int = donor.flipped
            self.depth_tokens: list[object] = list(donor.depth_tokens)
            self.face_down: list[int] = list(donor.face_down)
            self.unseen: list[list[int]] = list(donor.unseen)
            self.available: list[list[int]] = list(donor.available)
            self.inert: list[list[int]] = list(donor.inert)
            self.penguins: list[list[int] | None] = list(donor.penguins)
            self.penguin_on: dict[int, Seat] = donor.penguin_on
            self.board_tokens: list[object] = list(donor.board_tokens)
            self.columns: list[list[list[int]]] = list(donor.columns)
            self.rocks: list[list[int]] = list(donor.rocks)
            self.captured: list[list[int]] = list(donor.captured)
            self.ai_token: object = donor.ai_token
            self.ai_position: int = donor.ai_position
            self.ai_columns: list[list[int]] = donor.ai_columns
            self.ai_rocks: list[int] = donor.ai_rocks
            self.ai_open_water: list[int] = donor.ai_open_water
            self.discarded_token: object = donor.discarded_token
            self.discarded: list[int] = donor.discarded
        else:
            # Zeros, with what never changes in a state written once; every part is as if its lists were empty.
            values = np.zeros(_E.size, np.float32)
            out: Any = memoryview(values)
            out[SEAT] = 1.0
            out[PLAYERS] = float(players)
            if solo:
                out[SOLO] = 1.0
                out[DIFFICULTY[difficulty]] = 1.0
                out[AI_PART] = 1.0
            for index in range(DEPTH_CAP):
                at = DEPTH_ITEM + index * DEPTH_STRIDE
                out[at] = 1.0
                out[at + _D_DEPTH] = float(index + 1)
                out[at + _D_REMOVED] = float(removed)
            check_cap(GAME, "boards", players, BOARD_CAP)
            out[BOARDS] = float(players)
            for player in range(players):
                at = BOARD_ITEM + player * BOARD_STRIDE
                out[at] = 1.0
                out[at + _B_SEAT] = float(player)
                out[at + _B_SUPPLY] = float(_PENGUINS)  # no penguin captured
            self.round = _NOTHING
            self.start_player = _NOTHING
            self.last_dive = _NOTHING
            self.end_triggered = _NOTHING
            self.final_round = _NOTHING
            self.active = _NOTHING
            self.phase = _UNSET
            self.phase_slot = -1
            self.seat = 0
            self.over = False
            self.depth = _NOTHING
            self.flipped = _NOTHING
            self.depth_tokens = [_UNSET] * DEPTH_CAP
            self.face_down = [-1] * DEPTH_CAP
            self.unseen = [_NO_TILES] * DEPTH_CAP
            self.available = [_NO_TILES] * DEPTH_CAP
            self.inert = [_NO_TILES] * DEPTH_CAP
            self.penguins = [None] * DEPTH_CAP
            self.penguin_on = {}
            self.board_tokens = [_UNSET] * players
            self.columns = [_NO_COLUMNS] * players
            self.rocks = [_NO_TILES] * players
            self.captured = [_NO_TILES] * players
            self.ai_token = _UNSET
            self.ai_position = 0
            self.ai_columns = _NO_COLUMNS
            self.ai_rocks = _NO_TILES
            self.ai_open_water = _NO_TILES
            self.discarded_token = _UNSET
            self.discarded = _NO_TILES
        self.values: Any = values
        self.out: Any = memoryview(values)  # float32 slots

    def fits(self, places: _Places, players: int, solo: bool, difficulty: str, removed: int) -> bool:
        """Whether this vector holds what never changes in a state of that table, players and variant."""
        return (
            self.places is places and self.players == players and self.solo == solo
            and self.difficulty == difficulty and self.removed == removed
        )


#: each state's kept vector (by the state's id), emptied at KEPT_SIZE entries; the last one handed out first
_kept_vectors: Final[dict[int, _Kept]] = {}
_recent: Final[list[_Kept | None]] = [None]
#: per table, players and variant, the vector of the first state met, as it was then (most often a game's start):
#: a state that shares no part with the last one (the next game, another table's) starts from it
_starts: Final[list[_Kept]] = []
#: starts kept before that list is emptied (a table, a player count and a difficulty each)
STARTS_KEPT: Final = 32


def _kept(state: DeepDiveState) -> _Kept:
    """The state's kept vector, brought up to date with it."""
    kept = _recent[0]
    if kept is None or kept.state() is not state:
        key = id(state)
        known = _kept_vectors.get(key)
        if known is None or known.state() is not state:
            if len(_kept_vectors) >= KEPT_SIZE:
                _kept_vectors.clear()
            known = _kept_vectors[key] = _new_kept(state, kept)
        if kept is not None:
            kept.fields = _NO_FIELDS
        # the state's fields: its `__dict__` (where the engine keeps them and a clone copies them), read through one
        # dict lookup each, half of an attribute read from compiled code; held while this vector is the last handed
        # out only (held by every vector kept, they would keep finished games' lists alive)
        known.fields = state.__dict__
        kept = _recent[0] = known
    try:
        _update(kept.fields, kept)
    except KeyError as error:  # the view's encoding names the field
        _forget(state)  # half written: the next observation starts afresh
        raise EncodingError(f"{GAME}: a value of the view is outside its vocabulary: {error}") from None
    except BaseException:
        _forget(state)
        raise
    if kept.first:
        kept.first = False
        if len(_starts) >= STARTS_KEPT:
            _starts.clear()
        _starts.append(_Kept(kept.places, kept.players, kept.solo, kept.difficulty, kept.removed, kept))
    return kept


def _new_kept(state: DeepDiveState, last: _Kept | None) -> _Kept:
    """A kept vector for `state`, met for the first time: made from the last one handed out when the state shares a
    part with it (a clone of its state), else from the start of its table and variant (the next game, another
    table's), else from zeros (to be kept as that start once written)."""
    fields: dict[str, Any] = state.__dict__
    places = _places_of(fields["data"].tiles)
    players = len(fields["board_tokens"])
    solo: bool = fields["solo"]
    difficulty: str = fields["difficulty"]
    removed: int = fields["removed_per_depth"]
    donor: _Kept | None = None
    if last is not None and last.fits(places, players, solo, difficulty, removed):
        tokens: list[object] = fields["depth_tokens"]
        kept_tokens = last.depth_tokens
        for index in range(DEPTH_CAP):
            if tokens[index] is kept_tokens[index]:
                donor = last
                break
    if donor is None:
        for start in _starts:
            if start.fits(places, players, solo, difficulty, removed):
                donor = start
                break
    kept = _Kept(places, players, solo, difficulty, removed, donor)
    kept.state = ref(state)
    kept.first = donor is None
    return kept


def _forget(state: DeepDiveState) -> None:
    """Drop the state's kept vector (a write failed half way)."""
    _kept_vectors.pop(id(state), None)
    kept = _recent[0]
    if kept is not None:
        kept.fields = _NO_FIELDS
    _recent[0] = None


def _update(fields: dict[str, Any], kept: _Kept) -> None:
    """Bring the kept vector up to date with the state whose fields are `fields`: the table's fields that changed, and
    each part whose token changed, written again where its lists differ from the copies kept."""
    _update_head(fields, kept)
    tokens: list[object] = fields["depth_tokens"]
    kept_tokens = kept.depth_tokens
    penguin_on: dict[int, Seat] | None = None
    moved = False
    for index in range(DEPTH_CAP):
        token = tokens[index]
        if token is not kept_tokens[index]:
            if penguin_on is None:
                penguin_on = fields["penguin_on"]
                moved = penguin_on != kept.penguin_on
            _update_depth(fields, kept, index, penguin_on, moved)
            kept_tokens[index] = token
    if moved and penguin_on is not None:
        kept.penguin_on = dict(penguin_on)
    tokens = fields["board_tokens"]
    kept_tokens = kept.board_tokens
    for player in range(kept.players):
        token = tokens[player]
        if token is not kept_tokens[player]:
            _update_board(fields, kept, player)
            kept_tokens[player] = token
    if kept.solo:
        _update_ai(fields, kept)
    token = fields["discarded_token"]
    if token is not kept.discarded_token:
        _update_discarded(fields, kept)
        kept.discarded_token = token


def _optional(out: Any, slot: int, value: int, before: int) -> None:  # noqa: ANN401 - a float32 memoryview
    """An optional number: its presence slot, then its value (`_NONE`: absent), where `before` was written (`_NONE`:
    absent, `_NOTHING`: nothing written yet)."""
    if value == _NONE:
        if before != _NONE:
            out[slot] = 0.0
            out[slot + 1] = 0.0
        return
    if before == _NONE or before == _NOTHING:
        out[slot] = 1.0
    out[slot + 1] = float(value)


def _flag(out: Any, slot: int, value: int) -> None:  # noqa: ANN401 - a float32 memoryview
    out[slot] = 1.0 if value else 0.0


def _update_head(fields: dict[str, Any], kept: _Kept) -> None:
    """The table's fields that changed since last written (kept as ints: compared without a Python object)."""
    out = kept.out
    number: int = fields["round"]
    if number != kept.round:
        out[ROUND] = float(number)
        kept.round = number
    seat: int | None = fields["start_player"]
    number = _NONE if seat is None else seat
    if number != kept.start_player:
        _optional(out, START_PLAYER, number, kept.start_player)
        kept.start_player = number
    number = 1 if fields["last_dive"] else 0
    if number != kept.last_dive:
        _flag(out, _TOKEN_LAST_DIVE, number)
        _flag(out, _TOKEN_START_PLAYER, 1 - number)
        kept.last_dive = number
    number = 1 if fields["end_triggered"] else 0
    if number != kept.end_triggered:
        _flag(out, END_TRIGGERED, number)
        kept.end_triggered = number
    number = 1 if fields["final_round"] else 0
    if number != kept.final_round:
        _flag(out, FINAL_ROUND, number)
        kept.final_round = number
    seat = fields["active"]
    active: int = _NONE if seat is None else seat
    was: int = kept.active
    if active != was:
        # the view shows a seat as active, the AI's turn as a flag of its own
        _optional(out, ACTIVE, _NONE if active == _AI else active, was if was == _NOTHING or was != _AI else _NONE)
        if was == _NOTHING or (active == _AI) != (was == _AI):
            _flag(out, AI_TURN, 1 if active == _AI else 0)
        kept.active = active
    phase = fields["phase"]
    if phase is not kept.phase:
        slot: int = DECISION[phase]
        if kept.phase_slot >= 0:  # the slot of the phase written before
            out[kept.phase_slot] = 0.0
        out[slot] = 1.0
        kept.phase_slot = slot
        over: bool = phase == _OVER
        if over != kept.over:
            _flag(out, GAME_OVER, 1 if over else 0)
            kept.over = over
        kept.phase = phase
    depth: int = fields["depth"]
    was = kept.depth
    if depth != was:
        _optional(out, CURRENT_DEPTH, depth if depth else _NONE, was if was else _NONE)
        kept.depth = depth
    tile: int | None = fields["flipped"]
    number = _NONE if tile is None else tile
    if number != kept.flipped:
        out[JUST_FLIPPED:FLIPPED_END] = kept.places.flipped_slots(tile)
        kept.flipped = number


def _penguins(penguin_on: dict[int, Seat], inert: list[int]) -> list[int] | None:
    """The seat of the penguin on each inert tile, -1 where none is; None when no penguin is on any tile."""
    if not penguin_on:
        return None
    return [penguin_on.get(t, -1) for t in inert]


def _update_depth(fields: dict[str, Any], kept: _Kept, index: int, penguin_on: dict[int, Seat], moved: bool) -> None:
    """Depth `index + 1` (its token changed): what differs from the copies kept written again (a flip changes one
    unseen count, the face-down count and one tile list's last item). `moved`: whether the penguins on tiles
    (`penguin_on`) differ from the copy kept of them; where they do not and the inert tiles are as kept, so are the
    penguins on them (a tile lies at one depth, and penguins on another depth's tiles change that depth's token)."""
    out = kept.out
    at = DEPTH_ITEM + index * DEPTH_STRIDE
    places = kept.places
    tiles = places.tiles
    counts: list[int] = fields["face_down"]
    face_down = counts[index]
    if kept.face_down[index] != face_down:
        out[at + _D_FACE_DOWN] = float(face_down)
        kept.face_down[index] = face_down
    lists: list[list[int]] = fields["unseen"]
    unseen = lists[index]
    lists = fields["available"]
    available = lists[index]
    lists = fields["inert"]
    inert = lists[index]
    before = kept.unseen[index]
    if before != unseen:
        # A flip takes one tile out, which turns up as the tile just flipped or at the end of a tile list: found so,
        # the rest is checked in one comparison of lists.
        taken = -1
        copy: list[int] | None = None
        if len(unseen) == len(before) - 1:
            copy = _taken_out(before, unseen, kept.flipped)
            if copy is not None:
                taken = kept.flipped
            elif inert:
                taken = inert[len(inert) - 1]
                copy = _taken_out(before, unseen, taken)
            if copy is None and available:
                taken = available[len(available) - 1]
                copy = _taken_out(before, unseen, taken)
        if copy is not None:
            slot = at + places.unseen[taken]
            out[slot] = out[slot] - 1.0
            kept.unseen[index] = copy
        else:
            _update_unseen(places, before, unseen, out, at)
            kept.unseen[index] = list(unseen)
    now = available
    before = kept.available[index]
    if before != now:
        _D_AVAILABLE.update(tiles, before, now, out, at)
        kept.available[index] = list(now)
    now = inert
    before = kept.inert[index]
    if moved or before != now:
        penguins = _penguins(penguin_on, now)
        if before != now or kept.penguins[index] != penguins:
            _update_inert(tiles, before, kept.penguins[index], now, penguins, out, at)
            kept.inert[index] = list(now)
            kept.penguins[index] = penguins


def _taken_out(before: list[int], now: list[int], tile: int) -> list[int] | None:
    """A copy of `before` with `tile` taken out where that is `now`, else None."""
    if tile < 0:
        return None
    size = len(before)
    position = 0
    while position < size and before[position] != tile:
        position += 1
    if position == size:
        return None
    copy = list(before)
    del copy[position]
    return copy if copy == now else None


def _update_unseen(places: _Places, before: list[int], now: list[int], out: Any, at: int) -> None:  # noqa: ANN401
    """Make a depth's unseen counts (a count per tile, each tile once in the rules) at `at` in `out` (holding the
    counts of `before`) those of `now`: where `now` is `before` with tiles taken out (as the rules take them), only
    those tiles' counts drop; otherwise every count is written again."""
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
            slot = at + slots[t]
            out[slot] = out[slot] - 1.0
        return
    for t in before:
        out[at + slots[t]] = 0.0
    for t in now:
        slot = at + slots[t]
        out[slot] = out[slot] + 1.0


def _update_inert(tiles: Any, before: list[int], before_penguins: list[int] | None, now: list[int],  # noqa: ANN401
                  penguins: list[int] | None, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """Make a depth's inert tiles and the penguins on them at `at` in `out` (holding `before` and `before_penguins`)
    `now` and `penguins` (a seat per tile, -1 for none; None: no penguin on any): only the items that differ are
    written."""
    tile_list = _D_INERT
    count = len(now)
    check_cap(GAME, tile_list.path, count, tile_list.cap)
    had = len(before)
    if had != count or not had:
        out[at + tile_list.count] = float(count)
    rows = tile_list.tile_items(tiles)
    stride = tile_list.stride
    item = at + tile_list.first
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


def _update_board(fields: dict[str, Any], kept: _Kept, player: int) -> None:
    """The player's board (its token changed): what differs from the copies kept written again."""
    out = kept.out
    at = BOARD_ITEM + player * BOARD_STRIDE
    places = kept.places
    tiles = places.tiles
    tableaux: list[list[list[int]]] = fields["columns"]
    columns = tableaux[player]
    was = kept.columns[player]
    if was[0] != columns[0] or was[1] != columns[1] or was[2] != columns[2]:
        for colour in range(3):
            if was[colour] != columns[colour]:
                _B_COLUMNS[colour].update(tiles, was[colour], columns[colour], out, at)
        rows, score = _rows_and_score(places.values, columns)
        out[at + _B_SCORE] = float(score)
        out[at + _B_ROWS] = float(rows)
        kept.columns[player] = [list(column) for column in columns]
    lists: list[list[int]] = fields["rocks"]
    now = lists[player]
    before = kept.rocks[player]
    if before != now:
        _B_ROCKS.update(tiles, before, now, out, at)
        kept.rocks[player] = list(now)
    lists = fields["captured"]
    now = lists[player]
    before = kept.captured[player]
    if before != now:
        _update_captured(places, before, now, out, at)
        kept.captured[player] = list(now)


def _update_captured(places: _Places, before: list[int], now: list[int], out: Any, at: int) -> None:  # noqa: ANN401
    """A board's supply and captured penguins (their depths and tiles) at `at` in `out` (holding the penguins
    `before` captured): those of `now`."""
    depths = places.depths
    slots = places.captured
    count = len(now)
    had = len(before)
    out[at + _B_SUPPLY] = float(_PENGUINS - count)  # DeepDiveState.supply: every penguin not captured
    check_cap(GAME, "boards[].captured_depths", count, _B_DEPTHS_CAP)
    out[at + _B_DEPTHS] = float(count)
    same = 0  # the penguins captured before and now, in the same order
    while same < count and same < had and now[same] == before[same]:
        same += 1
    for position in range(same, had):
        t = before[position]
        slot = at + slots[t]
        out[slot] = out[slot] - 1.0
        out[at + _B_DEPTHS_FIRST + position] = 0.0
    for position in range(same, count):
        t = now[position]
        slot = at + slots[t]
        out[slot] = out[slot] + 1.0
        out[at + _B_DEPTHS_FIRST + position] = float(depths[t])


def _update_ai(fields: dict[str, Any], kept: _Kept) -> None:
    """The solo AI's part: its position when it moved, its tiles and score when its token changed."""
    out = kept.out
    position: int = fields["ai_position"]
    if position != kept.ai_position:
        out[AI_PART + _A_POSITION] = float(position)
        kept.ai_position = position
    token = fields["ai_token"]
    if token is kept.ai_token:
        return
    tiles = kept.places.tiles
    columns: list[list[int]] = fields["ai_columns"]
    rocks: list[int] = fields["ai_rocks"]
    open_water: list[int] = fields["ai_open_water"]
    was = kept.ai_columns
    changed = False
    if was[0] != columns[0] or was[1] != columns[1] or was[2] != columns[2]:
        for colour in range(3):
            if was[colour] != columns[colour]:
                _A_COLUMNS[colour].update(tiles, was[colour], columns[colour], out, AI_PART)
        kept.ai_columns = [list(column) for column in columns]
        changed = True
    if kept.ai_rocks != rocks:
        _A_ROCKS.update(tiles, kept.ai_rocks, rocks, out, AI_PART)
        kept.ai_rocks = list(rocks)
        changed = True
    if kept.ai_open_water != open_water:
        _A_OPEN_WATER.update(tiles, kept.ai_open_water, open_water, out, AI_PART)
        kept.ai_open_water = list(open_water)
        changed = True
    if changed:
        values = kept.places.values
        food = [[values[t] for t in column] for column in columns]
        out[AI_PART + _A_SCORE] = float(ai_score(food, len(rocks), len(open_water), kept.difficulty))
        out[AI_PART + _A_ROWS] = float(complete_rows(food))
    kept.ai_token = token


def _update_discarded(fields: dict[str, Any], kept: _Kept) -> None:
    """The discarded rocks (a count per tile), where they differ from the copy kept."""
    now: list[int] = fields["discarded"]
    before = kept.discarded
    if before == now:
        return
    out = kept.out
    slots = kept.places.discarded
    count = len(now)
    had = len(before)
    same = 0  # the rocks discarded before and now, in the same order
    while same < count and same < had and now[same] == before[same]:
        same += 1
    for position in range(same, had):
        slot = slots[before[position]]
        out[slot] = out[slot] - 1.0
    for position in range(same, count):
        slot = slots[now[position]]
        out[slot] = out[slot] + 1.0
    kept.discarded = list(now)


def encode(state: DeepDiveState, seat: Seat, slots: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding: the state's kept vector as one block (brought up to date where the
    state changed), the seat's number set over it."""
    kept = _kept(state)
    _set_seat(kept, seat)
    blocks = getattr(slots, "blocks", None)
    if blocks is not None:  # a `Slots`: its blocks are copied into the vector, its own slots set over them
        blocks.append((0, kept.values))
        slots[SEAT + 1] = float(seat)  # the seat's, whatever seat the kept vector shows when it is copied
        return
    values: Any = kept.values
    where = values.nonzero()[0]
    slots.update(zip(where.tolist(), values[where].tolist()))


def _set_seat(kept: _Kept, seat: Seat) -> None:
    """The seat's number in the kept vector (the seat handed a copy last: the seat to move, from one step to the next)."""
    if seat != kept.seat:
        kept.out[SEAT + 1] = float(seat)
        kept.seat = seat


def observation_vector(state: DeepDiveState, seat: Seat) -> np.ndarray:
    """`seat`'s observation vector, new: what `ViewEncoding.vector` makes of `encode`'s slots (a copy of the state's
    kept vector with the seat's number set), without the slots in between (`Table.encode` calls it)."""
    kept = _kept(state)
    _set_seat(kept, seat)
    result: np.ndarray = kept.values.copy()
    return result
