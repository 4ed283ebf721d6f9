"""Root parallelism: helper processes search the same decision on their own worlds, the bot adds up their statistics.

The bot's own process searches as always; each helper (a process of its own, started once with
the bot, so one Python interpreter per core) receives a fresh world of the same information set,
builds the same search with its own seed, runs it to the same deadline and sends back its
statistics: playout counts and reward sums, nothing else. Independent worlds and seeds make the
sums exactly what one process would have found with as many playouts, so the answer is chosen on
the merged statistics as usual. Off by default (`workers=1`): the strength table measures one core.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bots.search.budget import run_search
from bots.search.paired import PairedSearch
from bots.search.policy import HeuristicPolicy
from bots.search.rollout import RolloutSearch
from sdk.forward import InformationSet, decode_world, encode_world

Search = RolloutSearch | PairedSearch


@dataclass(frozen=True)
class SearchSettings:
    """Everything but the world that decides how one decision is searched."""

    style: str
    epsilon: float
    exploration: float
    prior_visits: int
    #: The paired search's bar for leaving the heuristic (see `PairedSearch`).
    z: float = 2.0
    min_pairs: int = 8


def make_search(
    worlds: InformationSet,
    legal: Sequence[str],
    prior: str | None,
    policy: HeuristicPolicy,
    rng: random.Random,
    settings: SearchSettings,
) -> Search:
    """The search `settings.style` names, for one decision."""
    if settings.style == "plain":
        return RolloutSearch(worlds, legal, prior, policy, rng, settings.exploration, settings.prior_visits)
    return PairedSearch(worlds, legal, prior, policy, rng, settings.z, settings.min_pairs)


@dataclass(frozen=True)
class HelperJob:
    """One helper's share of a decision (the world pickled as the referee pickles it)."""

    world: bytes
    seat: int
    legal: tuple[str, ...]
    prior: str | None
    settings: SearchSettings
    seed: int
    wall_deadline: float
    cpu_seconds: float | None
    iterations: int | None


_policies: dict[tuple[str, int, float], HeuristicPolicy] = {}


def helper_search(job: HelperJob) -> Any:  # noqa: ANN401 - the search's own statistics type
    """In a helper process: search the job's decision and return the statistics to merge."""
    world = decode_world(job.world)
    key = (world.game.id, world.players, job.settings.epsilon)
    policy = _policies.get(key)
    if policy is None:
        policy = _policies[key] = HeuristicPolicy(world.game.id, world.players, job.settings.epsilon)
    search = make_search(InformationSet(job.seat, world), job.legal, job.prior, policy, random.Random(job.seed), job.settings)
    run_search(search, job.wall_deadline, job.cpu_seconds, job.iterations)
    return search.statistics()


def warm_up() -> None:
    """Import what a helper needs before its first decision."""
    import referee.registry  # noqa: F401


class RootHelpers:
    """`count` helper processes, started once and reused for every decision."""

    def __init__(self, count: int) -> None:
        # spawn, not fork: the bot's process runs gRPC threads, which a fork would copy half-done.
        self.pool = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"))
        self.count = count
        for _ in range(count):
            self.pool.submit(warm_up)  # start and import now, not during the first decision's budget

    def start(
        self,
        worlds: InformationSet,
        legal: Sequence[str],
        prior: str | None,
        settings: SearchSettings,
        rng: random.Random,
        wall_deadline: float,
        cpu_seconds: float | None,
        iterations: int | None,
    ) -> list[Future[Any]]:
        """Send every helper the decision (each its own world and seed); their statistics arrive as futures."""
        jobs = [
            HelperJob(
                encode_world(worlds.anchor, worlds.seat, rng),
                worlds.seat,
                tuple(legal),
                prior,
                settings,
                rng.getrandbits(63),
                wall_deadline,
                cpu_seconds,
                iterations,
            )
            for _ in range(self.count)
        ]
        return [self.pool.submit(helper_search, job) for job in jobs]

    def close(self) -> None:
        """Stop the helpers; waits for a search still running (it ends at its deadline), so the process exits cleanly."""
        self.pool.shutdown(wait=True, cancel_futures=True)
