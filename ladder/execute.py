"""Playing one claimed match attempt on a worker: the same function for every executor.

`python -m ladder.execute --home H --db URL MATCH_ID` plays one match in a process of its own: the
local executor starts one per match, so a process killed mid-match fails only its own match.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from ladder.db import DatabaseUnavailable, retrying
from ladder.live import LivePublisher
from ladder.matches import MatchJob, Recorded, claim_match, fail_attempt, heartbeat, record_result, record_seat_exits
from ladder.models import BotKind
from ladder.settings import LadderSettings
from ladder.ticker import Ticker
from referee.warm import LOST_PARENTS

log = logging.getLogger(__name__)


class WarmParentLost(RuntimeError):
    """A bot's warm parent ended mid-match, and the bot with it: the match is voided and queued again."""

#: How often a running attempt renews its lease, and how long a lease lasts without renewal.
HEARTBEAT_SECONDS = float(os.environ.get("B99_LADDER_HEARTBEAT", "2.0"))
LEASE_SECONDS = float(os.environ.get("B99_LADDER_LEASE", "20.0"))
#: How long a worker keeps trying to claim a match while the database is away before giving the
#: task back, and how long it keeps a finished result in hand trying to commit it.
CLAIM_RETRY_SECONDS = float(os.environ.get("B99_LADDER_CLAIM_RETRY", "60"))
RECORD_RETRY_SECONDS = float(os.environ.get("B99_LADDER_RECORD_RETRY", "900"))
#: How long the bots' exit codes, written after the result, are kept in hand (the result stands without them).
EXITS_RETRY_SECONDS = 5.0


def worker_name() -> str:
    """This process as a worker: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


def build_spec(settings: LadderSettings, job: MatchJob, time_control: Any = None, warm_pool: str | None = None) -> Any:
    """The referee's MatchSpec for a claimed attempt (uploaded bots unpacked from the store, the
    replay written live to a scratch file in the home, moved into the database with the result)."""
    from referee.bot_resolution import own_program
    from referee.chance import attempt_seed
    from referee.match import BotSpec, MatchSpec, TimeControl

    bots = []
    for seat in job.seats:
        if seat.kind == BotKind.REMOTE:
            from ladder.remote import relay_command

            # The relay is the ladder's own code and dials the gateway: it runs unsandboxed.
            bots.append(BotSpec(name=seat.name, command=tuple(relay_command(settings, job, seat))))
            continue
        cwd = seat.cwd
        if seat.content_hash:
            from ladder.botstore import materialize

            cwd = str(materialize(settings, seat.content_hash))
        # `python bot.py` means the Python with the SDK on every worker, as it does for `b99 match`.
        bots.append(BotSpec(name=seat.name, command=own_program(seat.command), cwd=cwd, sandbox=seat.sandbox))
    settings.replays_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    settings.secure()
    return MatchSpec(
        game=job.game,
        bots=bots,
        seed=attempt_seed(job.seed, job.attempt),  # a requeued attempt does not replay the chance a bot saw
        variants=job.variants,
        time_control=time_control or TimeControl(**job.time_control),
        replay_path=str(settings.replays_dir / f"{job.uid}-{job.attempt}.jsonl"),
        match_id=job.uid,
        live_replay=True,
        # Each bot's own output goes to a side file in the private home, kept for its owner, never in the replay.
        decision_logs=True,
        decision_logs_path=str(settings.replays_dir / f"{job.uid}-{job.attempt}.output.jsonl"),
        warm_pool=warm_pool,
    )


class Heartbeat(Ticker):
    """A thread that renews a claimed attempt's lease while the match runs."""

    what = "heartbeat"

    def __init__(self, settings: LadderSettings, job: MatchJob, interval: float, lease: float, worker: str) -> None:
        super().__init__(f"heartbeat-{job.match_id}", interval)
        self.settings, self.job, self.lease, self.worker = settings, job, lease, worker

    def describe(self) -> str:
        return f"match {self.job.match_id}"

    def tick(self) -> bool:
        return heartbeat(self.settings, self.job.match_id, self.job.attempt, self.lease, self.worker)


def execute_match(
    settings: LadderSettings,
    match_id: int,
    worker: str | None = None,
    lease_seconds: float | None = None,
    heartbeat_seconds: float | None = None,
    warm_pool: str | None = None,
    on_recorded: Callable[[], None] | None = None,
) -> str:
    """Claim and play one attempt at a match, and write its result at most once.

    The result is written as soon as the referee knows it, while the bots are still being stopped;
    `on_recorded` is then called (the local executor frees the match's slot), and the bots' exit codes
    and stderr tails are written once they ended.

    Returns "done" (recorded now, or by an earlier try of this attempt), or why nothing was rated:
    "closed"/"busy"/"void" (not claimed), "requeued" or "void" (the platform failed), "stale" (this
    attempt was reaped meanwhile: a newer one took over) or "closed". Raises DatabaseUnavailable when the database
    stays away longer than the claim (or the result's) retry window: the caller must not count the
    match as played; its lease runs out and the reconciler sends it again.
    """
    from referee.errors import ArenaError
    from referee.match import run_match

    lease = LEASE_SECONDS if lease_seconds is None else lease_seconds
    name = worker or worker_name()
    job = retrying(lambda: claim_match(settings, match_id, name, lease), CLAIM_RETRY_SECONDS, f"claim match {match_id}")
    if isinstance(job, str):
        return job
    with Heartbeat(settings, job, HEARTBEAT_SECONDS if heartbeat_seconds is None else heartbeat_seconds, lease, name):
        spec = None
        # The result is recorded the moment the referee knows it, while its bots are still being stopped.
        early: list[Recorded | BaseException] = []

        def record_now(report: Any) -> None:
            if LOST_PARENTS:
                return  # a bot died with its warm parent during the game: left to the check below
            try:
                early.append(_record(settings, job, spec, report, name))
            except BaseException as error:  # noqa: BLE001 - raised below, outside the referee
                early.append(error)
                return
            if on_recorded is not None:
                on_recorded()

        try:
            spec = build_spec(settings, job, warm_pool=warm_pool)
            del LOST_PARENTS[:]
            with _live_publisher(settings, job, spec.replay_path):
                report = run_match(spec, on_result=record_now)
            if LOST_PARENTS and not early:
                # Its bots died with their warm parent: the platform broke this match, not a bot.
                raise WarmParentLost("; ".join(LOST_PARENTS))
        except ArenaError as error:
            # A spec the referee refuses (a game or variant that changed since scheduling) never works.
            return retrying(lambda: fail_attempt(settings, match_id, job.attempt, f"refused by the referee: {error}", final=True),
                            RECORD_RETRY_SECONDS, f"void match {match_id}")
        except Exception as error:  # noqa: BLE001 - any other exception means the platform broke: void, never rate
            if early and not isinstance(early[0], BaseException):
                # The result was recorded before this: stopping the bots cannot change it.
                log.warning("match %s: after its result was recorded: %s: %s", match_id, type(error).__name__, error)
                return "done" if early[0] in ("recorded", "already") else early[0].value
            reason = f"platform error: {type(error).__name__}: {error}"
            return retrying(lambda: fail_attempt(settings, match_id, job.attempt, reason), RECORD_RETRY_SECONDS,
                            f"requeue match {match_id}")
        if not early:
            outcome = _record(settings, job, spec, report, name)
        elif isinstance(early[0], BaseException):
            raise early[0]
        else:
            outcome = early[0]
            if outcome in (Recorded.RECORDED, Recorded.ALREADY):
                try:
                    retrying(lambda: record_seat_exits(settings, job, report), EXITS_RETRY_SECONDS,
                             f"record the exits of match {match_id}'s bots")
                except DatabaseUnavailable as error:
                    log.warning("match %s: %s (the result stands)", match_id, error)
    return "done" if outcome in ("recorded", "already") else outcome.value


def _record(settings: LadderSettings, job: MatchJob, spec: Any, report: Any, worker: str) -> Recorded:
    """Write the result with the replay and the bots' output (read from their scratch files, then removed)."""
    replay_file = Path(spec.replay_path) if spec.replay_path else None
    output_file = Path(spec.decision_logs_path) if spec.decision_logs_path else None
    try:
        replay = replay_file.read_bytes() if replay_file is not None and replay_file.exists() else None
        output = output_file.read_bytes() if output_file is not None and output_file.exists() else None
        # The result is kept in hand until its transaction commits (the replay goes in with it).
        return retrying(lambda: record_result(settings, job, report, replay, worker, output=output), RECORD_RETRY_SECONDS,
                        f"record match {job.match_id}")
    finally:
        for scratch in (replay_file, output_file):
            if scratch is not None:
                scratch.unlink(missing_ok=True)  # scratch copies: the database holds them now


def _live_publisher(settings: LadderSettings, job: MatchJob, replay_path: str | None) -> AbstractContextManager[object]:
    """On a worker that is not the service's own machine (Celery), send the running replay's lines to
    the database for the live page; a local match process needs nothing (the page reads its file)."""
    if replay_path is None or os.environ.get("B99_LADDER_WORKER_KIND") == "local":
        return nullcontext()
    from referee.replay import live_path_of

    return LivePublisher(settings, job.match_id, job.attempt, live_path_of(Path(replay_path)))


def die_with_parent(parent_pid: int) -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux), and exit now if the
    parent is already gone: a match process never outlives the service that started it."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(3)


def watch_service(service_pid: int, interval: float = 0.5) -> None:
    """Exit at once when the service `service_pid` is gone (a thread): a match process never
    outlives the service that asked for it, whoever its parent is."""

    def watch() -> None:
        while True:
            try:
                os.kill(service_pid, 0)
            except ProcessLookupError:
                os._exit(3)
            except PermissionError:
                pass
            time.sleep(interval)

    threading.Thread(target=watch, name="watch-service", daemon=True).start()


def serve_local_matches(service_pid: int, warm_pool: str | None, connection: Any, matches: int) -> None:
    """Body of a local match process (forked from the executor's fork server, which has the match code loaded):
    its own process group, dies with the service; plays the matches sent down `connection` ((home, database,
    gateway), match id) one at a time, saying "recorded" once a result is recorded (before the bots are stopped)
    and "done" when it is ready for the next, or "unavailable" when nothing was recorded because the database
    stayed away; ends when told (None), when the executor is gone, or after `matches` matches."""
    os.setsid()
    die_with_parent(os.getppid())
    watch_service(service_pid)
    os.environ["B99_LADDER_WORKER_KIND"] = "local"
    for _ in range(max(1, matches)):
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return  # the executor is gone
        if message is None:
            return
        (home, db_url, gateway), match_id = message
        settings = LadderSettings(home=Path(home), db_url=db_url, gateway=gateway)
        try:
            outcome = execute_match(settings, match_id, warm_pool=warm_pool,
                                    on_recorded=lambda: _say(connection, ("recorded", match_id)))
        except DatabaseUnavailable as error:
            log.error("match %s: %s", match_id, error)
            _say(connection, ("unavailable", match_id))  # nothing was recorded: the match is sent again
            continue
        log.info("match %s: %s", match_id, outcome)
        _say(connection, ("done", match_id))


def _say(connection: Any, word: tuple[str, int]) -> None:
    """Tell the executor how a match went (a service gone meanwhile is no error of the match)."""
    try:
        connection.send(word)
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point of a local match process: play one match; exit 0 once its outcome is committed."""
    parser = argparse.ArgumentParser(prog="python -m ladder.execute", description="Play one ladder match.")
    parser.add_argument("--home", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--gateway", default=None)
    parser.add_argument("--parent", type=int, default=None, help="Die with this process (the service).")
    parser.add_argument("match_id", type=int)
    args = parser.parse_args(argv)
    if args.parent is not None:
        die_with_parent(args.parent)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = LadderSettings(home=Path(args.home), db_url=args.db, gateway=args.gateway)
    try:
        outcome = execute_match(settings, args.match_id)
    except DatabaseUnavailable as error:
        log.error("match %s: %s", args.match_id, error)
        return 75  # EX_TEMPFAIL: nothing was recorded; the match is sent again
    log.info("match %s: %s", args.match_id, outcome)
    return 0


if __name__ == "__main__":
    sys.exit(main())
