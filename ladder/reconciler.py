"""Liveness by design: every open match holds a lease, and the reconciler sends again whatever
outlived its lease, whatever the executor.

- A queued match is leased to the executor when it is dispatched. If no worker claims it before
  the lease ends (the task was lost with a broker restarted without persistence, a local process
  died before claiming), it is dispatched again.
- A running attempt renews its lease by heartbeat. If the lease ends (the worker was killed,
  frozen or cut off), the attempt is failed: the match is queued again (or voided after
  max_attempts) and dispatched again.
- While the reconciler itself cannot reach the database, nobody can renew a lease: after such an
  outage it waits one more lease before it reaps anything, so live workers get to renew theirs.

Duplicate dispatches are harmless: a claim checks the match's state in one transaction, and a
result is recorded at most once per match.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field

from sqlalchemy import or_
from sqlmodel import col, select

from ladder.db import read_session
from ladder.matches import mark_dispatched, reap_dead_holders, reap_expired, undispatch
from ladder.models import Match, MatchStatus, utcnow
from ladder.settings import LadderSettings

log = logging.getLogger(__name__)

#: How long a dispatched match may wait for a worker to claim it before it is sent again. Longer
#: than a task normally waits in the broker's queue; a duplicate send costs one refused claim.
DISPATCH_LEASE_SECONDS = float(os.environ.get("B99_LADDER_DISPATCH_LEASE", "30"))


@dataclass
class ReconcileRound:
    """What one round did: attempts reaped, matches sent (first time or again)."""

    reaped: list[int] = field(default_factory=list)
    dispatched: list[int] = field(default_factory=list)
    redispatched: list[int] = field(default_factory=list)
    held: bool = False  # reaping held back after an outage of the database


class Reconciler:
    """Reaps expired attempts and (re)dispatches queued matches; one round per call to step()."""

    def __init__(self, settings: LadderSettings, executor, run_lease: float,  # type: ignore[no-untyped-def]
                 dispatch_lease: float = DISPATCH_LEASE_SECONDS) -> None:
        self.settings = settings
        self.executor = executor
        self.run_lease = run_lease
        self.dispatch_lease = dispatch_lease
        self.outage_since: float | None = None  # when the database first failed since the last good round
        self.hold_reaping_until = 0.0

    def database_failed(self) -> None:
        """Note that a round could not reach the database (the caller saw it fail)."""
        if self.outage_since is None:
            self.outage_since = time.monotonic()

    def step(self) -> ReconcileRound:
        """One round. Raises what the database raises (the caller notes it and retries)."""
        result = self.reap()
        self.dispatch(result)
        return result

    def reap(self) -> ReconcileRound:
        """The reaping half of a round (attempts whose holder is gone or whose lease ended); no dispatch."""
        now = time.monotonic()
        if self.outage_since is not None:
            # Nobody could renew a lease while the database was away: give live workers one lease
            # to renew theirs before anything is reaped.
            self.hold_reaping_until = now + self.run_lease
            log.warning("the database was away for %.1f s: reaping held for %.1f s so workers can renew their leases",
                        now - self.outage_since, self.run_lease)
        result = ReconcileRound(held=now < self.hold_reaping_until)
        result.reaped = reap_dead_holders(self.settings)
        if not result.held:
            result.reaped += reap_expired(self.settings)
            for match_id in result.reaped:
                log.warning("match %s: attempt lost (lease expired or its process gone), queued again or voided", match_id,
                            extra={"match_id": match_id, "event": "reaped"})
        self.outage_since = None
        return result

    def dispatch(self, result: ReconcileRound | None = None) -> ReconcileRound:
        """Send every queued match that was never sent, or whose dispatch lease ran out."""
        result = result or ReconcileRound()
        with read_session(self.settings.db_url) as session:
            due = session.exec(
                select(Match.id, Match.dispatched_at)
                .where(
                    Match.status == MatchStatus.QUEUED,
                    or_(col(Match.dispatched_at).is_(None), col(Match.lease_expires_at) < utcnow()),
                )
                .order_by(col(Match.id))
            ).all()
        for match_id, dispatched_at in due:
            if match_id is None or not mark_dispatched(self.settings, match_id, self.dispatch_lease):
                continue
            try:
                self.executor.submit(self.settings, match_id)
            except Exception as error:  # noqa: BLE001 - the broker is away: hand it back, try next round
                log.warning("match %s: could not dispatch (%s: %s); trying again", match_id, type(error).__name__, error)
                undispatch(self.settings, match_id)
                break
            (result.dispatched if dispatched_at is None else result.redispatched).append(match_id)
            if dispatched_at is not None:
                log.warning("match %s: dispatch lease expired unclaimed; sent again", match_id,
                            extra={"match_id": match_id, "event": "redispatched"})
        return result
