"""Fuji 99 conservation laws, checked at every node of random games: no cube or card appears or vanishes."""

from __future__ import annotations

import random

import pytest

from referee.chance import sample_outcome
from referee.errors import RuleError
from referee.games.fuji99 import GAME
from referee.games.fuji99.phases import CUBES
from referee.games.fuji99.state import CLEAR, RED, YELLOW, Fuji99State


def check_conservation(state: Fuji99State) -> None:
    n = state.players
    clear = sum(bag[CLEAR] for bag in state.bags) + state.pagoda + sum(state.cubes.values()) + state.draw[CLEAR]
    assert clear == 64
    drawn_yellow = state.draw[YELLOW] if state.phase == CUBES else state.available
    yellow = sum(bag[YELLOW] for bag in state.bags) + sum(state.yellow_left) + drawn_yellow + state.spent
    assert yellow == 6 * n
    drawn_red = 0 if state.reds_set_aside else state.draw[RED]
    assert sum(bag[RED] for bag in state.bags) + state.red_area + drawn_red == 3 * n
    cards = state.deck + state.discard + state.resolving
    cards += [card for hand in state.hands for card in hand]
    cards += [card for omens in state.omens for card, _ in omens]
    assert sorted(cards) == sorted(state.data.deck)
    assert set(state.cubes) == {card for hand in state.hands for card in hand}
    assert all(count >= 0 for bag in state.bags for count in bag)
    assert state.pos[state.active] <= state.m <= 99


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cubes_and_cards_are_conserved(players: int) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_initial_state(GAME.make_config(players))
        while not state.is_terminal():
            check_conservation(state)
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            else:
                options = state.legal_options(state.active)
                state.apply_decision(state.active, options[rng.randrange(len(options))].id)


def step(state: Fuji99State, outcome_or_option: str) -> None:
    """Apply an outcome at a chance node, the active seat's option otherwise."""
    if state.is_chance_node():
        state.apply_chance(outcome_or_option)
    else:
        state.apply_decision(state.active, outcome_or_option)


#: Ids to try at every node: every colour and card, and every kind of option on every card.
CANDIDATE_IDS = (
    ("clear", "yellow", "red", "blue", "draw:1", "draw:5", "draw:12", "stop", "continue", "end_use", "")
    + GAME.data.deck
    + tuple(f"{action}:{card}" for action in ("use", "place") for card in GAME.data.deck)
)


def test_exactly_the_listed_outcomes_and_options_are_accepted() -> None:
    """At every node of random games each id is accepted (on a clone) iff the node lists it."""
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.new_initial_state(GAME.make_config(3, {"max_rounds": 3}))
        while not state.is_terminal():
            chance = state.is_chance_node()
            listed = [o.id for o in (state.chance_outcomes() if chance else state.legal_options(state.active))]
            for candidate in sorted(set(CANDIDATE_IDS) | set(listed)):
                try:
                    step(state.clone(), candidate)
                except RuleError:
                    assert candidate not in listed, f"{candidate!r} refused at {state.phase}"
                else:
                    assert candidate in listed, f"{candidate!r} accepted at {state.phase} but not listed"
            step(state, sample_outcome(state.chance_outcomes(), rng).id if chance else rng.choice(listed))
