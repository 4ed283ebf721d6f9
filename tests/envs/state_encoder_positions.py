"""Random positions of a game, and its encoder from the state checked against its view encoding there.

Shared by tests/envs/test_state_encoder_<id>.py: every player count and test variant, positions of every
kind (a seat deciding or not, chance nodes, the end), every seat; the observation from the state must be
the view encoding's vector of `state.private_view(seat)`, slot for slot, and must not change in the worlds
`determinize(seat)` draws (the leak test the views pass).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from referee.chance import sample_outcome
from referee.engine import GameState, Seat
from referee.registry import get_game
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder


def random_positions(game_id: str, players: int, variants: dict, games: int, seed: int) -> Iterator[GameState]:  # type: ignore[type-arg]
    """Every position of `games` random games (random legal options, seeded chance), the final one included."""
    game = get_game(game_id)
    config = game.make_config(players, variants)
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


class BlockSlots(dict):  # type: ignore[type-arg]
    """Slots that also take stretches of the vector (`add_block`), copied in before the dict's own slots."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[int, np.ndarray]] = []

    def add_block(self, start: int, values: np.ndarray) -> None:
        self.blocks.append((start, values))


def from_state(game_id: str, state: GameState, seat: Seat) -> np.ndarray:
    """The seat's observation written by the game's encoder from the state, as a vector.

    Written twice: into a plain dict, and into slots that take blocks (an encoder may hand kept parts as
    blocks); both must give the same vector.
    """
    encoder = state_encoder(game_id)
    if encoder is None:
        raise LookupError(f"{game_id} has no encoder from the state")
    vectors = []
    for out in ({}, BlockSlots()):
        encoder(state, seat, out)
        vector = np.zeros(game_encoding(game_id).view.size, dtype=np.float32)
        for start, values in getattr(out, "blocks", ()):
            vector[start : start + len(values)] = values
        for slot, value in out.items():
            vector[slot] = value
        vectors.append(vector)
    plain, blocks = vectors
    differ = np.flatnonzero(plain != blocks)
    assert not differ.size, f"{game_id} seat {seat}: slots {differ[:8].tolist()} differ when the encoder hands blocks"
    return plain


@dataclass
class Coverage:
    """What a check went through: positions, seats compared, and the phases met at each kind of position."""

    positions: int = 0
    seats: int = 0
    terminal: int = 0
    not_deciding: int = 0
    phases: set[str] = field(default_factory=set)


def check_game(
    game_id: str, games: int, every: int, seed: int = 1, worlds: int = 1, seen: Callable[[GameState, list[np.ndarray]], None] | None = None
) -> Coverage:
    """Compare both encoders on every `every`-th position (and every final one) of random games of each
    player count and test variant; `worlds` determinized worlds per compared seat for the leak test;
    `seen` is given each compared position and its seats' observations (for a game's own coverage checks)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    coverage = Coverage()
    for players in range(game.min_players, game.max_players + 1):
        for number, variants in enumerate(game.test_variants):
            where = f"{game_id} {players} players {variants}"
            for step, state in enumerate(random_positions(game_id, players, dict(variants), games, seed + 97 * number + players)):
                if step % every and not state.is_terminal():
                    continue
                coverage.positions += 1
                coverage.terminal += state.is_terminal()
                phase = str(getattr(state, "phase", ""))
                coverage.phases.add(phase)
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
        got = from_state(game_id, state, seat)
        differ = np.flatnonzero(expected != got)
        assert not differ.size, (
            f"{where} phase {phase} seat {seat}: slots {differ[:8].tolist()} hold "
            f"{got[differ[:8]].tolist()} from the state, {expected[differ[:8]].tolist()} in the view encoding"
        )
        for _ in range(worlds if not state.is_terminal() else 0):
            world = state.determinize(seat, rng)
            assert np.array_equal(from_state(game_id, world, seat), got), (
                f"{where} phase {phase}: seat {seat}'s observation changed with what it cannot know"
            )
        observations.append(got)
    return observations
