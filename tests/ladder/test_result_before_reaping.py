"""The ladder records a match's result the moment the referee knows it, while the bots are still being
stopped (issue 28): a bot that ignores game over holds only its own reaping, not the result."""

from __future__ import annotations

import os
import re
import sys
from datetime import timezone

from sqlmodel import col, select

from ladder.db import read_session
from ladder.execute import execute_match
from ladder.matches import schedule_match
from ladder.models import Match, Seat
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME


def test_the_result_is_recorded_before_a_lingering_bot_is_stopped(sqlite_settings: LadderSettings) -> None:
    settings = sqlite_settings
    linger = add_bot(settings, "linger", GAME, command=[sys.executable, "-m", "tests.bots.misbehaving", "linger"])
    steady = add_bot(settings, "steady", GAME, command=[sys.executable, "-m", "tests.bots.misbehaving", "good"])
    match_id = schedule_match(settings, GAME, [linger.id, steady.id], seed=4)  # type: ignore[list-item]
    assert execute_match(settings, match_id) == "done"
    with read_session(settings.db_url) as session:
        match = session.get(Match, match_id)
        assert match is not None and match.status == "done" and match.finished_at is not None
        seats = list(session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))).all())
        finished_at = match.finished_at if match.finished_at.tzinfo else match.finished_at.replace(tzinfo=timezone.utc)
    lingering = seats[0]
    # Ignoring game over is no fault: the result stands as played.
    assert not lingering.faults and not seats[1].faults
    term = re.search(r"linger: SIGTERM at ([0-9.]+)", lingering.stderr_tail)
    over = re.search(r"linger: game over at ([0-9.]+) in pid ([0-9]+)", lingering.stderr_tail)
    assert over is not None and term is not None, lingering.stderr_tail
    # The order, not the speed: the result was written before the referee began to stop the bot ...
    assert finished_at.timestamp() < float(term.group(1))
    # ... which was still stopped (SIGKILL after the ignored SIGTERM), and its exit reported to its owner after.
    assert lingering.exit_code == -9 and seats[1].exit_code == 0
    pid = int(over.group(2))
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive, f"the lingering bot {pid} outlived its match"


def test_the_next_match_starts_while_the_last_ones_bots_are_stopped(sqlite_settings: LadderSettings) -> None:
    """One slot: the second match is started once the first's result is recorded, while the first's match
    process is still stopping its lingering bot (seen together at one moment, never timed)."""
    import time

    from ladder.executors import LocalExecutor

    settings = sqlite_settings
    linger = add_bot(settings, "linger", GAME, command=[sys.executable, "-m", "tests.bots.misbehaving", "linger"])
    steady = add_bot(settings, "steady", GAME, command=[sys.executable, "-m", "tests.bots.misbehaving", "good"])
    first, second = (schedule_match(settings, GAME, [linger.id, steady.id], seed=seed) for seed in (4, 5))  # type: ignore[list-item]
    executor = LocalExecutor(1, poll_seconds=0.01, warm=False)
    overlapped = False
    try:
        executor.submit(settings, first)
        executor.submit(settings, second)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with executor.lock:
                if first in executor.finishing and second in executor.running:
                    overlapped = True
                if not executor.running and not executor.finishing and not executor.pending:
                    break
            time.sleep(0.01)
    finally:
        executor.shutdown()
    assert overlapped, "the second match waited for the first one's bots to be stopped"
    with read_session(settings.db_url) as session:
        for match_id in (first, second):
            match = session.get(Match, match_id)
            assert match is not None and match.status == "done"
            seats = list(session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))).all())
            assert seats[0].exit_code == -9 and "linger: SIGTERM" in seats[0].stderr_tail  # stopped, and reported
            over = re.search(r"in pid ([0-9]+)", seats[0].stderr_tail)
            assert over is not None
            try:
                os.kill(int(over.group(1)), 0)
                alive = True
            except ProcessLookupError:
                alive = False
            assert not alive
