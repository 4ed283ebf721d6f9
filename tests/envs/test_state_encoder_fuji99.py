"""Fuji 99's observation from the state (sdk/envs/state_encoders/fuji99.py) is its view encoding, slot for slot."""

from __future__ import annotations

import random

import pytest

from referee.registry import get_game
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder
from tests.envs.state_encoder_check import check_game, check_position, random_positions, state_vector


def test_the_encoder_from_the_state_writes_the_view_encoding_on_random_games() -> None:
    coverage = check_game("fuji99", games=2, every=10)
    assert coverage.positions >= 300 and coverage.terminal >= 12 and coverage.not_deciding > coverage.positions
    assert {"draw_count", "use_cards", "continue_or_stop", "cubes", "cards", "over"} <= coverage.phases


def test_cubes_placed_after_a_stop_are_written_as_the_view_shows_them() -> None:
    """Placing cubes (D4) is rare in random play: its positions are sought out."""
    rng = random.Random(4)
    found = 0
    game = get_game("fuji99")
    for players in (2, 4):
        for state in random_positions("fuji99", game.make_config(players), games=40, seed=players):
            if state.phase == "place_cube" or state.placed:
                check_position("fuji99", state, f"fuji99 {players} players", rng)
                found += 1
    assert found >= 4


def test_a_hand_over_its_cap_is_an_error_as_in_the_view_encoding() -> None:
    game = get_game("fuji99")
    state = game.new_initial_state(game.make_config(2))
    state.hands[1] = list(state.deck[:11])
    with pytest.raises(EncodingError, match="seats\\[\\].hand.*cap 10"):
        game_encoding("fuji99").view.encode(state.private_view(0))
    with pytest.raises(EncodingError, match="seats\\[\\].hand.*cap 10"):
        state_vector("fuji99", state, 0)


def test_the_game_finds_its_encoder() -> None:
    assert state_encoder("fuji99") is not None
