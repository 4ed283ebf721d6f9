"""Paired root search: leave the heuristic's choice only for an option that beats it on the same worlds.

Each *sample* draws one world of the seat's information set and one seed, then plays the
heuristic's choice (the *base*) and every challenger in play from that same world with that same
seed: chance and the policy's random moves come from generators seeded alike for every option
(common random numbers), so two options meet the same hidden cards, dice and draws as long as the
game asks for them in the same order. Each challenger keeps the differences of its reward and the
base's, sample by sample; the luck both share cancels out of a difference, so a few dozen pairs
tell options apart that a few hundred independent playouts would not.

The answer is the challenger with the highest mean difference only when that mean is above zero by
more than `z` standard errors (after at least `min_pairs` pairs); otherwise the base. A challenger
whose mean difference is below zero by more than one standard error leaves play, which frees its
playouts for the others. Wide choices are widened progressively as in the plain search (the
options nearest the heuristic's choice first).

Why: in the solo games and in Fuji 99 the plain search (UCB1 over independent playouts) left the
heuristic's choice at most decisions on noise alone and played worse than the heuristic; at DEEP
DIVE with four players it ranked first more often than the plain search on the same seeds (see
docs/bots.md, "Search").
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots.search.policy import HeuristicPolicy
from bots.search.rollout import RootSearch, advance_root, play_out
from referee.engine import GameState
from sdk.forward import InformationSet

#: Options in play before the first sample; one more joins each time the samples pass the next square.
FIRST_WIDTH = 3


@dataclass(slots=True)
class Challenger:
    """One option's differences against the base, sample by sample."""

    option_id: str
    pairs: int = 0
    total: float = 0.0
    squares: float = 0.0
    out: bool = False

    @property
    def mean(self) -> float:
        return self.total / self.pairs if self.pairs else 0.0

    def standard_error(self) -> float:
        """The mean difference's standard error (infinite below two pairs)."""
        if self.pairs < 2:
            return math.inf
        variance = max(0.0, (self.squares - self.pairs * self.mean**2) / (self.pairs - 1))
        return math.sqrt(variance / self.pairs)

    def add(self, difference: float) -> None:
        self.pairs += 1
        self.total += difference
        self.squares += difference * difference


class PairedSearch(RootSearch):
    """One decision's paired search: `run` until a deadline, then `best`."""

    def __init__(
        self,
        worlds: InformationSet,
        legal: Sequence[str],
        prior_id: str | None,
        policy: HeuristicPolicy,
        rng: random.Random,
        z: float = 2.0,
        min_pairs: int = 8,
    ) -> None:
        super().__init__(worlds, legal, prior_id, policy, rng)
        self.z = z
        self.min_pairs = min_pairs
        self.base = self.order[0]
        self.challengers = {option_id: Challenger(option_id) for option_id in self.order[1:]}
        self.samples = 0

    def allowed(self) -> int:
        """How many options are in play after this many samples (progressive widening)."""
        return min(len(self.order), FIRST_WIDTH + int(math.sqrt(self.samples)))

    def in_play(self) -> list[Challenger]:
        """The challengers widened into play and not yet out, rotated so a cut-short sample starves none."""
        active = [self.challengers[option_id] for option_id in self.order[1 : self.allowed()]]
        active = [challenger for challenger in active if not challenger.out]
        if not active:
            return active
        turn = self.samples % len(active)
        return active[turn:] + active[:turn]

    def run(self, deadline: float, iterations: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """Sample until `clock()` reaches `deadline` or `iterations` playouts are done; at least one sample.

        The clock is read after every playout, so a sample of many options never overruns the budget
        by more than one playout (the differences it finished still count).
        """
        while True:
            challengers = self.in_play()
            if not challengers:
                return  # every other option is out: the base stands
            world = self.worlds.sample(self.rng)
            seed = self.rng.getrandbits(64)
            base = self._playout(world, self.base, seed)
            for challenger in challengers:
                challenger.add(self._playout(world, challenger.option_id, seed) - base)
                if self._spent(deadline, iterations, clock):
                    break
            self.samples += 1
            for challenger in challengers:
                if challenger.pairs >= self.min_pairs and challenger.mean + challenger.standard_error() < 0:
                    challenger.out = True
            if self._spent(deadline, iterations, clock):
                return

    def _spent(self, deadline: float, iterations: int | None, clock: Callable[[], float]) -> bool:
        return (iterations is not None and self.iterations >= iterations) or clock() >= deadline

    def _playout(self, world: GameState, option_id: str, seed: int) -> float:
        """`option_id` then the policy to the end, from a copy of `world`, with generators seeded by `seed`."""
        state = world.clone()
        chance_rng = random.Random(seed)
        policy_rng = random.Random(seed + 1)
        advance_root(state, self.seat, option_id, self.policy, chance_rng, policy_rng)
        play_out(state, self.policy, chance_rng, policy_rng)
        self.iterations += 1
        return self.reward(state.result())

    def statistics(self) -> tuple[int, dict[str, tuple[int, float, float]]]:
        """Playouts, and each challenger's (pairs, sum of differences, sum of squares), to merge into another search."""
        return self.iterations, {c.option_id: (c.pairs, c.total, c.squares) for c in self.challengers.values()}

    def absorb(self, statistics: tuple[int, dict[str, tuple[int, float, float]]]) -> None:
        """Add another search's `statistics` of the same decision and base (root parallelism)."""
        playouts, challengers = statistics
        self.iterations += playouts
        for option_id, (pairs, total, squares) in challengers.items():
            challenger = self.challengers.get(option_id)
            if challenger is None:
                continue
            challenger.pairs += pairs
            challenger.total += total
            challenger.squares += squares
            challenger.out = challenger.pairs >= self.min_pairs and challenger.mean + challenger.standard_error() < 0

    def best(self) -> str:
        """The best challenger if it beats the base by more than `z` standard errors, else the base."""
        ready = [c for c in self.challengers.values() if c.pairs >= self.min_pairs and not c.out]
        if not ready:
            return self.base
        top = max(ready, key=lambda challenger: challenger.mean)
        if top.mean > 0 and top.mean > self.z * top.standard_error():
            return top.option_id
        return self.base
