"""A game's wire that names a deciding seat's decision itself (`GameWire.decision_of`) names it as the engine does."""

from __future__ import annotations

import random

import pytest

from referee.chance import sample_outcome
from referee.registry import all_games, get_game
from referee.wire import get_wire

NAMED_BY_THE_WIRE = [game.id for game in all_games() if get_wire(game.id).decision_of is not None]


def test_deep_dive_names_its_decisions_in_its_wire() -> None:
    assert "deep_dive" in NAMED_BY_THE_WIRE


@pytest.mark.parametrize("game_id", NAMED_BY_THE_WIRE)
def test_the_wire_names_every_deciding_seats_decision_as_the_engine_does(game_id: str) -> None:
    game = get_game(game_id)
    decision_of = get_wire(game_id).decision_of
    assert decision_of is not None
    rng = random.Random(5)
    compared = 0
    for players in range(game.min_players, game.max_players + 1):
        for _ in range(3):
            state = game.new_initial_state(game.make_config(players))
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                    continue
                deciding = state.deciding_seats()
                for seat in deciding:
                    assert state.legal_options(seat)
                    assert decision_of(state, seat) == state.decision_name(seat), (players, seat, state.decision_name(seat))
                    compared += 1
                state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in deciding})
    assert compared > 100
