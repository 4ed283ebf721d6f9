"""Turning per-seat sort keys into competition ranks (1 = best, ties share a rank: 1, 1, 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank seats by `keys`, higher is better; equal keys share the best rank of their group."""
    ranks = []
    for key in keys:
        ranks.append(1 + sum(1 for other in keys if other > key))
    return tuple(ranks)
