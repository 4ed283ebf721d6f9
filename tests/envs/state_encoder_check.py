"""Checks a game's encoder from the state (sdk/envs/state_encoders) against its view encoding, on random games.

    from tests.envs.state_encoder_check import check_state_encoder
    def test_...(): check_state_encoder("deep_dive", games=2)

Every player count and every test variant of the game; in each random game, a share of the positions
where someone decides, for every seat (deciding or not), and the final position. The two vectors must be
equal to the byte; a difference names the first slots that differ and the view fields they belong to.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from referee.chance import sample_outcome
from referee.engine import GameConfig, GameState
from referee.errors import ConfigError
from referee.registry import get_game
from sdk.envs.encoding import Slots, ViewEncoding
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder


def state_vector(game_id: str, state: GameState, seat: int) -> np.ndarray:
    """The seat's vector from the game's encoder from the state (which the game must have)."""
    encoder = state_encoder(game_id)
    if encoder is None:
        raise LookupError(f"{game_id} has no encoder from the state (sdk/envs/state_encoders/{game_id}.py)")
    out = Slots()
    encoder(state, seat, out)
    return game_encoding(game_id).view.vector(out)


def view_vector(game_id: str, state: GameState, seat: int) -> np.ndarray:
    """The seat's vector from its private view."""
    return game_encoding(game_id).view.encode(state.private_view(seat))


def differences(encoding: ViewEncoding, expected: np.ndarray, got: np.ndarray, shown: int = 6) -> str:
    """The first slots where two vectors differ, each with the block (view field) it belongs to."""
    lines = []
    for slot in np.flatnonzero(expected != got)[:shown]:
        block = max((b for b in encoding.blocks if b.start <= slot), key=lambda b: b.start)
        lines.append(f"slot {slot} ({block.path}, block at {block.start}): view {expected[slot]!r}, state {got[slot]!r}")
    return "; ".join(lines)


def configs(game_id: str) -> Iterator[GameConfig]:
    """Every player count with every test variant the count allows."""
    game = get_game(game_id)
    for players in range(game.min_players, game.max_players + 1):
        for variants in game.test_variants:
            try:
                yield game.make_config(players, dict(variants))
            except ConfigError:
                continue


def random_positions(game_id: str, config: GameConfig, rng: random.Random, share: float) -> Iterator[GameState]:
    """Positions of one random game (the same state object, moving on): a `share` of the decisions, and the end."""
    game = get_game(game_id)
    state = game.new_initial_state(config)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        if rng.random() < share:
            yield state
        choices = {}
        for seat in state.deciding_seats():
            options = state.legal_options(seat)
            choices[seat] = options[rng.randrange(len(options))].id
        state.apply_decisions(choices)
    yield state


def check_state_encoder(game_id: str, games: int = 2, share: float = 0.15, seed: int = 0) -> dict[str, Any]:
    """Compare both encoders on `games` random games per configuration; AssertionError names a difference.

    Returns what was checked: positions, of them terminal, and seat vectors compared.
    """
    encoding = game_encoding(game_id).view
    rng = random.Random(seed)
    checked = {"positions": 0, "terminal": 0, "vectors": 0, "configs": 0}
    for config in configs(game_id):
        checked["configs"] += 1
        for number in range(games):
            for state in random_positions(game_id, config, rng, share):
                checked["positions"] += 1
                checked["terminal"] += state.is_terminal()
                for seat in range(state.players):
                    expected = view_vector(game_id, state, seat)
                    got = state_vector(game_id, state, seat)
                    checked["vectors"] += 1
                    if expected.tobytes() != got.tobytes():
                        raise AssertionError(
                            f"{game_id} {config.players} players {dict(config.variants)} game {number} "
                            f"seat {seat} ({'terminal' if state.is_terminal() else state.decision_name(seat) or 'not deciding'}): "
                            + differences(encoding, expected, got)
                        )
    return checked
