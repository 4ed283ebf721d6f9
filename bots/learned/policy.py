"""A small table policy for Underground Dice, learned by Monte Carlo control in sdk.envs' environments.

It reads only what any learner gets: the observation vector and the action mask. Each decision is
keyed by a few slots of the vector (the phase, the dice announced and left, both hands in buckets);
the table holds, per key, the mean final reward seen after each action. Stakes are learned as a
share of the seat's hand (5 shares), so one table entry covers every hand size. The weights are a
JSON file of those means and visit counts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sdk.envs.encodings import game_encoding

GAME = "underground_dice"
WEIGHTS = Path(__file__).with_name("underground_dice.json")
#: A stake is chosen as one of these shares of the hand (then the nearest legal stake).
STAKE_SHARES = (0.0, 0.1, 0.25, 0.5, 1.0)
HAND_BUCKETS = (5, 10, 20, 30, 45)

_ENCODING = game_encoding(GAME)
_START = {block.path: block.start for block in reversed(_ENCODING.view.blocks)}
_PHASES = _ENCODING.view.spec.vocab["phase"]
_STAKE_INDICES = np.array([_ENCODING.actions.index_of(f"stake:{n}") for n in range(1, 67)])


def _bucket(bills: float) -> int:
    return sum(bills > edge for edge in HAND_BUCKETS)


def decision_key(observation: np.ndarray) -> str:
    """The table key of a decision: phase, announced dice, unused pin and 4-5-6 dice, hand buckets."""
    phase = int(np.argmax(observation[_START["phase"] : _START["phase"] + len(_PHASES)]))
    seat = int(observation[_START["seat"] + 1])
    hands = _START["hands[].bills"]
    mine, theirs = observation[hands + 6 * seat], observation[hands + 6 * (1 - seat)]
    announced = int(observation[_START["announced_dice"] + 1])
    pins, faces = int(observation[_START["unused_pins"]]), int(observation[_START["unused_shigoro"]])
    return f"{_PHASES[phase]}|{announced}|{pins}|{faces}|{_bucket(mine)}|{_bucket(theirs)}"


def choices(observation: np.ndarray, mask: np.ndarray) -> list[tuple[str, int]]:
    """(table arm, action index) for each distinct choice: stake shares at a stake, else each legal action."""
    legal = np.flatnonzero(mask)
    stakes = [index for index in legal if index in _STAKE_INDICES]
    if not stakes:
        return [(str(index), int(index)) for index in legal]
    seat = int(observation[_START["seat"] + 1])
    bills = float(observation[_START["hands[].bills"] + 6 * seat])
    amounts = sorted(_ENCODING.actions.ids[index] for index in stakes)
    values = sorted(int(option_id.split(":")[1]) for option_id in amounts)
    arms: dict[str, int] = {}
    for share in STAKE_SHARES:
        wanted = max(1, round(share * bills))
        nearest = min(values, key=lambda value: (abs(value - wanted), value))
        arms.setdefault(f"share:{share}", _ENCODING.actions.index_of(f"stake:{nearest}"))
    return list(arms.items())


class TablePolicy:
    """Mean final reward per (decision key, arm); acts greedily, or epsilon-greedily while training."""

    def __init__(self, table: dict[str, dict[str, list[float]]] | None = None) -> None:
        self.table: dict[str, dict[str, list[float]]] = table or {}

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: random.Random | None = None, epsilon: float = 0.0) -> tuple[int, str, str]:
        """(action index, key, arm): the best-valued arm (unvisited arms first), or a random one with prob. epsilon."""
        key = decision_key(observation)
        arms = choices(observation, mask)
        if rng is not None and rng.random() < epsilon:
            arm, action = arms[rng.randrange(len(arms))]
            return action, key, arm
        seen = self.table.get(key, {})

        def value(entry: tuple[str, int]) -> float:
            mean_count = seen.get(entry[0])
            return float("inf") if mean_count is None and rng is not None else (mean_count or [0.0, 0])[0]

        arm, action = max(arms, key=value)
        return action, key, arm

    def update(self, visits: Sequence[tuple[str, str]], reward: float) -> None:
        """Every-visit Monte Carlo: move each visited arm's mean towards the game's final reward."""
        for key, arm in visits:
            entry = self.table.setdefault(key, {}).setdefault(arm, [0.0, 0])
            entry[1] += 1
            entry[0] += (reward - entry[0]) / entry[1]

    def save(self, path: Path = WEIGHTS) -> None:
        rounded = {key: {arm: [round(mean, 4), count] for arm, (mean, count) in arms.items()} for key, arms in sorted(self.table.items())}
        path.write_text(json.dumps(rounded, separators=(",", ":"), sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> TablePolicy:
        return cls(json.loads(path.read_text()))
