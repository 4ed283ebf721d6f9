"""Playing one claimed match attempt on a worker: the same function for every executor."""

from __future__ import annotations

import os
import socket
import threading
from typing import Any

from ladder.matches import MatchJob, claim_match, fail_attempt, heartbeat, record_result
from ladder.models import BotKind
from ladder.settings import LadderSettings

#: How often a running attempt says it is alive, and after how long without that it counts as lost.
HEARTBEAT_SECONDS = float(os.environ.get("B99_LADDER_HEARTBEAT", "2.0"))
LEASE_SECONDS = float(os.environ.get("B99_LADDER_LEASE", "20.0"))


def worker_name() -> str:
    """This process as a worker: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


def build_spec(settings: LadderSettings, job: MatchJob, time_control: Any = None) -> Any:
    """The referee's MatchSpec for a claimed attempt (replay in the ladder's home)."""
    from referee.chance import attempt_seed
    from referee.match import BotSpec, MatchSpec, TimeControl

    bots = []
    for seat in job.seats:
        if seat.kind == BotKind.REMOTE:
            from ladder.remote import relay_command

            # The relay is the ladder's own code and dials the gateway: it runs unsandboxed.
            bots.append(BotSpec(name=seat.name, command=tuple(relay_command(settings, job, seat))))
            continue
        bots.append(BotSpec(name=seat.name, command=tuple(seat.command), cwd=seat.cwd, sandbox=seat.sandbox))
    settings.replays_dir.mkdir(parents=True, exist_ok=True)
    return MatchSpec(
        game=job.game,
        bots=bots,
        seed=attempt_seed(job.seed, job.attempt),  # a requeued attempt does not replay the chance a bot saw
        variants=job.variants,
        time_control=time_control or TimeControl(**job.time_control),
        replay_path=str(settings.replays_dir / f"{job.uid}-{job.attempt}.jsonl"),
        match_id=job.uid,
        live_replay=True,
    )


class Heartbeat:
    """A thread that keeps a claimed attempt's heartbeat fresh while the match runs."""

    def __init__(self, settings: LadderSettings, job: MatchJob, interval: float) -> None:
        self.settings, self.job, self.interval = settings, job, interval
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name=f"heartbeat-{job.match_id}", daemon=True)

    def run(self) -> None:
        while not self.stop.wait(self.interval):
            try:
                if not heartbeat(self.settings, self.job.match_id, self.job.attempt):
                    return
            except Exception:  # noqa: BLE001 - a database hiccup must not kill the match; the lease covers it
                continue

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()


def execute_match(
    settings: LadderSettings,
    match_id: int,
    worker: str | None = None,
    lease_seconds: float | None = None,
    heartbeat_seconds: float | None = None,
) -> str:
    """Claim and play one attempt at a match, and write its result exactly once.

    Returns "done", or why nothing was rated: "closed"/"busy"/"void" (not claimed), "requeued"
    or "void" (the platform failed), "stale" (a newer attempt took over meanwhile).
    """
    from referee.errors import ArenaError
    from referee.match import run_match

    lease = LEASE_SECONDS if lease_seconds is None else lease_seconds
    job = claim_match(settings, match_id, worker or worker_name(), lease)
    if isinstance(job, str):
        return job
    with Heartbeat(settings, job, HEARTBEAT_SECONDS if heartbeat_seconds is None else heartbeat_seconds):
        try:
            report = run_match(build_spec(settings, job))
        except ArenaError as error:
            # A spec the referee refuses (a game or variant that changed since scheduling) never works.
            return fail_attempt(settings, match_id, job.attempt, f"refused by the referee: {error}", final=True)
        except Exception as error:  # noqa: BLE001 - any other exception means the platform broke: void, never rate
            return fail_attempt(settings, match_id, job.attempt, f"platform error: {type(error).__name__}: {error}")
    return "done" if record_result(settings, job, report) else "stale"
