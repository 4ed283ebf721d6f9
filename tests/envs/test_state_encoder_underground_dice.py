"""Underground Dice's observation from the state (sdk/envs/state_encoders/underground_dice.py) is its view
encoding, slot for slot, with each seat's secrets shown to that seat alone."""

from __future__ import annotations

from collections import Counter

import numpy as np

from referee.engine import GameState
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder
from tests.envs.state_encoder_check import check_game

VIEW = game_encoding("underground_dice").view
#: the presence slot of each field only some seats may see
SECRETS = {
    "hands[].genuine": VIEW.start("hands[].genuine"),
    "set_pins": VIEW.start("set_pins"),
    "pot_fakes": VIEW.start("pot_fakes"),
}


def test_the_encoder_from_the_state_writes_the_view_encoding_on_random_games() -> None:
    shown: Counter[tuple[str, str]] = Counter()

    def secrets_seen(state: GameState, observations: list[np.ndarray]) -> None:
        """Count (field, phase) where one seat's observation shows a secret the other's does not."""
        for name, slot in SECRETS.items():
            for shift in (0, VIEW.stride("hands")) if name.startswith("hands") else (0,):
                if observations[0][slot + shift] != observations[1][slot + shift]:
                    shown[(name, state.phase)] += 1

    coverage = check_game("underground_dice", games=4, every=2, worlds=2, seen=secrets_seen)
    assert coverage.positions >= 300 and coverage.terminal >= 24 and coverage.not_deciding >= coverage.positions // 2
    assert {"deal", "first_parent", "set_pins", "set_faces", "stake", "stake_fakes", "guess", "pay_fakes",
            "accept_or_accuse", "over"} <= coverage.phases
    # the counterfeit rule's phases, where what a seat sees depends on the seat
    for phase in ("stake_fakes", "pay_fakes", "accept_or_accuse", "guess"):
        assert shown[("hands[].genuine", phase)] > 0, phase
    for phase in ("set_faces", "stake", "guess"):
        assert shown[("set_pins", phase)] > 0, phase
    assert sum(count for (name, _), count in shown.items() if name == "pot_fakes") > 0


def test_the_game_finds_its_encoder() -> None:
    assert state_encoder("underground_dice") is not None
