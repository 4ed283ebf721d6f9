"""Requests against the step in CPU time for one game, for comparing two builds run in turn.

    python -m benchmarks.request_ratio GAME PLAYERS[,PLAYERS...]

Each player count as `bench_decision_cost` measures a row (`decision_cost`: a discarded round and a full collection,
then the fastest of five rounds of 2000 decisions), with each round's ratio beside it so the spread shows.
"""

from __future__ import annotations

import argparse
import gc

from benchmarks.bench_decision_cost import WARM_UP_DECISIONS, decision_cost

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", help="player counts, comma-separated")
    arguments = parser.parse_args()
    for players in (int(count) for count in arguments.players.split(",")):
        decision_cost(arguments.game, players, WARM_UP_DECISIONS, seed=0)
        gc.collect()
        rounds = [decision_cost(arguments.game, players, 2000, seed) for seed in range(1, 6)]
        step = min(cost.step_us for cost in rounds)
        requests = min(cost.request_us for cost in rounds)
        print(f"{arguments.game} {players}p: step {step:.1f} µs, requests {requests:.1f} µs, ratio {requests / step:.2f} "
              f"(rounds: {' '.join(f'{cost.ratio:.2f}' for cost in rounds)})")
