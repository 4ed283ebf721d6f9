"""Checks a game's encoder from the state (sdk/envs/state_encoders) against its view encoding, on random games.

Shared by tests/envs/test_state_encoder_<id>.py:

    from tests.envs.state_encoder_check import check_game
    def test_...(): coverage = check_game("deep_dive", games=2, every=6)

Every player count with every test variant of the game; in each random game, every `every`-th position
(a seat deciding or not, chance nodes) and the final one, for every seat. The observation from the state,
written into a `Slots` (kept parts as blocks) and into a plain dict, must be the view encoding's vector of
`state.private_view(seat)` to the byte (a difference names the first slots and the view fields they
belong to), and must not change in the worlds `determinize(seat)` draws (the leak test the views pass).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from referee.chance import sample_outcome
from referee.engine import GameConfig, GameState, Seat
from referee.errors import ConfigError
from referee.registry import get_game
from sdk.envs.encoding import Slots, ViewEncoding
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder


def random_positions(game_id: str, config: GameConfig, games: int, seed: int) -> Iterator[GameState]:
    """Every position of `games` random games (random legal options, seeded chance), the final one included
    (the same state object, moving on)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state(config)
        while True:
            yield state
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            else:
                state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})


def differences(encoding: ViewEncoding, expected: np.ndarray, got: np.ndarray, shown: int = 6) -> str:
    """The first slots where two vectors differ, each with the block (view field) it belongs to."""
    lines = []
    for slot in np.flatnonzero(expected.view(np.uint32) != got.view(np.uint32))[:shown]:
        block = max((b for b in encoding.blocks if b.start <= slot), key=lambda b: b.start)
        lines.append(
            f"slot {slot} ({block.path}, block at {block.start}): {expected[slot]!r} expected, {got[slot]!r} from the state"
        )
    return "; ".join(lines)


def state_vector(game_id: str, state: GameState, seat: Seat) -> np.ndarray:
    """The seat's vector from the game's encoder from the state (which the game must have).

    Written twice: into a `Slots` (kept parts go in as blocks) and into a plain dict (their slots); both
    must give the same vector.
    """
    encoder = state_encoder(game_id)
    if encoder is None:
        raise LookupError(f"{game_id} has no encoder from the state (sdk/envs/state_encoders/{game_id}.py)")
    view = game_encoding(game_id).view
    slots = Slots()
    encoder(state, seat, slots)
    plain: dict[int, float] = {}
    encoder(state, seat, plain)
    vector, from_plain = view.vector(slots), view.vector(plain)
    if vector.tobytes() != from_plain.tobytes():
        raise AssertionError(f"{game_id} seat {seat}, blocks against a plain dict: " + differences(view, vector, from_plain))
    return vector


@dataclass
class Coverage:
    """What a check went through: configurations, positions, seats compared, and the phases met."""

    configs: int = 0
    positions: int = 0
    seats: int = 0
    terminal: int = 0
    not_deciding: int = 0
    phases: set[str] = field(default_factory=set)


def check_game(
    game_id: str, games: int, every: int, seed: int = 1, worlds: int = 1,
    seen: Callable[[GameState, list[np.ndarray]], None] | None = None,
) -> Coverage:
    """Compare both encoders on every `every`-th position (and every final one) of `games` random games of each
    player count and test variant; `worlds` determinized worlds per compared seat for the leak test;
    `seen` is given each compared position and its seats' observations (for a game's own coverage checks)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    coverage = Coverage()
    for players in range(game.min_players, game.max_players + 1):
        for number, variants in enumerate(game.test_variants):
            try:
                config = game.make_config(players, dict(variants))
            except ConfigError:
                continue
            coverage.configs += 1
            where = f"{game_id} {players} players {dict(variants)}"
            for step, state in enumerate(random_positions(game_id, config, games, seed + 97 * number + players)):
                if step % every and not state.is_terminal():
                    continue
                coverage.positions += 1
                coverage.terminal += state.is_terminal()
                coverage.phases.add(str(getattr(state, "phase", "")))
                deciding = () if state.is_terminal() else state.deciding_seats()
                observations = check_position(game_id, state, f"{where} step {step}", rng, worlds)
                coverage.seats += players
                coverage.not_deciding += sum(seat not in deciding for seat in range(players))
                if seen is not None:
                    seen(state, observations)
    return coverage


def check_position(game_id: str, state: GameState, where: str, rng: random.Random, worlds: int = 1) -> list[np.ndarray]:
    """Every seat's observation from the state, checked against its view encoding and in `worlds` determinized
    worlds (none at the end); the observations, by seat."""
    view = game_encoding(game_id).view
    phase = getattr(state, "phase", "")
    observations = []
    for seat in range(state.players):
        expected = view.encode(state.private_view(seat))
        got = state_vector(game_id, state, seat)
        if expected.tobytes() != got.tobytes():
            deciding = "terminal" if state.is_terminal() else state.decision_name(seat) or "not deciding"
            raise AssertionError(f"{where} phase {phase} seat {seat} ({deciding}): " + differences(view, expected, got))
        for _ in range(worlds if not state.is_terminal() else 0):
            world = state.determinize(seat, rng)
            if state_vector(game_id, world, seat).tobytes() != got.tobytes():
                raise AssertionError(f"{where} phase {phase}: seat {seat}'s observation changed with what it cannot know")
        observations.append(got)
    return observations
