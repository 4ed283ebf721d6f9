"""A ladder's liveness at a glance: matches queued, running, stuck (open past their lease plus a
margin) and retried, and the workers seen with their last heartbeat (`b99 ladder status`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import col, select

from ladder.db import read_session
from ladder.models import Match, MatchStatus, Worker, utcnow
from ladder.settings import LadderSettings

#: An open match whose lease ended longer ago than this is stuck: the reconciler should have acted.
STUCK_MARGIN_SECONDS = 10.0


@dataclass(frozen=True)
class OpenMatch:
    """A queued or running match and its lease."""

    id: int
    game: str
    status: str
    attempts: int
    dispatches: int
    worker: str | None
    lease_expires_at: datetime | None
    stuck: bool


@dataclass(frozen=True)
class WorkerSeen:
    """A worker process as last seen."""

    name: str
    kind: str
    heartbeat_at: datetime
    match_id: int | None
    matches_done: int


@dataclass
class LadderStatus:
    """Counts by status, the open matches, and the workers."""

    counts: dict[str, int]
    open: list[OpenMatch] = field(default_factory=list)
    retried: int = 0  # matches (any status) played or sent more than once
    workers: list[WorkerSeen] = field(default_factory=list)

    @property
    def stuck(self) -> list[OpenMatch]:
        return [match for match in self.open if match.stuck]


def ladder_status(settings: LadderSettings, margin: float = STUCK_MARGIN_SECONDS, workers: int = 50) -> LadderStatus:
    """The ladder's liveness now."""
    now = utcnow()
    with read_session(settings.db_url) as session:
        counts = dict(session.exec(select(Match.status, func.count()).group_by(Match.status)).all())
        rows = session.exec(select(Match).where(col(Match.status).in_(MatchStatus.OPEN)).order_by(col(Match.id))).all()
        retried = session.exec(
            select(func.count()).select_from(Match).where((col(Match.attempts) > 1) | (col(Match.dispatches) > 1))
        ).one()
        seen = session.exec(select(Worker).order_by(col(Worker.heartbeat_at).desc()).limit(workers)).all()
    cutoff = now - timedelta(seconds=margin)
    return LadderStatus(
        counts={str(k): int(v) for k, v in counts.items()},
        open=[
            OpenMatch(
                id=row.id or 0, game=row.game, status=row.status, attempts=row.attempts, dispatches=row.dispatches,
                worker=row.worker, lease_expires_at=row.lease_expires_at,
                stuck=row.dispatched_at is not None and (row.lease_expires_at is None or row.lease_expires_at < cutoff),
            )
            for row in rows
        ],
        retried=int(retried),
        workers=[WorkerSeen(w.name, w.kind, w.heartbeat_at, w.match_id, w.matches_done) for w in seen],
    )
