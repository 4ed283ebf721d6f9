"""Fixed-work engine speed: the same seeded random games, best of several runs (comparable on a shared machine).

`python -m benchmarks.bench_engine_fixed GAME [GAMES]` plays GAMES seeded random games from the start
and GAMES/12 rounds of random playouts from clones of 12 mid-game positions, four times each, and
prints decisions per CPU second of the fastest run: the least disturbed by other load, so two
engine versions run one after the other compare fairly even when the machine is busy.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmarks.bench_search_support import _positions, _random_playout
from referee.registry import all_games, get_game


def best_rate(work: Callable[[], int], runs: int = 4) -> float:
    """Decisions per CPU second of the fastest of `runs` runs of `work` (which returns its decisions)."""
    best, decisions = float("inf"), 0
    for _ in range(runs):
        began = time.process_time()
        decisions = work()
        best = min(best, time.process_time() - began)
    return decisions / best


def measure(game_id: str, games: int) -> dict[str, float]:
    """Random playouts from the start and from clones of mid-game positions, decisions per second."""
    game = get_game(game_id)

    def playouts() -> int:
        rng = random.Random(1)
        return sum(
            _random_playout(game.new_initial_state(game.make_config(game.default_players)), rng) for _ in range(games)
        )

    positions = _positions(game_id, 12, random.Random(7))

    def clone_playouts() -> int:
        rng = random.Random(3)
        return sum(_random_playout(state.clone(), rng) for _ in range(max(1, games // 12)) for state in positions)

    return {"playout": best_rate(playouts), "clone_playout": best_rate(clone_playouts)}


def run(quick: bool = False) -> str:
    """The section for docs/benchmarks.md: every engine on the same fixed work."""
    games = 24 if quick else 100
    lines = [
        "## Engines: fixed work (comparable between engine versions)",
        "",
        f"`python -m benchmarks.bench_engine_fixed GAME {games}`: {games} seeded random games from the start, and random",
        "playouts from clones of 12 mid-game positions; decisions per CPU second of the fastest of 4 runs.",
        "Run it in two trees one after the other to compare engine versions on the same work.",
        "",
        "| game | players | random playouts decisions/s | clone+playout decisions/s |",
        "|---|---:|---:|---:|",
    ]
    for game in all_games():
        rates = measure(game.id, games)
        lines.append(f"| {game.id} | {game.default_players} | {rates['playout']:,.0f} | {rates['clone_playout']:,.0f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int, nargs="?", default=100)
    args = parser.parse_args()
    rates = measure(args.game, args.games)
    print(f"{args.game}: playout {rates['playout']:,.0f} decisions/s, clone+playout {rates['clone_playout']:,.0f} decisions/s")
