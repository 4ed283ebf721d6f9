"""A match nobody played (every seat faulted before any decision) is void on the ladder: its faults
are kept for the owners, and no rating moves."""

from __future__ import annotations

import sys

from ladder import queries
from ladder.executors import LocalExecutor
from ladder.models import MatchStatus
from ladder.registry import add_bot
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME

BROKEN = [sys.executable, "-c", "import sys; sys.exit('no weights here')"]


def test_a_match_of_two_broken_bots_is_void_and_rates_nobody(sqlite_settings: LadderSettings) -> None:
    for name in ("broken1", "broken2"):
        add_bot(sqlite_settings, name, GAME, command=BROKEN)
    executor = LocalExecutor(1)
    try:
        Ladder(sqlite_settings, executor, SchedulerOptions(concurrency=1, seed=1, max_matches=1)).run(until_idle=True)
    finally:
        executor.shutdown()
    assert queries.status_counts(sqlite_settings) == {MatchStatus.VOID: 1}
    (row,) = queries.matches(sqlite_settings, limit=5)
    assert "every seat faulted before any bot made a decision" in (row.void_reason or "")
    for seat in row.seats:
        assert seat.faults and seat.faults[0]["kind"] == "startup"
        assert seat.rating_before is None and seat.rating_after is None
