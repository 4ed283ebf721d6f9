"""Train the learned Underground Dice bot in sdk.envs' Gymnasium environment, against `random`.

    python -m bots.learned.train --minutes 28 --seed 2   # writes bots/learned/underground_dice.json

Monte Carlo control: each game is played epsilon-greedily from the table (sdk.envs.gym_env, the
learner in a random seat), then every arm it chose is moved towards the game's final reward.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from bots.learned.policy import GAME, WEIGHTS, TablePolicy
from sdk.envs import gym_env


def play(env, policy: TablePolicy, rng: random.Random, epsilon: float, seed: int) -> float:  # type: ignore[no-untyped-def]
    """One game; returns the final reward and updates the table."""
    observation, _ = env.reset(seed=seed)
    visits = []
    done, reward = False, 0.0
    while not done:
        action, key, arm = policy.act(observation["observation"], observation["action_mask"], rng, epsilon)
        visits.append((key, arm))
        observation, reward, done, _, _ = env.step(action)
    policy.update(visits, reward)
    return reward


def evaluate(policy: TablePolicy, games: int, seed: int = 10_000_000) -> float:
    """Share of games won against `random`, greedily, half of them in each seat."""
    wins = 0
    envs = [gym_env(GAME, opponents=["random"], seat=seat) for seat in (0, 1)]
    for game in range(games):
        env = envs[game % 2]
        observation, _ = env.reset(seed=seed + game)
        done, reward = False, 0.0
        while not done:
            action, _, _ = policy.act(observation["observation"], observation["action_mask"])
            observation, reward, done, _, _ = env.step(action)
        wins += reward > 0
    return wins / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=28.0, help="training time (CPU, one core)")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--out", default=str(WEIGHTS))
    parser.add_argument("--eval-games", type=int, default=400, help="games against random after training")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    policy = TablePolicy()
    envs = [gym_env(GAME, opponents=["random"], seat=seat) for seat in (0, 1)]
    start, games, recent = time.monotonic(), 0, []
    deadline = start + args.minutes * 60
    while time.monotonic() < deadline:
        progress = (time.monotonic() - start) / (args.minutes * 60)
        epsilon = max(0.02, 0.3 * (1 - progress))
        recent.append(play(envs[games % 2], policy, rng, epsilon, rng.getrandbits(62)) > 0)
        games += 1
        if games % 5000 == 0:
            print(f"{games} games, {time.monotonic() - start:.0f} s, won {sum(recent) / len(recent):.1%} of the last {len(recent)} (exploring)", flush=True)
            recent = []
            policy.save(Path(args.out))
    policy.save(Path(args.out))
    print(f"trained on {games} games in {time.monotonic() - start:.0f} s; {len(policy.table)} keys", flush=True)
    print(f"greedy vs random, {args.eval_games} games: {evaluate(policy, args.eval_games):.1%} won", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
