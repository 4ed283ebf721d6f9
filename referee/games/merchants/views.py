"""Merchants of B99 views (spec section 5): what a seat (or a spectator) may know, field by field.

Views read the state; the state never imports them (it reaches `build_view` through its game).
"""

from __future__ import annotations

from typing import Any

from referee.engine import Seat
from referee.errors import RuleError
from referee.games.merchants.state import OVER, MerchantsState


def _public_player(state: MerchantsState, seat: Seat) -> dict[str, Any]:
    player = state.players_state[seat]
    view: dict[str, Any] = {
        "seat": seat,
        "score": player.score,
        "shop": [
            {"tile": tile, "row": row, "col": col, "rotation": rotation}
            for (row, col), (tile, rotation) in sorted(player.shop.items())
        ],
        "discards": list(player.discards),
        "unused_chips": list(player.unused_chips),
        "chips": [
            {"round": chip.round, "dungeon": chip.dungeon, "thumb": chip.thumb, "points": chip.points}
            for chip in player.chips
        ],
        "hand_size": len(player.bundle.tiles) if player.bundle is not None else 0,
        "reputation_count": len(player.reputation),
    }
    if player.final is not None:
        view["final"] = player.final
    return view


def public_view(state: MerchantsState) -> dict[str, Any]:
    """What everyone sees: the layout (trend cards once revealed), every shop, discards, chips and counts."""
    revealed = state.trends_revealed()
    view: dict[str, Any] = {
        "players": state.players,
        "round": state.round,
        "pick": state.pick,
        "phase": state.phase,
        "solo": state.solo,
        "personal_board_back": state.back_side,
        "layout": state.layout_rows(with_hidden=revealed),
        "seats": [_public_player(state, seat) for seat in range(state.players)],
        "supply_size": len(state.supply),
        "reputation_deck_size": len(state.reputation_deck),
        "solo_removed": list(state.solo_removed),
    }
    if revealed and state.d_card is not None:
        view["d_card"] = state.d_card
        view["d_kind"] = state.data.grey_kinds[state.grey["D"]]
    if state.phase != OVER and state.round >= 1 and not state.solo:
        view["pass_direction"] = "right" if state.round == 2 else "left"
    return view


def build_view(state: MerchantsState, seat: Seat | None) -> dict[str, Any]:
    """The view of `seat` (None = spectator): the public view plus its own hand, reputation cards and answers."""
    if seat is None:
        return public_view(state)
    if not 0 <= seat < state.players:
        raise RuleError(f"merchants: no seat {seat} in a {state.players}-player game")
    view = public_view(state)
    player = state.players_state[seat]
    view["seat"] = seat
    view["hand"] = sorted(player.bundle.tiles) if player.bundle is not None else []
    view["reputation_hand"] = sorted(player.reputation)
    view["returned_reputation"] = list(player.returned)
    if player.pending_tile is not None:
        view["pending_tile"] = player.pending_tile
    if player.pending_target is not None:
        row, col, mode = player.pending_target
        view["pending_target"] = {"row": row, "col": col, "mode": mode}
    return view
