"""Fuji 99 views (spec §5): nothing is secret, so every seat and a spectator see the same fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import JsonValue
from referee.games.fuji99.phases import CUBES

if TYPE_CHECKING:
    from referee.games.fuji99.state import Fuji99State


def build_view(state: Fuji99State, seat: int | None) -> dict[str, JsonValue]:
    """The view of `seat` (None = spectator), field by field from the public table of §5."""
    view: dict[str, JsonValue] = {}
    if seat is not None:
        view["seat"] = seat
    view["players"] = state.players
    view["round"] = state.round
    view["max_rounds"] = state.max_rounds
    view["active"] = state.active
    view["phase"] = state.phase
    view["movement"] = state.m
    view["seats"] = [_player(state, player) for player in range(state.players)]
    clear, yellow, red = state.draw
    view["current_draw"] = {"clear": clear, "yellow": yellow, "red": red}
    view["cubes_to_draw"] = state.to_draw if state.phase == CUBES else 0
    view["red_area"] = state.red_area
    view["spent_yellow"] = state.spent
    view["available_yellow"] = state.available
    view["move_bonus"] = state.move_bonus(state.active)
    view["pagoda"] = state.pagoda
    view["yellow_on_20"] = state.yellow_left[0]
    view["yellow_on_50"] = state.yellow_left[1]
    view["deck_size"] = len(state.deck)
    view["discard"] = list(state.discard)
    view["resolving_echoes"] = list(state.resolving)
    if state.drawing is not None:
        view["drawing_card"] = state.drawing
    view["placed_this_stop"] = [{"card": card, "cubes": count} for card, count in state.placed.items()]
    view["cubes_to_place"] = state.to_place
    if state.winner is not None:
        view["winner"] = state.winner
    view["over"] = state.over
    return view


def _player(state: Fuji99State, seat: int) -> dict[str, JsonValue]:
    clear, yellow, red = state.bags[seat]
    return {
        "seat": seat,
        "position": state.pos[seat],
        "turns_taken": state.turns_taken[seat],
        "bag": {"clear": clear, "yellow": yellow, "red": red},
        "got20": state.got[seat][0],
        "got50": state.got[seat][1],
        "hand": [
            {"card": card, "type": state.card_type(card).type, "cubes": state.cubes.get(card, 0), "danger": state.card_danger(card)}
            for card in state.hands[seat]
        ],
        "hand_danger": state.hand_danger(seat),
        "omens": [{"card": card, "active": active} for card, active in state.omens[seat]],
    }
