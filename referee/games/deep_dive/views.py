"""DEEP DIVE views: built field by field; every seat and a spectator see the same public facts (spec 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.engine import Seat

if TYPE_CHECKING:
    from referee.games.deep_dive.state import DeepDiveState


def build_view(state: DeepDiveState, seat: Seat | None) -> dict[str, Any]:
    """The view of `seat` (None = spectator): the same public facts, plus the viewer's seat number."""
    from referee.games.deep_dive.state import AI, OVER

    tiles = state.data.tiles

    def wire(indices: Sequence[int]) -> list[dict[str, Any]]:
        return [tiles[t].to_wire() for t in indices]

    view: dict[str, Any] = {}
    if seat is not None:
        view["seat"] = seat
    view["players"] = state.players
    view["solo"] = state.solo
    if state.solo:
        view["ai_difficulty"] = state.difficulty
    view["round"] = state.round
    if state.start_player is not None:
        view["start_player"] = state.start_player
    view["token"] = "last_dive" if state.last_dive else "start_player"
    view["end_triggered"] = state.end_triggered
    view["final_round"] = state.final_round
    if state.active is not None and state.active != AI:
        view["active"] = state.active
    view["ai_turn"] = state.active == AI
    view["decision"] = state.phase
    if state.depth:
        view["current_depth"] = state.depth
    if state.flipped is not None:
        view["just_flipped"] = tiles[state.flipped].to_wire()
    depths = []
    for index in range(5):
        inert = []
        for t in state.inert[index]:
            entry: dict[str, Any] = {"tile": tiles[t].to_wire()}
            if t in state.penguin_on:
                entry["penguin"] = state.penguin_on[t]
            inert.append(entry)
        depths.append(
            {
                "depth": index + 1,
                "face_down": state.face_down[index],
                "removed": state.removed_per_depth,
                "unseen": [tiles[t].id for t in state.unseen[index]],
                "available": wire(state.available[index]),
                "inert": inert,
            }
        )
    view["depths"] = depths
    boards = []
    for player in range(state.players):
        score, rows = state.seat_score(player)
        pink, green, yellow = state.columns[player]
        boards.append(
            {
                "seat": player,
                "pink": wire(pink),
                "green": wire(green),
                "yellow": wire(yellow),
                "rocks": wire(state.rocks[player]),
                "supply": state.supply(player),
                "captured_depths": [tiles[t].depth for t in state.captured[player]],
                "captured_tiles": [tiles[t].id for t in state.captured[player]],
                "score": score,
                "complete_rows": rows,
            }
        )
    view["boards"] = boards
    if state.solo:
        ai_points, ai_rows = state.ai_totals()
        pink, green, yellow = state.ai_columns
        view["ai"] = {
            "position": state.ai_position,
            "pink": wire(pink),
            "green": wire(green),
            "yellow": wire(yellow),
            "rocks": wire(state.ai_rocks),
            "open_water": wire(state.ai_open_water),
            "score": ai_points,
            "complete_rows": ai_rows,
        }
    view["discarded_rocks"] = [tiles[t].id for t in state.discarded]
    view["game_over"] = state.phase == OVER
    return view
