"""DEEP DIVE views: built field by field; every seat and a spectator see the same public facts (spec 5).

Each field is one small function of the state, listed in the order a view shows them, so the full
view (`build_view`) and the view whose fields are computed only when read (`LazyView`, for playout
policies that read a few fields of many views) are the same by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee import lazy_view
from referee.engine import Seat
from referee.games.deep_dive.scoring import complete_rows, row_score
from referee.games.deep_dive.state import AI, OVER, DeepDiveState
from referee.lazy_view import ABSENT, LazyPart



def _wire(state: DeepDiveState, indices: Sequence[int]) -> list[dict[str, Any]]:
    tiles = state.data.tiles
    return [tiles[t].to_wire() for t in indices]


def _ids(state: DeepDiveState, indices: Sequence[int]) -> list[str]:
    tiles = state.data.tiles
    return [tiles[t].id for t in indices]


#: The table's fields, in view order (spec 5).
TABLE_FIELDS: dict[str, Callable[[DeepDiveState], Any]] = {
    "players": lambda state: state.players,
    "solo": lambda state: state.solo,
    "ai_difficulty": lambda state: state.difficulty if state.solo else ABSENT,
    "round": lambda state: state.round,
    "start_player": lambda state: ABSENT if state.start_player is None else state.start_player,
    "token": lambda state: "last_dive" if state.last_dive else "start_player",
    "end_triggered": lambda state: state.end_triggered,
    "final_round": lambda state: state.final_round,
    "active": lambda state: state.active if state.active is not None and state.active != AI else ABSENT,
    "ai_turn": lambda state: state.active == AI,
    "decision": lambda state: state.phase,
    "current_depth": lambda state: state.depth if state.depth else ABSENT,
    "just_flipped": lambda state: ABSENT if state.flipped is None else state.data.tiles[state.flipped].to_wire(),
    "depths": lambda state: [depth_view(state, index) for index in range(5)],
    "boards": lambda state: [board_view(state, player) for player in range(state.players)],
    "ai": lambda state: ai_view(state) if state.solo else ABSENT,
    "discarded_rocks": lambda state: _ids(state, state.discarded),
    "game_over": lambda state: state.phase == OVER,
}


def _inert(state: DeepDiveState, index: int) -> list[dict[str, Any]]:
    tiles = state.data.tiles
    inert = []
    for t in state.inert[index]:
        entry: dict[str, Any] = {"tile": tiles[t].to_wire()}
        if t in state.penguin_on:
            entry["penguin"] = state.penguin_on[t]
        inert.append(entry)
    return inert


#: Each depth's fields (by list index: depth - 1), in view order.
DEPTH_FIELDS: dict[str, Callable[[DeepDiveState, int], Any]] = {
    "depth": lambda state, index: index + 1,
    "face_down": lambda state, index: state.face_down[index],
    "removed": lambda state, index: state.removed_per_depth,
    "unseen": lambda state, index: _ids(state, state.unseen[index]),
    "available": lambda state, index: _wire(state, state.available[index]),
    "inert": _inert,
}

#: Each seat's board fields, in view order.
BOARD_FIELDS: dict[str, Callable[[DeepDiveState, int], Any]] = {
    "seat": lambda state, player: player,
    "pink": lambda state, player: _wire(state, state.columns[player][0]),
    "green": lambda state, player: _wire(state, state.columns[player][1]),
    "yellow": lambda state, player: _wire(state, state.columns[player][2]),
    "rocks": lambda state, player: _wire(state, state.rocks[player]),
    "supply": lambda state, player: state.supply(player),
    "captured_depths": lambda state, player: [state.data.tiles[t].depth for t in state.captured[player]],
    "captured_tiles": lambda state, player: _ids(state, state.captured[player]),
    "score": lambda state, player: row_score(state.food_values(state.columns[player])),
    "complete_rows": lambda state, player: complete_rows(state.columns[player]),
}

#: The solo AI's fields, in view order (the second argument is unused: all parts' fields take two).
AI_FIELDS: dict[str, Callable[[DeepDiveState, int], Any]] = {
    "position": lambda state, _: state.ai_position,
    "pink": lambda state, _: _wire(state, state.ai_columns[0]),
    "green": lambda state, _: _wire(state, state.ai_columns[1]),
    "yellow": lambda state, _: _wire(state, state.ai_columns[2]),
    "rocks": lambda state, _: _wire(state, state.ai_rocks),
    "open_water": lambda state, _: _wire(state, state.ai_open_water),
    "score": lambda state, _: state.ai_totals()[0],
    "complete_rows": lambda state, _: complete_rows(state.ai_columns),
}


class _TileTables:
    """Per tile index, what views show of it, computed once per component table (tiles never change)."""

    __slots__ = ("tiles", "wire", "ids", "depths", "values", "scores")

    def __init__(self, tiles: Sequence[Any]) -> None:
        self.tiles = tiles
        self.wire: tuple[dict[str, Any], ...] = tuple(tile.to_wire() for tile in tiles)
        self.ids: tuple[str, ...] = tuple(tile.id for tile in tiles)
        self.depths: tuple[int, ...] = tuple(tile.depth for tile in tiles)
        self.values: tuple[int, ...] = tuple(tile.value for tile in tiles)
        #: a tableau's food columns (tile indices) -> (score, complete rows); tableaux only grow, so most repeat
        self.scores: dict[tuple[tuple[int, ...], ...], tuple[int, int]] = {}

    def tableau_score(self, columns: Sequence[Sequence[int]]) -> tuple[int, int]:
        """(score, complete rows) of food columns given as tile indices, remembered by their exact contents."""
        key = tuple(map(tuple, columns))
        scores = self.scores
        known = scores.get(key)
        if known is None:
            if len(scores) >= _SCORE_MEMORY:
                scores.clear()
            values = self.values
            known = scores[key] = (row_score([[values[t] for t in column] for column in key]), complete_rows(key))
        return known


_TABLES: dict[int, _TileTables] = {}
#: Tableau scores remembered per tile table before the memory is emptied (random play makes new ones forever).
_SCORE_MEMORY = 20_000


def tile_tables(state: DeepDiveState) -> _TileTables:
    """The tile tables of the state's component data (kept per tile table object, checked by identity)."""
    tiles = state.data.tiles
    tables = _TABLES.get(id(tiles))
    if tables is None or tables.tiles is not tiles:
        tables = _TABLES[id(tiles)] = _TileTables(tiles)
    return tables


def build_view(state: DeepDiveState, seat: Seat | None) -> dict[str, Any]:
    """The view of `seat` (None = spectator): the same public facts, plus the viewer's seat number.

    Written out field by field (the same fields, values and order as TABLE_FIELDS and the part tables,
    which a test checks), because every decision request and training step builds one.
    """
    tables = tile_tables(state)
    wire, ids = tables.wire, tables.ids
    view: dict[str, Any] = {}
    if seat is not None:
        view["seat"] = seat
    solo = state.solo
    view["players"] = state.players
    view["solo"] = solo
    if solo:
        view["ai_difficulty"] = state.difficulty
    view["round"] = state.round
    if state.start_player is not None:
        view["start_player"] = state.start_player
    view["token"] = "last_dive" if state.last_dive else "start_player"
    view["end_triggered"] = state.end_triggered
    view["final_round"] = state.final_round
    active = state.active
    if active is not None and active != AI:
        view["active"] = active
    view["ai_turn"] = active == AI
    view["decision"] = state.phase
    if state.depth:
        view["current_depth"] = state.depth
    if state.flipped is not None:
        view["just_flipped"] = wire[state.flipped].copy()
    face_down, removed, unseen, available, inert = (
        state.face_down,
        state.removed_per_depth,
        state.unseen,
        state.available,
        state.inert,
    )
    penguin_on = state.penguin_on
    depths = []
    for index in range(5):
        inert_view = []
        for t in inert[index]:
            entry: dict[str, Any] = {"tile": wire[t].copy()}
            if t in penguin_on:
                entry["penguin"] = penguin_on[t]
            inert_view.append(entry)
        depths.append(
            {
                "depth": index + 1,
                "face_down": face_down[index],
                "removed": removed,
                "unseen": [ids[t] for t in unseen[index]],
                "available": [wire[t].copy() for t in available[index]],
                "inert": inert_view,
            }
        )
    view["depths"] = depths
    boards = []
    for player in range(state.players):
        pink, green, yellow = columns = state.columns[player]
        captured = state.captured[player]
        score, rows = tables.tableau_score(columns)
        boards.append(
            {
                "seat": player,
                "pink": [wire[t].copy() for t in pink],
                "green": [wire[t].copy() for t in green],
                "yellow": [wire[t].copy() for t in yellow],
                "rocks": [wire[t].copy() for t in state.rocks[player]],
                "supply": state.supply(player),
                "captured_depths": [tables.depths[t] for t in captured],
                "captured_tiles": [ids[t] for t in captured],
                "score": score,
                "complete_rows": rows,
            }
        )
    view["boards"] = boards
    if solo:
        view["ai"] = ai_view(state)
    view["discarded_rocks"] = [ids[t] for t in state.discarded]
    view["game_over"] = state.phase == OVER
    return view


def depth_view(state: DeepDiveState, index: int) -> dict[str, Any]:
    """One depth's part of the table (`index` = depth - 1)."""
    return {name: field(state, index) for name, field in DEPTH_FIELDS.items()}


def board_view(state: DeepDiveState, player: int) -> dict[str, Any]:
    """One seat's board."""
    return {name: field(state, player) for name, field in BOARD_FIELDS.items()}


def ai_view(state: DeepDiveState) -> dict[str, Any]:
    """The solo AI's tableau and position."""
    return {name: field(state, 0) for name, field in AI_FIELDS.items()}


class LazyView(lazy_view.LazyView):
    """`build_view(state, seat)` whose fields are computed when first read; its depths, boards and AI are lazy too."""

    __slots__ = ()
    fields = TABLE_FIELDS
    parts = {
        "depths": lambda state: [LazyPart(state, index, DEPTH_FIELDS) for index in range(5)],
        "boards": lambda state: [LazyPart(state, player, BOARD_FIELDS) for player in range(state.players)],
        "ai": lambda state: LazyPart(state, 0, AI_FIELDS) if state.solo else ABSENT,
    }
