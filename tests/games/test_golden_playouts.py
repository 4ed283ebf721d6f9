"""The engines play exactly the games recorded before they were optimised (same seeds, same digests)."""

from __future__ import annotations

import json

import pytest

from referee.registry import get_game
from tests.games.golden import GOLDEN_PATH, SEEDS, config_key, configs, playout_digest

GOLDEN: dict[str, list[str]] = json.loads(GOLDEN_PATH.read_text())
CASES = list(configs())


def test_every_config_has_golden_digests() -> None:
    assert sorted(f"{game_id} {config_key(config)}" for game_id, config in CASES) == sorted(GOLDEN)


@pytest.mark.parametrize(("game_id", "config"), CASES, ids=[f"{g}-{config_key(c)}" for g, c in CASES])
def test_same_games_as_recorded(game_id: str, config) -> None:  # type: ignore[no-untyped-def]
    expected = GOLDEN[f"{game_id} {config_key(config)}"]
    got = [playout_digest(game_id, get_game(game_id).make_config(config.players, config.variants), seed) for seed in range(SEEDS)]
    mismatched = [seed for seed in range(SEEDS) if got[seed] != expected[seed]]
    assert not mismatched, f"{game_id} {config_key(config)}: seeds {mismatched} play differently from the recorded games"
