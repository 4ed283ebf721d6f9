"""Information-set Monte Carlo tree search for any game, through the engine contract alone.

Each iteration draws a world from the seat's information set (the engine's `determinize`, see
sdk.forward), walks the trees down, samples chance with the engine's own probabilities, plays out
at random to the end and backs the result up. It is multiple-observer ISMCTS: every seat has its
own tree, and a seat's node is what that seat has observed since the root: its own choices and
the events it may see (an opponent's secret choice, or a card dealt face down to someone else,
moves no node of that seat). So no seat's statistics ever depend on what it cannot know, the
searching seat's nor its opponents'. An option's UCB counts how often the option was
*available* (options differ between worlds). Simultaneous decisions are decoupled: every
deciding seat picks from its own node at once. Rewards are per seat: the share of other seats it
beat (a tie counts half), or its score in a solo game (exploration scaled to the scores seen).

Budget per decision: `iterations` and/or `seconds` (the first reached stops the search), never
more than 80% of the clock's per-decision allowance.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.search.budget import clock_limit, env_number, env_seed, run_search
from referee.chance import sample_outcome
from referee.engine import Event, GameResult, GameState, Seat
from sdk import Bot, OptionInfo, Request
from sdk.forward import InformationSet

DEFAULT_SECONDS = 0.5
ROLLOUT_STEP_LIMIT = 100_000


@dataclass(slots=True)
class Edge:
    """Statistics of one option at one node."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0


@dataclass(slots=True)
class Node:
    """One seat's node: its options' statistics, and children by what the seat observes next."""

    edges: dict[str, Edge] = field(default_factory=dict)
    children: dict[Hashable, Node] = field(default_factory=dict)


def freeze(value: Any) -> Hashable:  # noqa: ANN401 - any JSON value
    """A JSON value as a hashable key (dicts by sorted items, lists as tuples)."""
    if isinstance(value, dict):
        return tuple(sorted((key, freeze(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def event_key(event: Event) -> Hashable:
    return (event.kind, freeze(dict(event.data)))


def seat_rewards(result: GameResult) -> list[float]:
    """Per seat: the share of the other seats it ranked above (ties half); a solo game gives the score."""
    players = len(result.ranks)
    if players == 1:
        return [float(result.scores[0])]
    rewards = []
    for seat, rank in enumerate(result.ranks):
        beaten = sum(1.0 if rank < other else 0.5 if rank == other else 0.0 for i, other in enumerate(result.ranks) if i != seat)
        rewards.append(beaten / (players - 1))
    return rewards


class Search:
    """One search from one information set; `run` then `best` (most visited root option of `seat`)."""

    def __init__(self, worlds: InformationSet, rng: random.Random, exploration: float = 0.7) -> None:
        self.worlds = worlds
        self.seat = worlds.seat
        self.rng = rng
        self.exploration = exploration
        self.roots = [Node() for _ in range(worlds.anchor.players)]
        self.iterations = 0
        self.low = math.inf
        self.high = -math.inf

    @property
    def root(self) -> Node:
        """The searching seat's root."""
        return self.roots[self.seat]

    def run(self, deadline: float | None = None, iterations: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """Iterate until `iterations` are done or `clock()` reaches `deadline`; at least once."""
        while True:
            self.iterate()
            if iterations is not None and self.iterations >= iterations:
                return
            if deadline is not None and clock() >= deadline:
                return

    def iterate(self) -> None:
        state = self.worlds.sample(self.rng)
        current = list(self.roots)
        path: list[tuple[Seat, Node, str]] = []
        seen = len(state.events)
        growing = True
        while growing and not state.is_terminal():
            choices: dict[Seat, str] = {}
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), self.rng).id)
            else:
                for seat in state.deciding_seats():
                    options = state.legal_options(seat)
                    if len(options) == 1:
                        choices[seat] = options[0].id
                        continue
                    node = current[seat]
                    choices[seat] = self.select(node, [option.id for option in options])
                    path.append((seat, node, choices[seat]))
                state.apply_decisions(choices)
            events = state.events.since(seen)
            seen = len(state.events)
            keys = [event_key(event) for event in events]
            for seat, node in enumerate(current):
                observed = tuple(key for key, event in zip(keys, events) if event.visible_to(seat))
                own = choices.get(seat)
                if own is None and not observed:
                    continue  # nothing this seat can tell happened: it stays in its information set
                key = (own, observed)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                    growing = False  # one new node per iteration, then play out
                current[seat] = child
        self.rollout(state)
        rewards = seat_rewards(state.result())
        for value in rewards:
            self.low = min(self.low, value)
            self.high = max(self.high, value)
        for seat, node, option_id in path:
            edge = node.edges[option_id]
            edge.visits += 1
            edge.reward += rewards[seat]
        self.iterations += 1

    def select(self, node: Node, option_ids: Sequence[str]) -> str:
        """UCB over the available options (an unvisited one first, at random)."""
        edges = node.edges
        fresh: list[str] = []
        for option_id in option_ids:
            edge = edges.get(option_id)
            if edge is None:
                edge = edges[option_id] = Edge()
            edge.available += 1
            if edge.visits == 0:
                fresh.append(option_id)
        if fresh:
            return fresh[self.rng.randrange(len(fresh))]
        scale = self.high - self.low if self.high > self.low else 1.0
        best_id = option_ids[0]
        best_value = -math.inf
        for option_id in option_ids:
            edge = edges[option_id]
            value = edge.reward / edge.visits + self.exploration * scale * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best_value:
                best_id, best_value = option_id, value
        return best_id

    def rollout(self, state: GameState) -> None:
        """Uniformly random play to the end."""
        rng = self.rng
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            else:
                choices = {}
                for seat in state.deciding_seats():
                    options = state.legal_options(seat)
                    choices[seat] = options[rng.randrange(len(options))].id
                state.apply_decisions(choices)
            steps += 1
            if steps > ROLLOUT_STEP_LIMIT:
                raise RuntimeError(f"{state.game.id}: no end after {ROLLOUT_STEP_LIMIT} steps of a playout")

    def root_visits(self) -> dict[str, int]:
        """Visits per option id of the searching seat at the root."""
        return {option_id: edge.visits for option_id, edge in self.root.edges.items()}

    def best(self, legal: Sequence[str]) -> str:
        """The most visited legal root option (ties: the higher mean reward, then the first)."""
        edges = self.root.edges

        def key(option_id: str) -> tuple[int, float]:
            edge = edges.get(option_id)
            if edge is None or edge.visits == 0:
                return (0, -math.inf)
            return (edge.visits, edge.reward / edge.visits)

        return max(legal, key=key)


class ISMCTSBot(Bot):
    """The searching reference bot (`mcts`): ISMCTS with a per-decision iteration and/or time budget.

    Budget from the arguments, else B99_MCTS_ITERATIONS / B99_MCTS_SECONDS, else 0.5 s a decision.
    `cpu_seconds=True` counts `seconds` in CPU time of the searching thread, as `search` does for
    strength measurements on a shared machine (the match's allowance is still wall time).
    """

    name = "mcts"
    wants_world = True

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        exploration: float = 0.7,
        cpu_seconds: bool = False,
    ) -> None:
        if iterations is None:
            iterations = env_number("B99_MCTS_ITERATIONS", int)  # type: ignore[assignment]
        if seconds is None:
            seconds = env_number("B99_MCTS_SECONDS", float)
        if iterations is None and seconds is None:
            seconds = DEFAULT_SECONDS
        if seed is None:
            seed = env_seed()
        self.iterations = iterations
        self.seconds = seconds
        self.cpu_seconds = cpu_seconds
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.last_search: Search | None = None
        self.warned = False

    def choose(self, request: Request) -> str | OptionInfo:
        began = time.monotonic()
        legal = [option.id for option in request.options]
        if len(legal) == 1:
            return legal[0]
        worlds = request.world
        if worlds is None:
            if not self.warned:
                print("mcts: the referee sends no worlds (match without forward model); playing at random", file=sys.stderr)
                self.warned = True
            return self.rng.choice(list(request.options))
        search = Search(worlds, self.rng, self.exploration)
        wall_deadline = self.deadline(request, began)
        cpu_budget = self.seconds if self.cpu_seconds else None
        run_search(search, math.inf if wall_deadline is None else wall_deadline, cpu_budget, self.iterations)
        self.last_search = search
        return search.best(legal)

    def deadline(self, request: Request, began: float) -> float | None:
        """When to stop thinking by the wall clock: the time budget (unless counted in CPU time), capped at 80% of the allowance."""
        budget = None if self.cpu_seconds else self.seconds
        limits = [limit for limit in (budget, clock_limit(request)) if limit is not None]
        return began + min(limits) if limits else None
