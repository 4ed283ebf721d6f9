"""DEEP DIVE's encoder from the state gives exactly the vector of the seat's encoded view (tests/envs/state_encoder_check.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from referee.chance import sample_outcome
from referee.games.deep_dive.scoring import complete_rows, row_score
from referee.registry import get_game
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import deep_dive
from tests.envs.state_encoder_check import check_game, differences, state_vector


def test_the_encoder_from_the_state_equals_the_view_encoding_on_random_games() -> None:
    coverage = check_game("deep_dive", games=2, every=10)
    assert coverage.configs >= 6 and coverage.terminal >= coverage.configs and coverage.positions >= 300


def check_games_in_turn(game_id: str, player_counts: tuple[int, ...], seed: int) -> int:
    """Two games of each player count played in turn at random (and clones of them), every position, a random seat:
    each observation from the state must be the view's vector (parts made again from whatever state was encoded
    before); the number of observations compared."""
    game = get_game(game_id)
    view = game_encoding(game_id).view
    rng = random.Random(seed)
    compared = 0
    for players in player_counts:
        config = game.make_config(players)
        states = [game.new_initial_state(config), game.new_initial_state(config)]
        while states:
            state = rng.choice(states)
            if rng.random() < 0.1:
                state = state.clone()
            seat = rng.randrange(players)
            expected = view.encode(state.private_view(seat))
            got = state_vector(game_id, state, seat)
            assert expected.tobytes() == got.tobytes(), f"{players} players, seat {seat}: " + differences(view, expected, got)
            compared += 1
            if state.is_terminal():
                states = [kept for kept in states if kept is not state]
            elif state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            else:
                state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})
    return compared


def test_parts_written_again_from_other_states_parts_equal_the_view_encoding() -> None:
    """A part whose token changed is made from the part last made at its place, whichever state that came from."""
    assert check_games_in_turn("deep_dive", (1, 2, 4, 6), seed=11) > 500


@given(st.lists(st.lists(st.integers(min_value=0, max_value=9), max_size=8), min_size=3, max_size=3))
def test_the_encoders_board_score_is_the_engines(columns: list[list[int]]) -> None:
    """The encoder counts a board's rows and score itself (compiled with it): as referee.games.deep_dive.scoring does."""
    values = list(range(10))  # tile index i is worth i
    assert deep_dive._rows_and_score(values, columns) == (complete_rows(columns), row_score(columns))
