"""Merchants of B99's observation from the state (sdk/envs/state_encoders/merchants.py) is its view encoding,
slot for slot: the public table, and each seat's own hand and reputation cards for that seat alone."""

from __future__ import annotations

from collections import Counter

import numpy as np

from referee.engine import GameState
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder
from tests.envs.state_encoder_check import check_game

VIEW = game_encoding("merchants").view


def test_the_encoder_from_the_state_writes_the_view_encoding_on_random_games() -> None:
    seen_fields: Counter[str] = Counter()
    hand = slice(VIEW.start("hand"), VIEW.start("hand") + VIEW.node("hand").size)
    watched = {name: VIEW.start(name) for name in ("seats[].final", "d_card", "pending_target")}

    def fields_seen(state: GameState, observations: list[np.ndarray]) -> None:
        for name, slot in watched.items():
            width = VIEW.node(name).size if name == "d_card" else 1
            if any(observation[slot:slot + width].any() for observation in observations):
                seen_fields[name] += 1
        if len(observations) > 1 and not np.array_equal(observations[0][hand], observations[1][hand]):
            seen_fields["hands differ by seat"] += 1

    coverage = check_game("merchants", games=1, every=5, seen=fields_seen)
    assert coverage.positions >= 250 and coverage.terminal >= 16 and coverage.not_deciding > 0
    assert {"chance", "initial_rotation", "return_reputation", "choose_tile", "choose_target", "choose_rotation",
            "choose_dungeon", "over"} <= coverage.phases
    assert all(seen_fields[name] > 0 for name in (*watched, "hands differ by seat")), seen_fields


def test_the_game_finds_its_encoder() -> None:
    assert state_encoder("merchants") is not None
