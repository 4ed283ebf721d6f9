"""Observations from the state: each game's state encoder beside its view + view encoding and the engine's step.

    python -m benchmarks.bench_state_encoders [--quick]

For each game that has an encoder from the state (sdk/envs/state_encoders/), at its default player count:
positions of random games (random legal options, seeded chance, the decision nodes), and every seat's
observation of each (as an environment observes every seat). Timed per observation, best of three runs:
- view + encoding: `state.private_view(seat)` then `ViewEncoding.encode` (a float32 vector);
- state encoder: `encode(state, seat, out)` alone into a `Slots` (the slots and kept blocks), and then the
  vector `ViewEncoding.vector(out)` builds from them (as an environment's table does);
- engine step: one `apply_decisions` of random play (the CPU time of "Training environments" decisions/s).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from benchmarks.bench_envs import engine_rate
from referee.chance import sample_outcome
from referee.engine import GameState, Seat
from referee.registry import all_games, get_game
from sdk.envs.encoding import Slots, ViewEncoding
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import StateEncoder, state_encoder


def decision_positions(game_id: str, count: int, seed: int = 1) -> list[GameState]:
    """`count` decision nodes of random games at the default player count (clones, so each stays as it was)."""
    game = get_game(game_id)
    config = game.make_config(game.default_players)
    rng = random.Random(seed)
    positions: list[GameState] = []
    while len(positions) < count:
        state = game.new_initial_state(config)
        while not state.is_terminal() and len(positions) < count:
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            positions.append(state.clone())
            state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})
    return positions


def seconds_per_observation(positions: list[GameState], observe: Callable[[GameState, Seat], object]) -> float:
    """CPU seconds per observation of every seat of every position, best of three runs."""
    calls = sum(state.players for state in positions)
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        for state in positions:
            for seat in range(state.players):
                observe(state, seat)
        best = min(best, (time.process_time() - began) / calls)
    return best


def mean_slots(positions: list[GameState], encoder: StateEncoder) -> tuple[float, float]:
    """Slots set one by one and blocks handed per observation, on average (a slot costs about as much to
    write as to copy into the vector; a block, one array copy)."""
    written = blocks = observations = 0
    for state in positions:
        for seat in range(state.players):
            out = Slots()
            encoder(state, seat, out)
            written += len(out)
            blocks += len(out.blocks)
            observations += 1
    return written / observations, blocks / observations


def slots_only(encoder: StateEncoder) -> Callable[[GameState, Seat], Slots]:
    """An observer that writes the slots from the state (no vector)."""

    def observe(state: GameState, seat: Seat) -> Slots:
        out = Slots()
        encoder(state, seat, out)
        return out

    return observe


def from_state(encoder: StateEncoder, view: ViewEncoding) -> Callable[[GameState, Seat], np.ndarray]:
    """An observer that writes the slots from the state and builds the vector from them."""

    def observe(state: GameState, seat: Seat) -> np.ndarray:
        out = Slots()
        encoder(state, seat, out)
        return view.vector(out)

    return observe


def run(quick: bool = False) -> str:
    """The section for docs/benchmarks.md."""
    count = 500 if quick else 3000
    seconds = 1.0 if quick else 4.0
    lines = [
        "## Training environments: observations from the state",
        "",
        f"Every seat's observation of {count:,} decision nodes of random games at the default player count",
        "(`python -m benchmarks.bench_state_encoders`), CPU µs per observation, best of three runs. View + encoding:",
        "`private_view(seat)` then the compiled view encoding into a vector; state encoder: the game's",
        "`sdk/envs/state_encoders/<id>.py` writing the same slots from the engine's state into a `Slots` (slots),",
        "then the vector `ViewEncoding.vector` builds from them (+ vector), as an environment's table does;",
        f"engine step: one `apply_decisions` of random play ({seconds:g} s, as in \"Training environments\").",
        "Slots written: set one by one; blocks: kept parts handed as stretches of the vector (docs/decisions.md).",
        "",
        "| game | players | slots written | blocks | engine step µs | view + encoding µs | state encoder: slots µs | + vector µs "
        "| slots / engine step | + vector / view + encoding |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for game in all_games():
        encoder = state_encoder(game.id)
        if encoder is None:
            continue
        view = game_encoding(game.id).view
        positions = decision_positions(game.id, count)
        viewed = seconds_per_observation(positions, lambda state, seat: view.encode(state.private_view(seat)))
        written, blocks = mean_slots(positions, encoder)
        slots = seconds_per_observation(positions, slots_only(encoder))
        vector = seconds_per_observation(positions, from_state(encoder, view))
        step = 1.0 / engine_rate(game.id, seconds, with_view=False)
        lines.append(
            f"| {game.id} | {game.default_players} | {written:.0f} | {blocks:.1f} | {step * 1e6:.1f} | {viewed * 1e6:.1f} | {slots * 1e6:.1f} "
            f"| {vector * 1e6:.1f} | {slots / step:.2f} | {vector / viewed:.2f} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(run(quick=parser.parse_args().quick))
