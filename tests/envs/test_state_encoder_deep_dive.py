"""DEEP DIVE's encoder from the state gives exactly the vector of the seat's encoded view (tests/envs/state_encoder_check.py)."""

from __future__ import annotations

from tests.envs.state_encoder_check import check_game


def test_the_encoder_from_the_state_equals_the_view_encoding_on_random_games() -> None:
    coverage = check_game("deep_dive", games=2, every=10)
    assert coverage.configs >= 6 and coverage.terminal >= coverage.configs and coverage.positions >= 300
