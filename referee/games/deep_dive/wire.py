"""DEEP DIVE's typed messages on the wire, and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order;
each tile's message is serialized once per tile table. Tests compare the two on random games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from b99.games import deep_dive_pb2 as pb

from referee.engine import Seat
from referee.games.deep_dive.scoring import AI_OPEN_WATER_POINTS, AI_ROCK_POINTS
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from referee.games.deep_dive.views import tile_tables
from referee.wire import (
    SMALL_VARINTS,
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
    """Per tile index, each field a tile appears in, serialized once per tile table (tiles never change)."""

    __slots__ = (
        "tiles", "pink", "green", "yellow", "rocks", "available", "open_water", "flipped", "inert", "inert_entries", "unseen",
        "unseen_width", "last_unseen",
        "captured", "discarded", "depths", "boards", "ai_tableaux", "tables", "turns", "discards", "values", "depth_of",
        "depth_counts",
    )

    def __init__(
        self, tiles: Sequence[object], wire: Sequence[dict[str, object]], ids: Sequence[str], values: Sequence[int],
        depths: Sequence[int],
    ) -> None:
        self.tiles = tiles
        #: each tile's food value and depth
        self.values: tuple[int, ...] = tuple(values)
        self.depth_of: tuple[int, ...] = tuple(depths)
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
        #: every unseen element's length where all are alike and tile indices fit a byte, else 0 (`_unseen_part`)
        self.unseen_width = len(self.unseen[0]) if 0 < len(self.unseen) <= 256 and len(set(map(len, self.unseen))) == 1 else 0
        #: per depth, the unseen tiles last written (indices as bytes) and their part
        self.last_unseen: list[tuple[bytes, bytes]] = [(b"", b"")] * 5
        self.captured = tuple(CAPTURED_TILES + name for name in names)
        self.discarded = tuple(DISCARDED + name for name in names)
        #: depths, boards and discarded rocks already written, by the engine's token of each
        self.depths = Blocks()
        self.boards = Blocks()
        #: the solo AI's board but its position (View.AiBoard fields 2-8), by the AI's token and difficulty
        self.ai_tableaux = Blocks()
        self.discards = Blocks()
        #: the table's scalars (View fields 2-9) and the turn's (10-14) already written, by what they show
        self.tables = Blocks()
        self.turns = Blocks(TURNS_KEPT)


def _framed(body: bytes) -> bytes:
    return varint(len(body)) + body


#: turn parts of the head kept (seat, phase, depth and flipped tile: a few thousand in all)
TURNS_KEPT: Final = 4096
_WIRE_TILES: Final[dict[int, _WireTiles]] = {}


#: the tile table last written from (one game's components: checked by identity before any lookup)
_LAST: Final[list[_WireTiles]] = []


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


def _board(
    state: DeepDiveState,
    tiles: _WireTiles,
    player: int,
    pink: list[int],
    green: list[int],
    yellow: list[int],
    rocks: list[int],
    captured: list[int],
) -> bytes:
    """One seat's board as View field 16."""
    pinks, greens, yellows, rock_fields, captured_fields = tiles.pink, tiles.green, tiles.yellow, tiles.rocks, tiles.captured
    parts = [BOARD_SEATS[player] if player < len(BOARD_SEATS) else varint_field(BOARD_SEAT, player)]
    for t in pink:
        parts.append(pinks[t])
    for t in green:
        parts.append(greens[t])
    for t in yellow:
        parts.append(yellows[t])
    for t in rocks:
        parts.append(rock_fields[t])
    parts.append(varint_field(SUPPLY, state.supply(player)))
    if captured:
        parts.append(packed_field(CAPTURED_DEPTHS, [tiles.depth_of[t] for t in captured]))
        for t in captured:
            parts.append(captured_fields[t])
    score, rows = _row_score(tiles.values, pink, green, yellow)
    parts.append(varint_field(SCORE, score))
    parts.append(varint_field(COMPLETE_ROWS, rows))
    board = b"".join(parts)
    size = len(board)
    return BOARDS + (SMALL_VARINTS[size] if size < 1024 else varint(size)) + board


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


def _ai_board(state: DeepDiveState, tiles: _WireTiles, position: int) -> bytes:
    """The solo AI's tableau and position as View field 17: all but the position kept by the AI's token (its
    track position moves at every AI turn, its tiles and score only when it takes one)."""
    tableau_key = (state.ai_token, state.difficulty)
    tableau = tiles.ai_tableaux.get(tableau_key)
    if tableau is None:
        columns = state.ai_columns
        pinks, greens, yellows, rock_fields, open_water = tiles.pink, tiles.green, tiles.yellow, tiles.rocks, tiles.open_water
        parts = [pinks[t] for t in columns[0]]
        parts += [greens[t] for t in columns[1]]
        parts += [yellows[t] for t in columns[2]]
        parts += [rock_fields[t] for t in state.ai_rocks]
        parts += [open_water[t] for t in state.ai_open_water]
        score, rows = _ai_score(tiles.values, columns, len(state.ai_rocks), len(state.ai_open_water), state.difficulty)
        parts.append(varint_field(AI_SCORE, score))
        parts.append(varint_field(AI_COMPLETE_ROWS, rows))
        tableau = tiles.ai_tableaux.keep(tableau_key, b"".join(parts))
    return message_field(AI_BOARD, varint_field(AI_POSITION, position) + tableau)


def view_bytes(state: DeepDiveState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat,
    then what every seat sees, written once for all of a decision's requests when `shared` is given."""
    public = shared_part(shared, "public", _public, state)
    return SEAT + varint(seat) + public


def _depth_block(state: DeepDiveState, tiles: _WireTiles, index: int) -> bytes:
    """Depth `index + 1` as View field 15, from the state."""
    face_down, removed = state.face_down[index], state.removed_per_depth
    counts = tiles.depth_counts.get((index, face_down, removed))
    if counts is None:
        counts = tiles.depth_counts[(index, face_down, removed)] = (
            DEPTH_NUMBERS[index] + varint_field(FACE_DOWN, face_down) + varint_field(REMOVED, removed)
        )
    available = tiles.available
    parts = [counts, _unseen_part(tiles, index, state.unseen[index])]
    for t in state.available[index]:
        parts.append(available[t])
    inert = state.inert[index]
    if inert:
        penguin_on = state.penguin_on
        inert_entries = tiles.inert_entries
        for t in inert:
            penguin = penguin_on.get(t) if penguin_on else None
            if penguin is None:
                parts.append(inert_entries[t])
            else:
                parts.append(message_field(INERT, tiles.inert[t] + INERT_PENGUIN + varint(penguin)))
    depth = b"".join(parts)
    size = len(depth)
    return DEPTHS + (SMALL_VARINTS[size] if size < 1024 else varint(size)) + depth


def _unseen_part(tiles: _WireTiles, index: int, unseen: list[int]) -> bytes:
    """Depth `index + 1`'s unseen tiles (View.Depth field 4, every element): a flip takes one tile out of the
    list, so the part last written for this depth is cut where that tile was instead of written again (found
    by the tile indices as bytes, compared; any other change is written in full)."""
    width = tiles.unseen_width
    if not width:
        return b"".join([tiles.unseen[t] for t in unseen])
    key = bytes(unseen)
    last_key, last_part = tiles.last_unseen[index]
    if key == last_key:
        return last_part
    count = len(key)
    part = b""
    if count == len(last_key) - 1:
        cut = 0
        while cut < count and key[cut] == last_key[cut]:
            cut += 1
        if key[cut:] == last_key[cut + 1:]:
            part = last_part[:cut * width] + last_part[(cut + 1) * width:]
    if not part and count:
        part = b"".join([tiles.unseen[t] for t in unseen])
    tiles.last_unseen[index] = (key, part)
    return part


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
    # The state's attributes read from its __dict__: compiled, reading an attribute of an interpreted object goes
    # through its type's attribute lookup first (some 300 instructions), a dict lookup of a constant name costs a
    # third of that, and a view reads some twenty.
    fields: dict[str, Any] = state.__dict__
    tiles = _wire_tiles(state)
    solo = fields["solo"]
    phase = fields["phase"]
    table_key = (
        fields["config"].players, solo, fields["difficulty"] if solo else None, fields["round"], fields["start_player"],
        fields["last_dive"], fields["end_triggered"], fields["final_round"],
    )
    table = tiles.tables.get(table_key)
    if table is None:
        table = tiles.tables.keep(table_key, _table(*table_key))
    turn_key = (fields["active"], phase, fields["depth"], fields["flipped"])
    turn = tiles.turns.get(turn_key)
    if turn is None:
        turn = tiles.turns.keep(turn_key, _turn(tiles, *turn_key))
    parts = [table, turn]
    # Each part found by the token the engine replaces wherever that part changes (DeepDiveState.depth_tokens...).
    depths = tiles.depths
    for index, token in enumerate(fields["depth_tokens"]):
        block = depths.get(token)
        if block is None:
            block = depths.keep(token, _depth_block(state, tiles, index))
        parts.append(block)
    boards = tiles.boards
    for player, token in enumerate(fields["board_tokens"]):
        block = boards.get(token)
        if block is None:
            pink, green, yellow = state.columns[player]
            block = boards.keep(token, _board(state, tiles, player, pink, green, yellow, state.rocks[player], state.captured[player]))
        parts.append(block)
    if solo:
        parts.append(_ai_board(state, tiles, fields["ai_position"]))
    discarded_token = fields["discarded_token"]
    discarded = tiles.discards.get(discarded_token)
    if discarded is None:
        discarded = tiles.discards.keep(discarded_token, b"".join([tiles.discarded[t] for t in state.discarded]))
    parts.append(discarded)
    parts.append(GAME_OVER_FIELDS[phase == OVER])
    return b"".join(parts)


TOKEN_LAST_DIVE: Final = string_field(TOKEN, "last_dive")
TOKEN_START_PLAYER: Final = string_field(TOKEN, "start_player")
GAME_OVER_FIELDS: Final = (varint_field(GAME_OVER, False), varint_field(GAME_OVER, True))
DEPTH_NUMBERS: Final = tuple(DEPTH + varint(index + 1) for index in range(5))
BOARD_SEATS: Final = tuple(varint_field(BOARD_SEAT, player) for player in range(8))


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
