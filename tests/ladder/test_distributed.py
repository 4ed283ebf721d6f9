"""Celery workers behind a Redis broker on 127.0.0.1, and the fault tests: a worker killed in the
middle of a match, the ladder service killed in the middle of a run. After restarts no result is
lost or counted twice, every match ends done or void, and recomputed ratings equal the stored ones."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from ladder import queries
from ladder.db import read_session
from ladder.models import Match, MatchStatus, Seat
from ladder.recompute import recompute
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME

ROOT = Path(__file__).resolve().parents[2]
SLOW = [sys.executable, str(Path(__file__).with_name("slow_bot.py"))]
FAST_ENV = {"B99_LADDER_HEARTBEAT": "0.3", "B99_LADDER_LEASE": "2.5", "B99_LADDER_VISIBILITY": "4", "PYTHONPATH": str(ROOT)}


def b99(*args: str, settings: LadderSettings) -> list[str]:
    return [sys.executable, "-c", "from referee.cli import main; main()", "ladder", "--home", str(settings.home),
            "--db", settings.db_url, *args]


def spawn(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, **FAST_ENV}
    return subprocess.Popen(argv, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL a process and everything it started (a whole worker or service, mid-flight)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def statuses(settings: LadderSettings) -> dict[str, int]:
    return queries.status_counts(settings)


def assert_consistent(settings: LadderSettings, expected_matches: int) -> None:
    """Every match closed, each rated match counted once, ratings equal to a recomputation."""
    counts = statuses(settings)
    assert sum(counts.values()) == expected_matches
    assert set(counts) <= {MatchStatus.DONE, MatchStatus.VOID}, counts
    with read_session(settings.db_url) as session:
        done = session.exec(select(Match).where(Match.status == MatchStatus.DONE)).all()
        seqs = sorted(match.rating_seq for match in done)
        rated_seats = session.exec(select(Seat).where(Seat.rank != None)).all()  # noqa: E711
    assert seqs == list(range(1, len(done) + 1))  # each rated once, none skipped
    assert len(rated_seats) == 2 * len(done)
    assert sum(line.games for line in queries.leaderboard(settings, GAME, with_intervals=False)) == 2 * len(done)
    assert recompute(settings, GAME) == []


def add_slow_bots(settings: LadderSettings) -> LadderSettings:
    for name in ("s1", "s2", "s3"):
        add_bot(settings, name, GAME, command=SLOW)
    return settings


@pytest.fixture
def ladder_home(sqlite_settings: LadderSettings) -> LadderSettings:
    return add_slow_bots(sqlite_settings)


@pytest.fixture
def postgres_ladder(postgres, tmp_path: Path) -> LadderSettings:  # type: ignore[no-untyped-def]
    from ladder.db import migrate

    settings = LadderSettings(home=tmp_path / "pg-ladder", db_url=postgres.new_database())
    migrate(settings.db_url)
    return add_slow_bots(settings)


@pytest.fixture
def logs(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "logs"
    path.mkdir()
    yield path


def test_celery_worker_killed_mid_match(ladder_home: LadderSettings, redis_url: str, logs: Path) -> None:
    settings = ladder_home
    first = spawn(b99("worker", "--broker", redis_url, "--concurrency", "2", "--name", "first@%h", settings=settings), logs / "w1.log")
    service = spawn(b99("serve", "--executor", "celery", "--broker", redis_url, "--max-matches", "4",
                        "--concurrency", "2", "--seed", "5", settings=settings), logs / "serve.log")
    try:
        wait_for(lambda: statuses(settings).get(MatchStatus.RUNNING, 0) >= 1, 60, "a running match")
        time.sleep(0.3)
        kill_group(first)  # the worker and its pool die mid-match; nothing is acknowledged
        killed_running = statuses(settings).get(MatchStatus.RUNNING, 0)
        assert killed_running >= 1
        second = spawn(b99("worker", "--broker", redis_url, "--concurrency", "2", "--name", "second@%h", settings=settings), logs / "w2.log")
        try:
            service.wait(120)
        finally:
            kill_group(second)
    finally:
        kill_group(first)
        kill_group(service)
    assert service.returncode == 0, (logs / "serve.log").read_text()[-3000:]
    assert_consistent(settings, 4)
    assert statuses(settings).get(MatchStatus.DONE) == 4
    with read_session(settings.db_url) as session:
        retried = session.exec(select(Match).where(Match.attempts > 1)).all()
    assert retried and all(match.worker is None or match.worker for match in retried)


def test_service_and_worker_killed_mid_run_then_restarted(postgres_ladder: LadderSettings, redis_url: str, logs: Path) -> None:
    """On PostgreSQL: the service and the worker die together, with matches queued in Redis and
    running on the worker; both are started again."""
    settings = postgres_ladder
    worker = spawn(b99("worker", "--broker", redis_url, "--concurrency", "2", settings=settings), logs / "w1.log")
    service = spawn(b99("serve", "--executor", "celery", "--broker", redis_url, "--max-matches", "4",
                        "--concurrency", "3", "--seed", "6", settings=settings), logs / "serve1.log")
    try:
        wait_for(lambda: statuses(settings).get(MatchStatus.RUNNING, 0) >= 1, 60, "a running match")
        kill_group(service)
        kill_group(worker)
        scheduled = sum(statuses(settings).values())
        assert statuses(settings).get(MatchStatus.RUNNING, 0) >= 1
        worker = spawn(b99("worker", "--broker", redis_url, "--concurrency", "2", settings=settings), logs / "w2.log")
        service = spawn(b99("serve", "--executor", "celery", "--broker", redis_url, "--max-matches", "0",
                            settings=settings), logs / "serve2.log")
        assert service.wait(120) == 0, (logs / "serve2.log").read_text()[-3000:]
    finally:
        kill_group(service)
        kill_group(worker)
    assert_consistent(settings, scheduled)
    assert statuses(settings).get(MatchStatus.DONE) == scheduled


def test_local_service_killed_mid_run_then_restarted(ladder_home: LadderSettings, logs: Path) -> None:
    settings = ladder_home
    service = spawn(b99("serve", "--workers", "2", "--max-matches", "4", "--seed", "7", settings=settings), logs / "serve1.log")
    try:
        wait_for(lambda: statuses(settings).get(MatchStatus.RUNNING, 0) >= 1, 60, "a running match")
        kill_group(service)  # the service and its whole process pool die mid-match
    finally:
        kill_group(service)
    scheduled = sum(statuses(settings).values())
    restarted = spawn(b99("serve", "--workers", "2", "--max-matches", "0", settings=settings), logs / "serve2.log")
    try:
        assert restarted.wait(120) == 0, (logs / "serve2.log").read_text()[-3000:]
    finally:
        kill_group(restarted)
    assert_consistent(settings, scheduled)


def test_local_pool_worker_killed_mid_match(ladder_home: LadderSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process of the local pool dies mid-match: the pool is replaced, the match replayed."""
    import threading

    from ladder.executors import LocalExecutor
    from ladder.service import Ladder, SchedulerOptions

    for name, value in FAST_ENV.items():
        monkeypatch.setenv(name, value)  # read by the pool's processes when they start
    settings = ladder_home
    executor = LocalExecutor(2)
    ladder = Ladder(settings, executor, SchedulerOptions(concurrency=3, seed=8, max_matches=4, lease_seconds=2.5, tick_seconds=0.1))
    loop = threading.Thread(target=ladder.run, kwargs={"until_idle": True}, daemon=True)
    try:
        loop.start()
        wait_for(lambda: statuses(settings).get(MatchStatus.RUNNING, 0) >= 1, 60, "a running match")
        running = queries.matches(settings, status=MatchStatus.RUNNING, limit=1)[0]
        pid = int(str(running.worker).rsplit(":", 1)[1])
        os.kill(pid, signal.SIGKILL)
        loop.join(120)
        assert not loop.is_alive()
    finally:
        ladder.stop()
        executor.shutdown()
    assert_consistent(settings, 4)
    assert statuses(settings) == {MatchStatus.DONE: 4}
    assert queries.match(settings, running.id).attempts >= 2  # type: ignore[union-attr]
