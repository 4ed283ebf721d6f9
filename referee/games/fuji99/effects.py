"""Fuji card effects: one small function per effect kind, registered by kind; cards name their kind in the data.

An effect has up to three parts: `on_use` (S4, after the cost is paid and the card's cubes went to
the bag), `on_draw` (instant cards, the moment anyone draws them) and `move_bonus` (persistent:
added to every S3 move while the card is in hand). The turn loop only calls these hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.games.fuji99.state import Fuji99State

Params = Mapping[str, Any]
#: (state, card id, params, clear cubes that were on the card) -> True if the card went somewhere else than the discard pile.
UseHook = Callable[["Fuji99State", str, Params, int], bool]
#: (state, drawer, card id, params): the card is out of every pile while it resolves.
DrawHook = Callable[["Fuji99State", int, str, Params], None]
#: (params) -> extra spaces per S3 move while the card is held.
BonusHook = Callable[[Params], int]


@dataclass(frozen=True, slots=True)
class Effect:
    """The code of one effect kind; `params` names the integer parameters the data must give it."""

    kind: str
    params: tuple[str, ...] = ()
    on_use: UseHook | None = None
    on_draw: DrawHook | None = None
    move_bonus: BonusHook | None = None


EFFECTS: dict[str, Effect] = {}


def register(effect: Effect) -> None:
    """Add an effect kind to the registry (one kind, one effect)."""
    if effect.kind in EFFECTS:
        raise ValueError(f"effect kind {effect.kind!r} registered twice")
    EFFECTS[effect.kind] = effect


# ----- use effects ------------------------------------------------------------------


def _move(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    state.advance(params["spaces"], card)
    return False


def _move_by_drawn_clear(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    state.advance(state.draw[0], card)
    return False


def _move_by_own_cubes(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    state.advance(cubes, card)
    return False


def _return_red(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    state.return_red_to_bag(params["count"], card)
    return False


def _rope(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    if state.players == 2:
        state.advance(state.data.two_player_rope_spaces, card)
    else:
        above = [state.pos[seat] for seat in range(state.players) if seat != state.active and state.pos[seat] > state.m]
        if not above:
            state.emit("no_effect", seat=state.active, card=card, reason="nobody is above the movement piece")
            return False
        state.advance(min(above) - state.m, card)
    if params["bonus"] and not state.over:
        state.advance(params["bonus"], card)
    return False


def _omen_to_leader(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    standing = [state.effective_position(seat) for seat in range(state.players)]
    best = max(standing)
    leaders = [seat for seat, value in enumerate(standing) if value == best]
    if len(leaders) != 1:
        state.emit("omen_given", card=card, tied=leaders)
        return False
    state.add_omen(leaders[0], card)
    state.emit("omen_given", card=card, to=leaders[0], tied=[])
    return True


def _all_take_clear(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    for offset in range(state.players):
        state.take_clear_from_pagoda((state.active + offset) % state.players, params["count"], card)
    return False


def _take_clear(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    state.take_clear_from_pagoda(state.active, params["count"], card)
    return False


def _nothing(state: Fuji99State, card: str, params: Params, cubes: int) -> bool:
    state.emit("no_effect", seat=state.active, card=card, reason="this card does nothing when used")
    return False


# ----- instant and persistent parts -------------------------------------------------


def _echo(state: Fuji99State, drawer: int, card: str, params: Params) -> None:
    others = [(drawer + offset) % state.players for offset in range(1, state.players)]
    state.emit("echo_start", drawer=drawer, card=card, order=others + [drawer])
    state.schedule_echo(drawer, card, others)


def _s3_bonus(params: Params) -> int:
    return int(params["spaces"])


register(Effect("move", ("spaces",), on_use=_move))
register(Effect("move_by_drawn_clear", on_use=_move_by_drawn_clear))
register(Effect("move_by_own_cubes", on_use=_move_by_own_cubes))
register(Effect("return_red", ("count",), on_use=_return_red))
register(Effect("rope", ("bonus",), on_use=_rope))
register(Effect("omen_to_leader", on_use=_omen_to_leader))
register(Effect("all_take_clear", ("count",), on_use=_all_take_clear))
register(Effect("take_clear", ("count",), on_use=_take_clear))
register(Effect("s3_bonus", ("spaces",), on_use=_nothing, move_bonus=_s3_bonus))
register(Effect("echo", on_draw=_echo))
