"""A searching bot's budget per decision: from its arguments or the environment, capped by the match clock.

`search` and `mcts` read the same kind of settings (`B99_SEARCH_SECONDS`, `B99_MCTS_ITERATIONS`,
...) and stop at the same point of the clock; one helper keeps the two alike.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Protocol

from sdk import Request

#: Share of the per-decision allowance a search may use (the rest covers the answer's way back).
ALLOWANCE_SHARE = 0.8
#: Share of the remaining bank a search may use when the match has no per-decision allowance.
BANK_SHARE = 0.05


class SearchSettingsError(ValueError):
    """A search setting from the environment or the arguments that cannot be used (one-line message)."""


def env_number(name: str, kind: type[int] | type[float]) -> int | float | None:
    """The environment variable `name` as a positive `kind`, or None when unset or empty."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = kind(text)
    except ValueError:
        raise SearchSettingsError(f"{name}={text!r}: not a {kind.__name__}") from None
    if value <= 0:
        raise SearchSettingsError(f"{name}={text!r}: must be above 0")
    return value


def env_seed() -> int | None:
    """`B99_BOT_SEED` as an int, or None (any int is a seed, so no positivity check)."""
    text = os.environ.get("B99_BOT_SEED", "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise SearchSettingsError(f"B99_BOT_SEED={text!r}: not an int") from None


def clock_limit(request: Request) -> float | None:
    """Seconds the match clock leaves this decision: 80% of the allowance, else 5% of the bank, else None."""
    allowance = request.clock.per_decision_seconds
    if allowance > 0:
        return ALLOWANCE_SHARE * allowance
    if request.clock.bank_remaining_seconds > 0:
        return BANK_SHARE * request.clock.bank_remaining_seconds
    return None


class Runnable(Protocol):
    """A search that iterates until `clock()` reaches `deadline` or `iterations` are done."""

    def run(self, deadline: float, iterations: int | None = None, clock: Callable[[], float] = time.monotonic) -> None: ...


def run_search(search: Runnable, wall_deadline: float, cpu_seconds: float | None, iterations: int | None) -> None:
    """Run until the wall deadline, or `cpu_seconds` of this thread's CPU time, or `iterations` playouts."""
    if cpu_seconds is None:
        search.run(wall_deadline, iterations)
        return
    cpu_deadline = time.thread_time() + cpu_seconds

    def spent() -> float:
        # Whichever comes first: the CPU budget, or the wall-clock allowance of the match.
        return cpu_deadline if time.monotonic() >= wall_deadline else time.thread_time()

    search.run(cpu_deadline, iterations, spent)
