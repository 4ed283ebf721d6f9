"""What a search pays per iteration in each engine: clone, determinize, and a random playout from a clone.

    python -m benchmarks.bench_search_support [--quick]

For each game at its default player count: states are taken from random games at a quarter,
half and three quarters of their decisions; from each, `clone` and `determinize(seat)` are timed,
and random playouts are run from clones to the end (decisions/s counts `apply_decisions` calls,
choosing uniformly from `legal_options`). Times are CPU time of this process (`time.process_time`),
so other load on a shared machine affects them less than wall time would.
"""

from __future__ import annotations

import argparse
import random
import time

from referee.chance import sample_outcome
from referee.engine import GameState
from referee.registry import all_games, get_game


def _positions(game_id: str, count: int, rng: random.Random) -> list[GameState]:
    """Mid-game states of random games (a quarter, half and three quarters of their decisions)."""
    game = get_game(game_id)
    positions: list[GameState] = []
    while len(positions) < count:
        state = game.new_initial_state(game.make_config(game.default_players))
        history: list[GameState] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            else:
                history.append(state.clone())
                state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})
        for share in (0.25, 0.5, 0.75):
            positions.append(history[int(share * (len(history) - 1))])
    return positions[:count]


def _random_playout(state: GameState, rng: random.Random) -> int:
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
        else:
            state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})
            decisions += 1
    return decisions


def measure(game_id: str, seconds: float) -> dict[str, float]:
    """Clone and determinize µs, and decisions/s of clone+playout, for one game."""
    rng = random.Random(7)
    positions = _positions(game_id, 12, rng)
    repeats = 200
    began = time.process_time()
    for _ in range(repeats):
        for state in positions:
            state.clone()
    clone_us = (time.process_time() - began) / (repeats * len(positions)) * 1e6
    began = time.process_time()
    for _ in range(repeats // 4):
        for state in positions:
            seat = (state.deciding_seats() or (0,))[0]
            state.determinize(seat, rng)
    determinize_us = (time.process_time() - began) / (repeats // 4 * len(positions)) * 1e6
    decisions = playouts = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        for state in positions:
            decisions += _random_playout(state.clone(), rng)
            playouts += 1
    elapsed = time.process_time() - began
    return {
        "clone_us": clone_us,
        "determinize_us": determinize_us,
        "decisions_per_second": decisions / elapsed,
        "playouts_per_second": playouts / elapsed,
        "players": get_game(game_id).default_players,
    }


def run(quick: bool = False) -> str:
    """The section for docs/benchmarks.md."""
    seconds = 1.0 if quick else 4.0
    lines = [
        "## Engines: what a search pays (clone, determinize, playout from a clone)",
        "",
        "From 12 mid-game positions of random games (a quarter, half and three quarters through) at the",
        "default player count: the CPU time of one `clone` and one `determinize` (the deciding seat), and",
        f"random playouts to the end from clones of those positions for {seconds:g} s of CPU time",
        "(`python -m benchmarks.bench_search_support`).",
        "",
        "| game | players | clone µs | determinize µs | clone+playout decisions/s | playouts/s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for game in all_games():
        row = measure(game.id, seconds)
        lines.append(
            f"| {game.id} | {row['players']:.0f} | {row['clone_us']:,.1f} | {row['determinize_us']:,.1f} "
            f"| {row['decisions_per_second']:,.0f} | {row['playouts_per_second']:,.1f} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", nargs="*")
    arguments = parser.parse_args()
    if arguments.only:
        for game_id in arguments.only:
            print(game_id, measure(game_id, 1.0 if arguments.quick else 4.0))
    else:
        print(run(arguments.quick))
