"""Fuji 99 views (spec §5): nothing is secret, so every seat and a spectator see the same fields.

Each field is one small function of the state, listed in the order a view shows them, so the full
view (`build_view`) and the view whose fields are computed only when read (`LazyView`, for playout
policies that read a few fields of many views) are the same by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee import lazy_view
from referee.engine import JsonValue
from referee.games.fuji99.phases import CUBES
from referee.lazy_view import ABSENT, LazyPart

if TYPE_CHECKING:
    from referee.games.fuji99.state import Fuji99State

def _current_draw(state: Fuji99State) -> JsonValue:
    clear, yellow, red = state.draw
    return {"clear": clear, "yellow": yellow, "red": red}


#: The table's fields, in view order (spec §5).
TABLE_FIELDS: dict[str, Callable[[Fuji99State], JsonValue]] = {
    "players": lambda state: state.players,
    "round": lambda state: state.round,
    "max_rounds": lambda state: state.max_rounds,
    "active": lambda state: state.active,
    "phase": lambda state: state.phase,
    "movement": lambda state: state.m,
    "seats": lambda state: [seat_view(state, player) for player in range(state.players)],
    "current_draw": _current_draw,
    "cubes_to_draw": lambda state: state.to_draw if state.phase == CUBES else 0,
    "red_area": lambda state: state.red_area,
    "spent_yellow": lambda state: state.spent,
    "available_yellow": lambda state: state.available,
    "move_bonus": lambda state: state.move_bonus(state.active),
    "pagoda": lambda state: state.pagoda,
    "yellow_on_20": lambda state: state.yellow_left[0],
    "yellow_on_50": lambda state: state.yellow_left[1],
    "deck_size": lambda state: len(state.deck),
    "discard": lambda state: list(state.discard),
    "resolving_echoes": lambda state: list(state.resolving),
    "drawing_card": lambda state: ABSENT if state.drawing is None else state.drawing,
    "placed_this_stop": lambda state: [{"card": card, "cubes": count} for card, count in state.placed.items()],
    "cubes_to_place": lambda state: state.to_place,
    "winner": lambda state: ABSENT if state.winner is None else state.winner,
    "over": lambda state: state.over,
}


def _bag(state: Fuji99State, seat: int) -> JsonValue:
    clear, yellow, red = state.bags[seat]
    return {"clear": clear, "yellow": yellow, "red": red}


def _hand(state: Fuji99State, seat: int) -> JsonValue:
    return [
        {"card": card, "type": state.card_type(card).type, "cubes": state.cubes.get(card, 0), "danger": state.card_danger(card)}
        for card in state.hands[seat]
    ]


#: Each seat's fields, in view order.
SEAT_FIELDS: dict[str, Callable[[Fuji99State, int], JsonValue]] = {
    "seat": lambda state, seat: seat,
    "position": lambda state, seat: state.pos[seat],
    "turns_taken": lambda state, seat: state.turns_taken[seat],
    "bag": _bag,
    "got20": lambda state, seat: state.got[seat][0],
    "got50": lambda state, seat: state.got[seat][1],
    "hand": _hand,
    "hand_danger": lambda state, seat: state.hand_danger(seat),
    "omens": lambda state, seat: [{"card": card, "active": active} for card, active in state.omens[seat]],
}


def build_view(state: Fuji99State, seat: int | None) -> dict[str, JsonValue]:
    """The view of `seat` (None = spectator), field by field from the public table of §5.

    Written out (the same fields, values and order as TABLE_FIELDS and SEAT_FIELDS, which a test
    checks), because every decision request and training step builds one.
    """
    view: dict[str, JsonValue] = {}
    if seat is not None:
        view["seat"] = seat
    card_type = state.data.card_type
    cubes = state.cubes
    cubes_get = cubes.get
    seats: list[JsonValue] = []
    for player in range(state.players):
        clear, yellow, red = state.bags[player]
        got = state.got[player]
        hand: list[JsonValue] = []
        hand_danger = 0
        for card in state.hands[player]:
            kind = card_type[card]
            on_card = cubes_get(card, 0)
            danger = on_card if kind.danger is None else kind.danger
            hand_danger += danger
            hand.append({"card": card, "type": kind.type, "cubes": on_card, "danger": danger})
        seats.append(
            {
                "seat": player,
                "position": state.pos[player],
                "turns_taken": state.turns_taken[player],
                "bag": {"clear": clear, "yellow": yellow, "red": red},
                "got20": got[0],
                "got50": got[1],
                "hand": hand,
                "hand_danger": hand_danger,
                "omens": [{"card": card, "active": active} for card, active in state.omens[player]],
            }
        )
    clear, yellow, red = state.draw
    phase = state.phase
    view["players"] = state.players
    view["round"] = state.round
    view["max_rounds"] = state.max_rounds
    view["active"] = state.active
    view["phase"] = phase
    view["movement"] = state.m
    view["seats"] = seats
    view["current_draw"] = {"clear": clear, "yellow": yellow, "red": red}
    view["cubes_to_draw"] = state.to_draw if phase == CUBES else 0
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


def seat_view(state: Fuji99State, seat: int) -> dict[str, JsonValue]:
    """One seat's part of the table."""
    return {name: field(state, seat) for name, field in SEAT_FIELDS.items()}


class LazyView(lazy_view.LazyView):
    """`build_view(state, seat)` whose fields (and each seat's) are computed when first read."""

    __slots__ = ()
    fields = TABLE_FIELDS
    parts = {"seats": lambda state: [LazyPart(state, player, SEAT_FIELDS) for player in range(state.players)]}
