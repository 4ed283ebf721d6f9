"""Every registered game against the engine contract (see tests/conformance.py)."""

from __future__ import annotations

import pytest

from referee.registry import game_ids, get_game
from tests import conformance

RANDOM_SEEDS = 1000
DEEP_SEEDS = 24
SEED_BATCHES = 10


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("batch", range(SEED_BATCHES))
def test_random_play_to_the_end(game_id: str, batch: int) -> None:
    """1,000 seeds per game (spread over player counts and variants) play legally to a valid result."""
    game = get_game(game_id)
    per_batch = RANDOM_SEEDS // SEED_BATCHES
    for seed in range(batch * per_batch, (batch + 1) * per_batch):
        conformance.random_game(game, seed)


@pytest.mark.parametrize("game_id", game_ids())
def test_replay_equality(game_id: str) -> None:
    game = get_game(game_id)
    for seed in range(DEEP_SEEDS):
        conformance.check_replay_equality(game, seed)


@pytest.mark.parametrize("game_id", game_ids())
def test_determinize_views_and_clone(game_id: str) -> None:
    """Views, events and options do not move when a seat's unknowns are redrawn; clones are independent."""
    game = get_game(game_id)
    diverse = False
    for seed in range(DEEP_SEEDS):
        diverse = conformance.check_determinize_and_clone(game, seed) or diverse
    if getattr(game, "hidden_information", True):
        assert diverse, f"{game_id}: determinize never produced two different worlds"


@pytest.mark.parametrize("game_id", game_ids())
def test_bad_configs_are_rejected(game_id: str) -> None:
    conformance.check_config_errors(get_game(game_id))
