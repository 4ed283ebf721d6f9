"""Driving a state forward without bots: sample chance nodes with an RNG, choose options with a policy."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from referee.chance import sample_outcome
from referee.engine import GameState, Option, Seat

Policy = Callable[[GameState, Seat, list[Option], random.Random], Option]


def random_policy(state: GameState, seat: Seat, options: list[Option], rng: random.Random) -> Option:
    """A uniformly random legal option."""
    return options[rng.randrange(len(options))]


def step(state: GameState, rng: random.Random, policy: Policy = random_policy) -> Mapping[Seat, str] | str:
    """Advance one node: a chance outcome (returns its id) or every deciding seat's choice (returns them)."""
    if state.is_chance_node():
        outcome = sample_outcome(state.chance_outcomes(), rng)
        state.apply_chance(outcome.id)
        return outcome.id
    choices = {
        seat: policy(state, seat, list(state.legal_options(seat)), rng).id for seat in state.deciding_seats()
    }
    state.apply_decisions(choices)
    return choices


def play_out(state: GameState, rng: random.Random, policy: Policy = random_policy, max_steps: int = 1_000_000) -> int:
    """Play to the end; returns the number of steps. Raises RuntimeError past `max_steps` (an engine bug)."""
    steps = 0
    while not state.is_terminal():
        step(state, rng, policy)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"{state.game.id}: no end after {max_steps} steps")
    return steps
