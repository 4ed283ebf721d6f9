"""Driving Underground Dice states in tests: explicit decisions, forced ones applied like the referee does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.underground_dice.state import SET_PINS, UndergroundDiceState
from referee.registry import get_game

GAME = get_game("underground_dice")


def new_state(variants: Mapping[str, Any] | None = None, deal: Sequence[int] | None = None) -> UndergroundDiceState:
    """A fresh game; under the counterfeit rule `deal` gives each seat's dealt counterfeits (explicit chance outcomes)."""
    state = GAME.new_initial_state(GAME.make_config(2, variants or {}))
    assert isinstance(state, UndergroundDiceState)
    if deal is not None:
        for fakes in deal:
            state.apply_chance(f"counterfeits:{fakes}")
    return state


def set_position(
    state: UndergroundDiceState,
    parent: int,
    hands: Sequence[int] | Sequence[tuple[int, int]],
    p: int = 3,
    q: int = 3,
    completed: Sequence[int] = (0, 0),
) -> UndergroundDiceState:
    """State construction for examples that start mid-game: the start of a round with these roles and holdings.

    `hands` are bill counts, or (genuine, counterfeit) pairs under the counterfeit rule. The event log
    keeps only the real start of the game; everything the rules read is set here.
    """
    if state.phase != SET_PINS:
        raise ValueError("set_position needs a state at the start of a round")
    state.parent = parent
    for seat, hand in enumerate(hands):
        genuine, fakes = hand if isinstance(hand, tuple) else (hand, 0)
        state.genuine[seat] = genuine
        state.fakes[seat] = fakes
    state.p, state.q = p, q
    state.completed = list(completed)
    state.turns_done = sum(completed)
    state.turn_number = state.turns_done + 1
    return state


def option_ids(state: UndergroundDiceState) -> list[str]:
    """The option ids of the one deciding seat."""
    (seat,) = state.deciding_seats()
    return [option.id for option in state.legal_options(seat)]


def decide(state: UndergroundDiceState, *option_ids_in_order: str) -> None:
    """Apply each option id for whichever seat decides at that point."""
    for option_id in option_ids_in_order:
        (seat,) = state.deciding_seats()
        state.apply_decision(seat, option_id)


def apply_forced(state: UndergroundDiceState) -> list[str]:
    """Apply single-option decisions as the referee does; returns the ids applied."""
    applied = []
    while not state.is_terminal() and not state.is_chance_node():
        (seat,) = state.deciding_seats()
        options = state.legal_options(seat)
        if len(options) != 1:
            break
        state.apply_decision(seat, options[0].id)
        applied.append(options[0].id)
    return applied


def hands(state: UndergroundDiceState) -> list[int]:
    return [state.hand(0), state.hand(1)]


def split(state: UndergroundDiceState, seat: int) -> tuple[int, int]:
    return state.genuine[seat], state.fakes[seat]


def events_since(state: UndergroundDiceState, start: int, seat: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(kind, data) of the events from log index `start` on that `seat` sees (None = a spectator)."""
    return [(e.kind, dict(e.data)) for e in state.events_for(seat, start)]


def play_miss_rounds(state: UndergroundDiceState, rounds: int) -> None:
    """Play one whole parent turn in `rounds` rounds (1 or 2); each round the child stakes 1 and misses."""
    plans = {1: [("pins:3", "faces:444", 15)], 2: [("pins:3", "faces:none", 3), ("pins:0", "faces:444", 12)]}
    for pins, faces, total in plans[rounds]:
        decide(state, pins, faces, "stake:1")
        if state.phase == "stake_fakes":
            decide(state, "fakes:0")
        wrong = next(o for o in option_ids(state) if o != f"guess:{total}")
        decide(state, wrong)
        if state.phase == "accept_or_accuse":
            decide(state, "accept")
