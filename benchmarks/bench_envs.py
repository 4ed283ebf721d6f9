"""Training environments: PettingZoo AEC steps per second beside the engine's own decisions per second.

    python -m benchmarks.bench_envs [--quick]

For each game at its default player count, random legal play for a few seconds of CPU time:
- engine: `apply_decisions` with uniformly random legal options, chance sampled (as "Engines: random playouts");
- engine + view: the same, also building the deciding seat's private view each decision (what any
  player of the game, a bot or a learner, is given);
- AEC env: `sdk.envs.aec_env` driven as PettingZoo's examples do (`last()`, a random legal action
  from the mask, `step`), counting steps (one per seat's choice). Both drivers pick with `random.choice`, over
  the engine's option list or over the mask's legal indices (`mask.nonzero()[0].tolist()`: `np.flatnonzero`
  costs three times as much, a fifth of a whole step in the quickest game).
  Observations come from the game's encoder from the state where it has one (sdk/envs/state_encoders);
  the same env with the view encoded instead (`Table(from_state=False)`) is measured beside it.
- Gym env: `sdk.envs.gym_env` for seat 0 against `random` opponents, the learner picking as above,
  counting the learner's steps (each also plays the opponents' turns up to the learner's next one).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from referee.chance import sample_outcome
from referee.registry import all_games, get_game


def engine_rate(game_id: str, seconds: float, with_view: bool) -> float:
    """Decisions per CPU second of random play on the engine alone (optionally building the decider's view)."""
    game = get_game(game_id)
    config = game.make_config(game.default_players)
    rng = random.Random(3)
    decisions, began = 0, time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state(config)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            deciding = state.deciding_seats()
            if with_view:
                for seat in deciding:
                    state.private_view(seat)
            state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in deciding})
            decisions += 1
    return decisions / (time.process_time() - began)


def env_rate(game_id: str, seconds: float, from_state: bool = True, observe: bool = True) -> float:
    """AEC steps per CPU second: `last()` (the observation and mask) and `step` with a random legal action.

    With `observe=False`, `last(observe=False)` and the action mask alone: what a step costs without any
    observation vector (a ceiling for any encoder)."""
    from sdk.envs import aec_env
    from sdk.envs.state_encoders import state_encoder

    env = aec_env(game_id)
    env.table.state_encoder = state_encoder(game_id) if from_state else None
    rng = random.Random(3)  # the engine's driver picks with random.choice too (numpy's choice costs more than a step)
    steps, began, seed = 0, time.process_time(), 0
    while time.process_time() - began < seconds:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"] if observe else env.table.action_mask(env.agent_seat[env.agent_selection])
            env.step(rng.choice(mask.nonzero()[0].tolist()))
            steps += 1
    return steps / (time.process_time() - began)


def gym_rate(game_id: str, seconds: float) -> float:
    """Learner steps per CPU second of `gym_env` for seat 0 against `random` opponents (random legal learner)."""
    from sdk.envs.gymnasium_env import B99GymEnv

    game = get_game(game_id)
    env = B99GymEnv(game_id, opponents=["random"] * (game.default_players - 1))
    rng = random.Random(3)
    steps, began, seed = 0, time.process_time(), 0
    while time.process_time() - began < seconds:
        observation, _ = env.reset(seed=seed)
        seed += 1
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
            steps += 1
    return steps / (time.process_time() - began)


def best_of(measures: dict[str, Callable[[float], float]], seconds: float, rounds: int = 2) -> dict[str, float]:
    """Each rate's best of `rounds` samples of `seconds / rounds`, the measures taken in turn round after round
    (on a shared machine, a burst of other load then lowers one sample of each, not all samples of one)."""
    best = dict.fromkeys(measures, 0.0)
    for _ in range(rounds):
        for name, measure in measures.items():
            best[name] = max(best[name], measure(seconds / rounds))
    return best


def run(quick: bool = False) -> str:
    """The section for docs/benchmarks.md."""
    seconds = 1.0 if quick else 4.0
    measured_at = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    load = os.getloadavg()[0]
    lines = [
        "## Training environments: AEC steps/s beside engine decisions/s",
        "",
        f"Measured {measured_at} UTC, load average {load:.1f} at the start.",
        f"Random legal play at the default player count, {seconds:g} s of CPU time each, the best of two halves taken in turn",
        "(`python -m benchmarks.bench_envs`).",
        "Engine: `apply_decisions` alone; engine + view: also the deciding seat's private view; AEC env: PettingZoo's",
        "`last()` (observation vector and action mask) and `step` per seat's choice, as a user drives it, with the",
        "observation from the game's encoder from the state where it has one (\"from\": state) and, beside it, with",
        "the view encoded instead; both drivers pick a random legal choice with `random.choice` (the env's over",
        "`mask.nonzero()[0].tolist()`). Mask only: the",
        "same env with `last(observe=False)` and the action mask, no observation vector (a ceiling for any",
        "encoder). Gym env: `gym_env` for seat 0 against `random` opponents, the learner's steps (each also plays",
        "the opponents' turns). Goal: the env at least 0.5x the engine.",
        "",
        "| game | players | engine decisions/s | engine + view decisions/s | AEC env, view encoded, steps/s | AEC env steps/s | from | env / engine | env / engine + view | mask only steps/s | mask only / engine | Gym env vs random, learner steps/s |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    from sdk.envs.state_encoders import state_encoder

    ratios: dict[str, float] = {}
    for game in all_games():
        measures = {
            "engine": lambda part: engine_rate(game.id, part, with_view=False),
            "viewed": lambda part: engine_rate(game.id, part, with_view=True),
            "by_view": lambda part: env_rate(game.id, part, from_state=False),
            "env": lambda part: env_rate(game.id, part),
            "bare": lambda part: env_rate(game.id, part, observe=False),
            "gym": lambda part: gym_rate(game.id, part),
        }
        best = best_of(measures, seconds)
        engine, viewed, by_view, env, bare, gym = (best[name] for name in measures)
        source = "state" if state_encoder(game.id) else "view"
        lines.append(
            f"| {game.id} | {game.default_players} | {engine:,.0f} | {viewed:,.0f} | {by_view:,.0f} | {env:,.0f} | {source} "
            f"| {env / engine:.2f} | {env / viewed:.2f} | {bare:,.0f} | {bare / engine:.2f} | {gym:,.0f} |"
        )
        ratios[game.id] = env / engine
    met = [game_id for game_id, ratio in ratios.items() if ratio >= 0.5]
    short = ", ".join(f"{game_id} {ratios[game_id]:.3f}x" for game_id in ratios if game_id not in met)
    lines += ["", f"At least 0.5x (unrounded): {len(met)} of {len(ratios)} games" + (f"; not: {short}." if short else ".")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(run(quick=parser.parse_args().quick))
