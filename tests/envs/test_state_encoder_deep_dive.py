"""DEEP DIVE's encoder from the state gives exactly the vector of the seat's encoded view (tests/envs/state_encoder_check.py)."""

from __future__ import annotations

from tests.envs.state_encoder_check import check_state_encoder


def test_the_encoder_from_the_state_equals_the_view_encoding_on_random_games() -> None:
    checked = check_state_encoder("deep_dive", games=2, share=0.15)
    assert checked["configs"] >= 6 and checked["terminal"] >= checked["configs"] and checked["positions"] >= 300
