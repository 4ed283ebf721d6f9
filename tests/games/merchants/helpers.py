"""Building Merchants of B99 positions for tests: shops from the spec's grid notation, scripted play."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from referee.chance import sample_outcome
from referee.games.merchants import GAME
from referee.games.merchants.data import Tile, load_data
from referee.games.merchants.shop import Cell, Placed
from referee.games.merchants.state import MerchantsState

DATA = load_data()


def shop(rows: Sequence[str]) -> dict[Cell, Placed]:
    """Cells of a shop written as in the spec's section 9: rows of 'X' or 'X@rotation' or '.', top-left (0,0)."""
    cells: dict[Cell, Placed] = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            if token == ".":
                continue
            tile, _, rotation = token.partition("@")
            cells[(r, c)] = (tile, int(rotation or 0))
    return cells


def tiles(rows: Sequence[str]) -> dict[Cell, Tile]:
    """The same shop as cells mapped to tile data (what the pattern engine scores)."""
    return {cell: DATA.tiles[tile] for cell, (tile, _) in shop(rows).items()}


def new_state(players: int, **variants: object) -> MerchantsState:
    state = GAME.new_initial_state(GAME.make_config(players, variants))
    assert isinstance(state, MerchantsState)
    return state


ChancePicker = Callable[[MerchantsState], str | None]
Decider = Callable[[MerchantsState, int], str | None]


def play_until(
    state: MerchantsState,
    done: Callable[[MerchantsState], bool],
    rng: random.Random | None = None,
    chance: ChancePicker | None = None,
    decide: Decider | None = None,
) -> MerchantsState:
    """Play on until `done(state)`: chance by `chance` (or randomly), decisions by `decide` (or the first option)."""
    rng = rng or random.Random(0)
    while not done(state):
        if state.is_terminal():
            raise AssertionError("the game ended before the wanted position")
        if state.is_chance_node():
            wanted = chance(state) if chance else None
            state.apply_chance(wanted or sample_outcome(state.chance_outcomes(), rng).id)
        else:
            choices = {}
            for seat in state.deciding_seats():
                wanted = decide(state, seat) if decide else None
                choices[seat] = wanted or state.legal_options(seat)[0].id
            state.apply_decisions(choices)
    return state


def at_decision(name: str, round_number: int | None = None) -> Callable[[MerchantsState], bool]:
    """A `done` predicate: the first node where every seat faces decision `name` (in round `round_number`)."""

    def done(state: MerchantsState) -> bool:
        return (
            bool(state.deciding_seats())
            and state.decision_name(0) == name
            and (round_number is None or state.round == round_number)
        )

    return done
