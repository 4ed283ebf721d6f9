"""The local executor's match processes play match after match: a bot that crashes ends nothing but its own
seat, and a match process killed mid-match fails only its match, which a fresh process plays again."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable

from ladder import queries
from ladder.executors import LocalExecutor
from ladder.matches import schedule_match
from ladder.models import MatchStatus
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME

MISBEHAVING = [sys.executable, "-m", "tests.bots.misbehaving"]
QUICK = {"per_decision_seconds": 1.0, "bank_seconds": 1.0}


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def pid_of(worker: str | None) -> int:
    return int(str(worker).rsplit(":", 1)[1])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_match_process_plays_on_through_a_crashing_bot_and_a_killed_one_fails_only_its_match(
    sqlite_settings: LadderSettings,
) -> None:
    settings = sqlite_settings
    crash = add_bot(settings, "crash", GAME, command=[*MISBEHAVING, "crash"]).id or 0
    hang = add_bot(settings, "hang", GAME, command=[*MISBEHAVING, "hang"]).id or 0
    steady = add_bot(settings, "steady", GAME, command=[*MISBEHAVING, "good"]).id or 0
    executor = LocalExecutor(1)
    told: list[int] = []
    executor.listen(told.extend)

    def status(match_id: int) -> str:
        return queries.match(settings, match_id).status  # type: ignore[union-attr]

    try:
        crashing = [schedule_match(settings, GAME, [crash, steady][:: 1 if seed % 2 else -1], seed=seed) for seed in range(4)]
        for match_id in crashing:
            executor.submit(settings, match_id)
        wait_for(lambda: all(status(match_id) == MatchStatus.DONE for match_id in crashing), "the crashing bot's matches")
        rows = [queries.match(settings, match_id) for match_id in crashing]
        pids = [pid_of(row.worker) for row in rows]  # type: ignore[union-attr]
        assert len(set(pids)) < len(pids), "one match process played several matches"
        for row in rows:
            seat = next(seat for seat in row.seats if seat.bot_id == crash)  # type: ignore[union-attr]
            assert seat.faults and seat.rank == 2 and "crashing on purpose" in seat.stderr_tail

        victim = schedule_match(settings, GAME, [hang, steady], seed=7, time_control=QUICK)
        executor.submit(settings, victim)
        wait_for(lambda: status(victim) == MatchStatus.RUNNING, "the hanging bot's match to start")
        killed = pid_of(queries.match(settings, victim).worker)  # type: ignore[union-attr]
        os.kill(killed, signal.SIGKILL)
        wait_for(lambda: status(victim) == MatchStatus.QUEUED, "the killed match, handed back")
        assert victim in told
        executor.submit(settings, victim)  # as the reconciler sends it again
        after = schedule_match(settings, GAME, [steady, crash], seed=8)
        executor.submit(settings, after)
        wait_for(lambda: status(victim) == MatchStatus.DONE and status(after) == MatchStatus.DONE, "the matches after the kill")
        again = queries.match(settings, victim)
        assert again.attempts == 2 and pid_of(again.worker) != killed  # type: ignore[union-attr]
        assert all(status(match_id) == MatchStatus.DONE for match_id in crashing)  # nothing else was failed
        pids += [pid_of(again.worker), pid_of(queries.match(settings, after).worker)]  # type: ignore[union-attr]
    finally:
        executor.shutdown(timeout=60)
    assert not any(alive(pid) for pid in pids), "no match process outlives the executor"
    assert not list((settings.home / "run").glob("match-*.pid"))
