"""The Magnificent's encoder from the state gives exactly the vector of the seat's encoded view (tests/envs/state_encoder_check.py).

The encoder keeps one vector per state and writes again only the parts whose change token (referee/games/magnificent/
state.py) changed: positions observed at every step, seldom, alternately for two games and their clones, after a
position is read, after an edit outside the rules (its tokens renewed) and after a failed write must all give the
view's vector.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from referee import playout
from referee.games.magnificent import GAME
from referee.games.magnificent.state import MagnificentState
from referee.position import load_position, position_json
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import magnificent
from tests.envs.state_encoder_check import check_game, differences, state_vector
from tests.envs.test_state_encoder_deep_dive import check_games_in_turn

VIEW = game_encoding("magnificent").view


def test_the_encoder_from_the_state_equals_the_view_encoding_on_random_games() -> None:
    coverage = check_game("magnificent", games=1, every=10)
    assert coverage.configs >= 6 and coverage.terminal >= coverage.configs and coverage.positions >= 300


def test_parts_written_again_from_other_states_parts_equal_the_view_encoding() -> None:
    """A part that changed is written again in the state's kept vector, whichever state was encoded in between: two
    games played in turn (and clones of them), every position, must each give the view's vector."""
    assert check_games_in_turn("magnificent", (1, 2, 3, 4), seed=5) > 1000


def _check(state: MagnificentState, seat: int, where: str) -> None:
    expected = VIEW.encode(state.private_view(seat))
    got = magnificent.observation_vector(state, seat)
    assert expected.tobytes() == got.tobytes(), f"{where} seat {seat}: " + differences(VIEW, expected, got)


@pytest.mark.parametrize("variant", [{}, {"side_b": True}, {"draft_master_cards": True}], ids=["base", "side_b", "draft"])
def test_every_step_observed_as_an_environment_does_equals_the_view_encoding(variant: dict[str, Any]) -> None:
    """Each step's deciding seats observed (the vector handed out, then the state moves on), at 1-4 players."""
    rng = random.Random(len(variant))
    for players in range(1, 5):
        state = GAME.new_initial_state(GAME.make_config(players, variant))
        step = 0
        while not state.is_terminal():
            if not state.is_chance_node():
                for seat in state.deciding_seats():
                    _check(state, seat, f"{players} players {variant} step {step}")
            playout.step(state, rng)
            step += 1
        for seat in range(players):
            _check(state, seat, f"{players} players {variant} the end")


def test_a_vector_handed_out_is_the_callers_own() -> None:
    state = GAME.new_initial_state(GAME.make_config(3))
    rng = random.Random(2)
    for _ in range(80):
        playout.step(state, rng)
    first = magnificent.observation_vector(state, 0)
    kept = first.copy()
    first[:] = 7.0
    again = magnificent.observation_vector(state, 0)
    assert again.tobytes() == kept.tobytes() and again is not first


def test_a_position_read_and_a_state_edited_with_its_tokens_renewed_are_encoded_afresh() -> None:
    rng = random.Random(3)
    state = GAME.new_initial_state(GAME.make_config(4))
    for _ in range(200):
        playout.step(state, rng)
    _check(state, 1, "before")
    loaded = load_position(position_json(state))
    assert isinstance(loaded, MagnificentState)
    _check(loaded, 1, "read from its position")
    # Edited outside the rules: its vector written before must not be handed out again once its tokens are renewed.
    state.players_state[2].coins += 5
    state.players_state[0].hats = list(reversed(state.players_state[0].hats))
    state.main_tent = {"O:6": 2}
    state.poster_discard = [*state.poster_discard, state.poster_deck.pop()]
    state.renew_tokens()
    _check(state, 1, "edited")
    while not state.is_terminal():
        playout.step(state, rng)
        _check(state, rng.randrange(4), "played on")


def test_a_write_that_fails_half_way_leaves_no_half_written_vector() -> None:
    rng = random.Random(4)
    state = GAME.new_initial_state(GAME.make_config(2))
    for _ in range(150):
        playout.step(state, rng)
    _check(state, 0, "before")
    board = state.players_state[1].board
    state.players_state[1].board = "IX"
    state.main_tent = {"O:6": 1}  # written before the players: the failed write got that far
    state.renew_tokens()
    with pytest.raises(EncodingError, match="IX"):
        magnificent.observation_vector(state, 0)
    state.players_state[1].board = board
    state.renew_tokens()
    _check(state, 0, "after the failed write")
    assert isinstance(state_vector("magnificent", state, 1), np.ndarray)
