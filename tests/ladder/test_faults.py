"""Fault tests with the real servers, all on 127.0.0.1 or Unix sockets.

A hosted ladder (PostgreSQL, Redis without persistence, the service and two Celery workers, each
worker with its own scratch directory and nothing shared but the broker and the database) runs for
the whole module while faults are thrown at it one after the other: Redis restarted, PostgreSQL
stopped, a worker's main process and one of its pool processes killed, a worker frozen past its
lease, the service killed and restarted. The embedded ladder (SQLite, one process per match) has
its match processes and itself killed. After each fault: matches flow again, no match is left
open past its lease plus a margin, no finished result is lost or counted twice, no replay is
orphaned, and `b99 ladder recompute --check` finds the stored ratings equal to a recomputation.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func
from sqlmodel import col, select

from ladder import queries
from ladder.cli import ladder as ladder_cli
from ladder.db import migrate, sqlite_url, write_session
from ladder.models import GameCounter, Match, MatchStatus, Rating, Seat
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from ladder.status import ladder_status
from tests.ladder.conftest import GAME, PostgresCluster, RedisServer

ROOT = Path(__file__).resolve().parents[2]
SLOW = [sys.executable, str(Path(__file__).with_name("slow_bot.py"))]
LEASE = 5.0
#: How long an open match may outlive its lease before it counts as stuck (a few reconciler rounds).
MARGIN = 6.0
#: Length of the PostgreSQL outage (longer than a lease, so that only the reconciler's hold after
#: an outage keeps live attempts from being reaped).
PG_OUTAGE_SECONDS = float(os.environ.get("B99_TEST_PG_OUTAGE", "6"))
FAST_ENV = {
    "B99_LADDER_HEARTBEAT": "0.5",
    "B99_LADDER_LEASE": str(LEASE),
    "B99_LADDER_DISPATCH_LEASE": "10",
    "B99_LADDER_IDLE_TRANSACTION_SECONDS": "5",
    "B99_LADDER_VISIBILITY": "4",
    "B99_SLOW_SECONDS": "0.03",
    "PYTHONPATH": str(ROOT),
}


def b99(settings: LadderSettings, *args: str) -> list[str]:
    return [sys.executable, "-c", "from referee.cli import main; main()", "ladder", "--home", str(settings.home), "--db", settings.db_url, *args]


def spawn(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, env={**os.environ, **FAST_ENV}, stdout=log.open("ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def kill_group(process: subprocess.Popen[bytes] | None) -> None:
    if process is None:
        return
    try:
        os.killpg(process.pid, signal.SIGCONT)
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    start = time.monotonic()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                print(f"{time.monotonic() - start:6.1f} s: {what}")
                return
        except Exception:  # noqa: BLE001 - the database may be coming back
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def descendants(pid: int) -> set[int]:
    """Every live process below `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def done_count(settings: LadderSettings) -> int:
    return queries.status_counts(settings).get(MatchStatus.DONE, 0)


def running(settings: LadderSettings) -> list[queries.MatchRow]:
    return queries.matches(settings, status=MatchStatus.RUNNING, limit=50)


def wait_results(settings: LadderSettings, new: int, timeout: float = 60.0, what: str = "matches to flow") -> None:
    """Wait for `new` more results than there are now (matches flow)."""
    target = done_count(settings) + new
    wait_for(lambda: done_count(settings) >= target, timeout, f"{what} ({new} new results)")


def check_invariants(settings: LadderSettings, scratch: list[Path]) -> None:
    """No result counted twice or lost from the ratings, none stuck, no orphan replay, ratings recomputed equal."""
    with write_session(settings.db_url) as session:
        # Holding the rating lock, so that the ladder (still running) records nothing meanwhile.
        session.exec(select(GameCounter).with_for_update()).all()
        done = session.exec(select(Match).where(Match.status == MatchStatus.DONE)).all()
        rated_seats = session.exec(select(Seat).where(col(Seat.rank).is_not(None))).all()
        games = session.exec(select(func.sum(Rating.games)).where(Rating.game == GAME)).one()
    assert sorted(match.rating_seq for match in done) == list(range(1, len(done) + 1))  # each rated once
    assert len(rated_seats) == 2 * len(done)
    assert all(match.result_attempt == match.attempts for match in done)
    assert games == 2 * len([match for match in done if match.unrated_reason is None])  # decided by faults: unrated
    stuck = ladder_status(settings, margin=MARGIN).stuck
    assert stuck == [], stuck
    # Every result's replay is in the database; no recorded attempt left its scratch copy behind
    # (an attempt killed mid-match may leave a partial one, which is no result).
    assert all(row.has_replay for row in queries.matches(settings, status=MatchStatus.DONE, limit=10_000))
    recorded = {f"{match.uid}-{match.result_attempt}.jsonl" for match in done}
    orphans = [path.name for directory in scratch for path in (directory / "replays").glob("*.jsonl") if path.name in recorded]
    assert orphans == []
    result = CliRunner().invoke(ladder_cli, ["--home", str(settings.home), "--db", settings.db_url, "recompute", "--check"])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------------------------------- hosted


@dataclass
class HostedLadder:
    """PostgreSQL, Redis, the service and two Celery workers, each startable and killable."""

    settings: LadderSettings
    postgres: PostgresCluster
    redis: RedisServer
    root: Path
    service: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes] | None] = field(default_factory=lambda: [None, None])

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def scratch(self, index: int) -> Path:
        return self.root / f"worker{index}"

    def start_service(self) -> None:
        self.service = spawn(b99(self.settings, "serve", "--executor", "celery", "--broker", self.redis.url,
                                 "--concurrency", "5", "--seed", "11"), self.logs / "service.log")

    def start_worker(self, index: int) -> None:
        self.workers[index] = spawn(
            [sys.executable, "-c", "from referee.cli import main; main()", "ladder", "worker", "--broker", self.redis.url, "--concurrency", "2",
             "--name", f"w{index}-{time.monotonic_ns()}@%h", "--scratch", str(self.scratch(index))],
            self.logs / f"worker{index}.log",
        )

    def worker_of(self, row: queries.MatchRow) -> int:
        """Which of the two workers runs the pool process that plays `row`."""
        pid = int(str(row.worker).rsplit(":", 1)[1])
        for index, worker in enumerate(self.workers):
            if worker is not None and pid in descendants(worker.pid):
                return index
        raise AssertionError(f"match {row.id} is played by {row.worker}, no worker of this test")

    def check(self) -> None:
        check_invariants(self.settings, [self.scratch(0), self.scratch(1)])

    def tail(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-2500:]}" for log in sorted(self.logs.glob("*.log")))


@contextlib.contextmanager
def hosted_ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostedLadder]:
    postgres = PostgresCluster()
    redis = RedisServer()
    root = tmp_path_factory.mktemp("hosted")
    (root / "logs").mkdir()
    settings = LadderSettings(home=root / "service-home", db_url=postgres.new_database())
    migrate(settings.db_url)
    for name in ("s1", "s2", "s3"):
        add_bot(settings, name, GAME, command=SLOW)
    # An uploaded bot: the workers, which share no disk with the service, unpack it from the database.
    upload = root / "upload"
    upload.mkdir()
    (upload / "slow_bot.py").write_bytes(Path(SLOW[1]).read_bytes())
    add_bot(settings, "uploaded", GAME, command=[sys.executable, "slow_bot.py"], upload=upload, sandbox="none")
    shutil.rmtree(settings.store_dir)  # nothing on the service's disk either
    cluster = HostedLadder(settings, postgres, redis, root)
    try:
        cluster.start_worker(0)
        cluster.start_worker(1)
        cluster.start_service()
        wait_results(settings, 1, 90, "the first result")
        yield cluster
    finally:
        kill_group(cluster.service)
        for worker in cluster.workers:
            kill_group(worker)
        redis.stop()
        postgres.stop()


def fault_redis_restarted_without_persistence(hosted: HostedLadder) -> None:
    """Every task waiting in Redis is lost: the reconciler sends those matches again."""
    settings = hosted.settings
    wait_for(lambda: queries.status_counts(settings).get(MatchStatus.QUEUED, 0) >= 1, 30, "a task waiting in Redis")
    waiting = [row.id for row in queries.matches(settings, status=MatchStatus.QUEUED, limit=50)]
    hosted.redis.kill()
    time.sleep(2.0)
    hosted.redis.start()
    wait_for(lambda: all(queries.match(settings, m).status == MatchStatus.DONE for m in waiting), 60,  # type: ignore[union-attr]
             "the matches whose tasks Redis lost to be played")
    wait_results(settings, 3, 60, "matches after Redis came back empty")
    assert ladder_status(settings).retried >= 1
    hosted.check()


def fault_uploaded_bot_fetched_by_content_hash(hosted: HostedLadder) -> None:
    """Workers need nothing shared but the broker and the database: the uploaded bot played from
    each worker's own cache, and every replay is in the database."""
    settings = hosted.settings
    wait_for(lambda: any(seat.bot == "uploaded" and seat.rank is not None and not seat.faults
                         for row in queries.matches(settings, status=MatchStatus.DONE, limit=50) for seat in row.seats),
             60, "a rated match of the uploaded bot")
    caches = [path for index in (0, 1) for path in (hosted.scratch(index) / "bot-cache").glob("*") if path.is_dir()]
    assert caches and all((path / "slow_bot.py").read_bytes() == Path(SLOW[1]).read_bytes() for path in caches)
    done = queries.matches(settings, status=MatchStatus.DONE, limit=20)
    assert done and all(row.has_replay and row.replay_path is None for row in done)


def fault_postgres_stopped(hosted: HostedLadder) -> None:
    """PostgreSQL stops for longer than a lease: results finished meanwhile are kept in hand and
    written when it is back; no live attempt is reaped, no match replayed."""
    settings = hosted.settings
    # Two matches in flight are what the fault needs; with matches as short as they are now, three at once (of
    # the two workers' four pool processes) can take longer than a loaded machine gives this wait.
    wait_for(lambda: len(running(settings)) >= 2, 60, "two running matches")
    in_flight = {row.id: row.attempts for row in running(settings)}
    hosted.postgres.halt()
    time.sleep(PG_OUTAGE_SECONDS)
    hosted.postgres.resume()
    wait_results(settings, 3, 60, "matches after PostgreSQL came back")
    wait_for(lambda: all(queries.match(settings, m).status not in MatchStatus.OPEN for m in in_flight), 60,  # type: ignore[union-attr]
             "the matches in flight during the outage to finish")
    after = {match_id: queries.match(settings, match_id) for match_id in in_flight}
    replayed = {match_id: (row.status, row.attempts) for match_id, row in after.items()
                if row is None or row.status != MatchStatus.DONE or row.attempts != in_flight[match_id]}
    assert replayed == {}, f"matches in flight during the outage were replayed: {replayed}"
    hosted.check()


def fault_worker_main_process_killed(hosted: HostedLadder) -> None:
    """kill -9 of a worker's main process: its pool processes die with it, their matches are
    played again elsewhere; a new worker joins."""
    settings = hosted.settings
    wait_for(lambda: any(hosted.worker_of(row) == 0 for row in running(settings)), 30, "a match on worker 0")
    worker = hosted.workers[0]
    assert worker is not None
    pool = descendants(worker.pid)
    lost = [row.id for row in running(settings) if hosted.worker_of(row) == 0]
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait(10)
    wait_for(lambda: not any(alive(pid) for pid in pool), 10, "the pool processes to die with their worker")
    hosted.start_worker(0)
    wait_for(lambda: all(queries.match(settings, m).status == MatchStatus.DONE for m in lost), 60,  # type: ignore[union-attr]
             "the lost matches to be played again")
    wait_results(settings, 2, 60)
    hosted.check()


def fault_pool_process_killed(hosted: HostedLadder) -> None:
    """kill -9 of one pool process fails only the match it was playing."""
    settings = hosted.settings
    wait_for(lambda: len(running(settings)) >= 2, 30, "two running matches")
    victim, *others = running(settings)
    os.kill(int(str(victim.worker).rsplit(":", 1)[1]), signal.SIGKILL)
    wait_for(lambda: queries.match(settings, victim.id).status == MatchStatus.DONE, 60, "the killed match to be played again")  # type: ignore[union-attr]
    wait_for(lambda: all(queries.match(settings, row.id).status == MatchStatus.DONE for row in others), 60, "the other matches")  # type: ignore[union-attr]
    assert queries.match(settings, victim.id).attempts == victim.attempts + 1  # type: ignore[union-attr]
    assert [queries.match(settings, row.id).attempts for row in others] == [row.attempts for row in others]  # type: ignore[union-attr]
    hosted.check()


def fault_worker_frozen_past_its_lease(hosted: HostedLadder) -> None:
    """SIGSTOP of a whole worker for longer than a lease: its matches are played by the other
    worker; once thawed, its late results are dropped (a game the platform broke is never rated)."""
    settings = hosted.settings
    worker = hosted.workers[1]
    assert worker is not None
    frozen: dict[int, int] = {}
    while not frozen:
        wait_for(lambda: any(hosted.worker_of(row) == 1 for row in running(settings)), 30, "a match on worker 1")
        candidates = {row.id: row.attempts for row in running(settings) if hosted.worker_of(row) == 1}
        os.killpg(worker.pid, signal.SIGSTOP)
        time.sleep(0.5)
        # A match that committed its result just before the stop was not frozen: only the others count.
        frozen = {m: a for m, a in candidates.items() if queries.match(settings, m).status != MatchStatus.DONE}  # type: ignore[union-attr]
        if not frozen:
            os.killpg(worker.pid, signal.SIGCONT)
    try:
        wait_for(lambda: all(queries.match(settings, m).status == MatchStatus.DONE for m in frozen), 120,  # type: ignore[union-attr]
                 "the frozen worker's matches to be played elsewhere")
    finally:
        os.killpg(worker.pid, signal.SIGCONT)
    for match_id, attempts in frozen.items():
        assert queries.match(settings, match_id).attempts > attempts  # type: ignore[union-attr]
    wait_results(settings, 2, 60, "matches after the worker thawed")
    hosted.check()


def fault_service_killed_and_restarted(hosted: HostedLadder) -> None:
    settings = hosted.settings
    wait_for(lambda: len(running(settings)) >= 1, 30, "a running match")
    kill_group(hosted.service)
    time.sleep(1.0)
    hosted.start_service()
    wait_results(settings, 3, 60, "matches after the service restarted")
    status = CliRunner().invoke(ladder_cli, ["--home", str(settings.home), "--db", settings.db_url, "status"])
    assert status.exit_code == 0 and "workers seen" in status.output and "stuck" in status.output, status.output
    hosted.check()


FAULTS = [fault_redis_restarted_without_persistence, fault_uploaded_bot_fetched_by_content_hash, fault_postgres_stopped,
          fault_worker_main_process_killed, fault_pool_process_killed, fault_worker_frozen_past_its_lease,
          fault_service_killed_and_restarted]


def test_hosted_ladder_survives_every_fault(tmp_path_factory: pytest.TempPathFactory) -> None:
    """One hosted ladder, set up once, takes every fault in turn (each checked before the next)."""
    with hosted_ladder(tmp_path_factory) as hosted:
        for fault in FAULTS:
            started = time.monotonic()
            try:
                fault(hosted)
            except AssertionError as error:
                raise AssertionError(f"{fault.__name__}: {error}\n{hosted.tail()}") from None
            print(f"{fault.__name__}: {time.monotonic() - started:.1f} s")


# ---------------------------------------------------------------------------------------------- embedded


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[tuple[LadderSettings, Path]]:
    settings = LadderSettings(home=tmp_path / "ladder", db_url=sqlite_url(tmp_path / "ladder" / "ladder.db"))
    migrate(settings.db_url)
    for name in ("e1", "e2", "e3"):
        add_bot(settings, name, GAME, command=SLOW)
    logs = tmp_path / "logs"
    logs.mkdir()
    yield settings, logs


def serve_embedded(settings: LadderSettings, log: Path) -> subprocess.Popen[bytes]:
    return spawn(b99(settings, "serve", "--workers", "2", "--concurrency", "2", "--seed", "3"), log)


def test_embedded_kills_fail_only_their_match_and_leave_no_orphan(embedded: tuple[LadderSettings, Path]) -> None:
    """A match process killed mid-match fails only its match; the service killed with -9 takes
    every process it started with it; restarted, it carries on."""
    settings, logs = embedded
    service = serve_embedded(settings, logs / "serve1.log")
    restarted = None
    try:
        wait_for(lambda: len(running(settings)) >= 2, 60, "two running matches")
        victim, other = running(settings)[:2]
        os.kill(int(str(victim.worker).rsplit(":", 1)[1]), signal.SIGKILL)
        wait_for(lambda: queries.match(settings, victim.id).status == MatchStatus.DONE, 60, "the killed match, played again")  # type: ignore[union-attr]
        wait_for(lambda: queries.match(settings, other.id).status == MatchStatus.DONE, 60, "the other match")  # type: ignore[union-attr]
        assert queries.match(settings, victim.id).attempts == victim.attempts + 1  # type: ignore[union-attr]
        assert queries.match(settings, other.id).attempts == other.attempts  # type: ignore[union-attr]

        wait_for(lambda: len(running(settings)) >= 1 and len(descendants(service.pid)) >= 3, 60, "a match with its bots")
        started = descendants(service.pid)
        os.kill(service.pid, signal.SIGKILL)  # only the service: what it started must die with it
        service.wait(10)
        wait_for(lambda: not any(alive(pid) for pid in started), 10, "no process to outlive the service")

        restarted = serve_embedded(settings, logs / "serve2.log")
        wait_results(settings, 2, 60, "matches after the restart")
    finally:
        kill_group(service)
        kill_group(restarted)
    check_invariants(settings, [settings.home])
