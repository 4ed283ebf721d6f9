"""The Magnificent's encoder from the state gives exactly the vector of the seat's encoded view (tests/envs/state_encoder_check.py)."""

from __future__ import annotations

from tests.envs.state_encoder_check import check_game
from tests.envs.test_state_encoder_deep_dive import check_games_in_turn


def test_the_encoder_from_the_state_equals_the_view_encoding_on_random_games() -> None:
    coverage = check_game("magnificent", games=1, every=10)
    assert coverage.configs >= 6 and coverage.terminal >= coverage.configs and coverage.positions >= 300


def test_parts_written_again_from_other_states_parts_equal_the_view_encoding() -> None:
    """A player's part or the market that changed is made from the one made before (whichever state that came from),
    writing again only what differs: two games played in turn, every position, must each give the view's vector."""
    assert check_games_in_turn("magnificent", (2, 4), seed=5) > 500
