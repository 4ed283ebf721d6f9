"""The plain root search with heuristic playouts: which of my options wins most when everyone then plays well?

Also the parts both searches share (`RootSearch`, `MarginReward`, `widening_order`, `advance_root`, `play_out`;
the paired search is bots/search/paired.py). Each iteration draws a world of the seat's information set (the engine's `determinize`), picks
one of the seat's root options by UCB1, lets every other seat deciding at the same moment choose
with the playout policy, and plays the game out with that policy (the game's heuristic with a
little randomness) to the end, sampling chance with the engine's probabilities. The seat's reward
is its pairwise result (the share of other seats it beat, ties half), or its score in a solo game.

Results are noisy at a few hundred playouts, so the reward adds a quarter of tanh(margin / typical
margin) to the win/loss result: between two options that win equally often, the one that wins by
more (or loses by less) is preferred.

Wide choices are widened progressively: the heuristic's own choice and the options nearest it in
the engine's order (neighbouring stakes, cells, counts) come first, and one more option joins
every time the number of iterations passes the next square. The heuristic's choice also gets a
prior (virtual visits at the mean reward), so a few noisy playouts never overturn it by chance.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots.search.policy import HeuristicPolicy
from referee.chance import sample_outcome
from referee.engine import GameResult, GameState, Option, Seat
from sdk.forward import InformationSet

PLAYOUT_STEP_LIMIT = 100_000


MARGIN_WEIGHT = 0.25


def seat_outcome(result: GameResult, seat: Seat) -> tuple[float, float | None]:
    """`seat`'s result and its score margin over the best other (None when there is no other).

    The result is the share of other seats it ranked above (ties half); in a solo game against an
    engine-run AI, 1 for a win and 0 for a loss (the margin is then over the AI's score,
    `details["ai_score"]`); in any other solo game, its score.
    """
    players = len(result.ranks)
    mine = result.ranks[seat]
    score = float(result.scores[seat])
    if players == 1:
        ai_score = result.details.get("ai_score")
        if ai_score is None:
            return score, None
        return (1.0 if mine == 1 else 0.0), score - float(ai_score)
    beaten = sum(1.0 if mine < other else 0.5 if mine == other else 0.0 for i, other in enumerate(result.ranks) if i != seat)
    best_other = max(float(value) for i, value in enumerate(result.scores) if i != seat)
    return beaten / (players - 1), score - best_other


class MarginReward:
    """A seat's reward for one playout: `seat_outcome`'s result plus MARGIN_WEIGHT * tanh(margin / scale).

    The scale is the mean absolute margin seen so far in this search, so the term means "won (or
    lost) by more than usual" in every game, whatever its points.
    """

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.margins = 0
        self.margin_total = 0.0

    def reward(self, result: GameResult) -> float:
        base, margin = seat_outcome(result, self.seat)
        if margin is None:
            return base
        self.margins += 1
        self.margin_total += abs(margin)
        scale = self.margin_total / self.margins
        return base + (MARGIN_WEIGHT * math.tanh(margin / scale) if scale > 0 else 0.0)


def widening_order(legal: list[str], prior_id: str | None, rng: random.Random) -> list[str]:
    """The heuristic's choice first, then the options nearest it in the engine's order (random without one)."""
    if prior_id is None or prior_id not in legal:
        shuffled = list(legal)
        rng.shuffle(shuffled)
        return shuffled
    centre = legal.index(prior_id)
    jitter = {option_id: rng.random() for option_id in legal}
    return sorted(legal, key=lambda option_id: (abs(legal.index(option_id) - centre), jitter[option_id]))


def advance_root(
    state: GameState, searcher: Seat, option_id: str, policy: HeuristicPolicy, chance_rng: random.Random, policy_rng: random.Random
) -> None:
    """Apply `searcher`'s root option and the policy's choices of seats deciding with it."""
    while state.is_chance_node():  # a world is at the seat's decision, but stay safe
        state.apply_chance(sample_outcome(state.chance_outcomes(), chance_rng).id)
    chosen: dict[Seat, Option] = {}
    for seat in state.deciding_seats():
        options = list(state.legal_options(seat))
        if seat == searcher:
            chosen[seat] = next((o for o in options if o.id == option_id), options[0])
        else:
            chosen[seat] = policy.choose(state, seat, options, policy_rng)
    state.apply_decisions({seat: option.id for seat, option in chosen.items()})


def play_out(state: GameState, policy: HeuristicPolicy, chance_rng: random.Random, policy_rng: random.Random) -> None:
    """Every seat plays the policy to the end; chance by the engine's probabilities.

    Chance and the policy's random moves draw from separate generators, so two playouts seeded
    alike see the same dice and draws as long as they ask for them in the same order (common
    random numbers, see bots/search/paired.py); the plain search passes one generator for both.
    """
    for _ in range(PLAYOUT_STEP_LIMIT):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), chance_rng).id)
            continue
        choices = {}
        for seat in state.deciding_seats():
            options = list(state.legal_options(seat))
            choices[seat] = policy.choose(state, seat, options, policy_rng).id
        state.apply_decisions(choices)
    raise RuntimeError(f"{state.game.id}: no end after {PLAYOUT_STEP_LIMIT} steps of a playout")


@dataclass(slots=True)
class Arm:
    """One root option's statistics."""

    option_id: str
    visits: int = 0
    reward: float = 0.0

    @property
    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0


class RootSearch:
    """What both root searches keep for one decision: the worlds, the seat, the policy, the widening order, the rewards."""

    def __init__(self, worlds: InformationSet, legal: Sequence[str], prior_id: str | None, policy: HeuristicPolicy, rng: random.Random) -> None:
        self.worlds = worlds
        self.seat = worlds.seat
        self.policy = policy
        self.rng = rng
        self.prior_id = prior_id
        self.order = widening_order(list(legal), prior_id, rng)
        self.rewards = MarginReward(self.seat)
        #: Playouts played (the unit of the `iterations` budget).
        self.iterations = 0

    def reward(self, result: GameResult) -> float:
        """The result, plus the margin term (see `MarginReward`)."""
        return self.rewards.reward(result)


class RolloutSearch(RootSearch):
    """One decision's search: `run` until a deadline, then `best`."""

    def __init__(
        self,
        worlds: InformationSet,
        legal: Sequence[str],
        prior_id: str | None,
        policy: HeuristicPolicy,
        rng: random.Random,
        exploration: float = 0.5,
        prior_visits: int = 4,
    ) -> None:
        super().__init__(worlds, legal, prior_id, policy, rng)
        self.exploration = exploration
        self.prior_visits = prior_visits
        self.arms = {option_id: Arm(option_id) for option_id in self.order}
        self.total = 0.0
        self.low = math.inf
        self.high = -math.inf

    def allowed(self) -> int:
        """How many options are in play after this many iterations (progressive widening)."""
        return min(len(self.order), 2 + int(math.sqrt(self.iterations)))

    def run(self, deadline: float, iterations: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """Iterate until `clock()` reaches `deadline` or `iterations` are done; at least once."""
        while True:
            self.iterate()
            if iterations is not None and self.iterations >= iterations:
                return
            if clock() >= deadline:
                return

    def select(self) -> Arm:
        """UCB1 over the options in play; the prior counts as virtual visits at the mean reward."""
        candidates = [self.arms[option_id] for option_id in self.order[: self.allowed()]]
        for arm in candidates:
            if arm.visits == 0:
                return arm
        mean_all = self.total / self.iterations if self.iterations else 0.0
        scale = self.high - self.low if self.high > self.low else 1.0
        log_total = math.log(self.iterations + 1)
        best, best_value = candidates[0], -math.inf
        for arm in candidates:
            visits, reward = arm.visits, arm.reward
            if arm.option_id == self.prior_id:
                visits += self.prior_visits
                reward += self.prior_visits * mean_all
            value = reward / visits + self.exploration * scale * math.sqrt(log_total / visits)
            if value > best_value:
                best, best_value = arm, value
        return best

    def iterate(self) -> None:
        rng = self.rng
        state = self.worlds.sample(rng)
        arm = self.select()
        advance_root(state, self.seat, arm.option_id, self.policy, self.rng, self.rng)
        play_out(state, self.policy, self.rng, self.rng)
        reward = self.reward(state.result())
        arm.visits += 1
        arm.reward += reward
        self.iterations += 1
        self.total += reward
        self.low = min(self.low, reward)
        self.high = max(self.high, reward)

    def statistics(self) -> tuple[int, dict[str, tuple[int, float]]]:
        """Playouts, and each option's (visits, reward sum), to merge into another search."""
        return self.iterations, {arm.option_id: (arm.visits, arm.reward) for arm in self.arms.values()}

    def absorb(self, statistics: tuple[int, dict[str, tuple[int, float]]]) -> None:
        """Add another search's `statistics` of the same decision (root parallelism)."""
        _, arms = statistics
        for option_id, (visits, reward) in arms.items():
            arm = self.arms.get(option_id)
            if arm is None:
                continue
            arm.visits += visits
            arm.reward += reward
            self.iterations += visits
            self.total += reward

    def best(self) -> str:
        """The most visited option (the prior's virtual visits included; ties: the higher mean)."""

        def key(arm: Arm) -> tuple[float, float]:
            bonus = self.prior_visits if arm.option_id == self.prior_id else 0
            return (arm.visits + bonus, arm.mean)

        return max(self.arms.values(), key=key).option_id
