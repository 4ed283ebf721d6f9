"""Helpers for chance nodes: lazily dealt decks and bags, and sampling an outcome with an RNG."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from referee.engine import ChanceOutcome


def draw_outcomes(remaining: Mapping[str, int]) -> list[ChanceOutcome]:
    """Outcomes of drawing one item from what remains: each distinct id, probability count/total, sorted by id."""
    total = sum(remaining.values())
    return [
        ChanceOutcome(item_id, count / total)
        for item_id, count in sorted(remaining.items())
        if count > 0
    ]


def uniform_outcomes(ids: Sequence[str]) -> list[ChanceOutcome]:
    """Equally likely outcomes, in the given order."""
    share = 1.0 / len(ids)
    return [ChanceOutcome(outcome_id, share) for outcome_id in ids]


def sample_outcome(outcomes: Sequence[ChanceOutcome], rng: random.Random) -> ChanceOutcome:
    """Pick one outcome with its probability; deterministic for a given RNG state and outcome order."""
    point = rng.random()
    running = 0.0
    for outcome in outcomes:
        running += outcome.probability
        if point < running:
            return outcome
    return outcomes[-1]
