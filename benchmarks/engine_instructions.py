"""Engine cost in machine instructions per decision, counted by valgrind: the same on a busy machine as on an idle one.

    python -m benchmarks.engine_instructions GAME [GAMES] [--clones]

Plays GAMES seeded random games (the random playouts of `bench_engine_fixed`) once and then twice
under `valgrind --tool=callgrind`, and divides the difference in instructions by the decisions of
one pass: the cost of a pass with warm caches, without the interpreter's start-up. With `--clones`,
a pass is the clone+playout work of `bench_engine_fixed` instead (random playouts from clones of 12
mid-game positions, GAMES/12 rounds; the positions are made before the passes, in both runs alike). CPU time on a
shared machine moves with the load; instruction counts do not, so two engine versions compare
exactly (a playout decision costs ~100 instructions a bytecode, so counts say where bytecodes go).
Needs valgrind; it runs about 50 times slower than the game itself.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys

from benchmarks.bench_search_support import _positions, _random_playout
from referee.registry import get_game


def play(game_id: str, games: int, passes: int, clones: bool = False) -> int:
    """Decisions of one pass of `games` seeded random games (or their clone+playout work), played `passes` times."""
    game = get_game(game_id)
    positions = _positions(game_id, 12, random.Random(7)) if clones else []
    decisions = 0
    for _ in range(passes):
        if clones:
            rng = random.Random(3)
            decisions = sum(_random_playout(state.clone(), rng) for _ in range(max(1, games // 12)) for state in positions)
            continue
        rng = random.Random(1)
        decisions = sum(
            _random_playout(game.new_initial_state(game.make_config(game.default_players)), rng) for _ in range(games)
        )
    return decisions


def instructions(game_id: str, games: int, passes: int, clones: bool = False) -> tuple[int, int]:
    """(instructions, decisions of one pass) of a run under callgrind."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-m", "benchmarks.engine_instructions", game_id, str(games), "--passes", str(passes),
        *(["--clones"] if clones else []),
    ]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    counted = re.search(r"Collected : (\d+)", run.stderr)
    played = re.search(r"decisions (\d+)", run.stdout)
    if counted is None or played is None:
        raise RuntimeError(f"valgrind gave no count: {run.stderr[-300:]}")
    return int(counted.group(1)), int(played.group(1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("games", type=int, nargs="?", default=20)
    parser.add_argument("--passes", type=int, help="play this many passes and print the decisions (what valgrind runs)")
    parser.add_argument("--clones", action="store_true", help="count the clone+playout work instead of games from the start")
    arguments = parser.parse_args()
    if arguments.passes is not None:
        print(f"decisions {play(arguments.game, arguments.games, arguments.passes, arguments.clones)}")
    else:
        one, decisions = instructions(arguments.game, arguments.games, 1, arguments.clones)
        two, _ = instructions(arguments.game, arguments.games, 2, arguments.clones)
        work = "clone+playout" if arguments.clones else "playouts"
        print(f"{arguments.game} {work}: {(two - one) / decisions:,.0f} instructions a decision ({decisions} decisions a pass)")
