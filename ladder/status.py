"""A ladder's liveness at a glance: matches queued, running, stuck (open past their lease plus a
margin) and retried, the scheduler, the workers seen with their last heartbeat, and the games whose
settings their active bots cannot meet (`b99 ladder status`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import col, select

from ladder.db import read_session
from ladder.models import Bot, BotStatus, Match, MatchStatus, Worker, utcnow
from ladder.settings import LadderSettings

#: An open match whose lease ended longer ago than this is stuck: the reconciler should have acted.
STUCK_MARGIN_SECONDS = 10.0
#: Workers are listed when seen within this time.
WORKERS_SEEN_SECONDS = 3600.0


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
    """A worker as last seen: a Celery worker's host, or a ladder service's local executor (each match
    it plays is a process of its own: they are counted here, not listed)."""

    name: str
    kind: str
    heartbeat_at: datetime
    match_id: int | None  # the latest match it plays, None when idle
    matches_done: int
    processes: int = 1  # match processes seen on it
    playing: tuple[int, ...] = ()  # every match it plays now


@dataclass(frozen=True)
class UnplayableGame:
    """A game whose settings its active bots cannot meet: no rated match of it can be scheduled."""

    game: str
    active: int
    needs: int
    players: str  # the settings' player counts, as described

    @property
    def reason(self) -> str:
        return (f"{self.game} needs {self.needs} players per match (players: {self.players}) but has only "
                f"{self.active} active bot{'s' if self.active != 1 else ''}: no rated match can be scheduled "
                "(add bots, change its players with `b99 ladder settings`, or serve with --self-play)")


@dataclass
class LadderStatus:
    """Counts by status, the open matches, and the workers."""

    counts: dict[str, int]
    open: list[OpenMatch] = field(default_factory=list)
    retried: int = 0  # matches (any status) played or sent more than once
    workers: list[WorkerSeen] = field(default_factory=list)
    scheduler: Any = None  # the ladder.scheduler_lease.LeaseHolder, None when no scheduler runs
    unplayable: list[UnplayableGame] = field(default_factory=list)

    @property
    def stuck(self) -> list[OpenMatch]:
        return [match for match in self.open if match.stuck]


def ladder_status(settings: LadderSettings, margin: float = STUCK_MARGIN_SECONDS, workers: int = 50,
                  games: Any = None) -> LadderStatus:
    """The ladder's liveness now (`games`: the ladder.game_settings.GamesFile; default: the home's)."""
    from ladder.scheduler_lease import current_holder

    now = utcnow()
    with read_session(settings.db_url) as session:
        counts = dict(session.exec(select(Match.status, func.count()).group_by(Match.status)).all())
        rows = session.exec(select(Match).where(col(Match.status).in_(MatchStatus.OPEN)).order_by(col(Match.id))).all()
        retried = session.exec(
            select(func.count()).select_from(Match).where((col(Match.attempts) > 1) | (col(Match.dispatches) > 1))
        ).one()
        cutoff_seen = now - timedelta(seconds=WORKERS_SEEN_SECONDS)
        # One row per host and kind, counted by the database: a busy local executor leaves a row per match.
        grouped = session.exec(
            select(Worker.host, Worker.kind, func.max(Worker.heartbeat_at), func.count(), func.sum(Worker.matches_done))
            .where(col(Worker.heartbeat_at) >= cutoff_seen).group_by(Worker.host, Worker.kind)
        ).all()
        busy = session.exec(
            select(Worker.host, Worker.kind, Worker.match_id, Worker.heartbeat_at)
            .where(col(Worker.heartbeat_at) >= cutoff_seen, col(Worker.match_id).is_not(None))
        ).all()
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
        workers=group_workers(grouped, busy)[:workers],
        scheduler=(holder if (holder := current_holder(settings)) is not None and not holder.expired(now) else None),
        unplayable=unplayable_games(settings, games),
    )


def group_workers(grouped: Any, busy: Any) -> list[WorkerSeen]:
    """One worker per host and kind: the processes a worker forks (one per match for the local
    executor, a pool for Celery) are rows of the workers table, not workers; newest first.
    `grouped`: (host, kind, last heartbeat, rows, matches done); `busy`: (host, kind, match, heartbeat)."""
    playing: dict[tuple[str, str], list[tuple[Any, int]]] = {}
    for host, kind, match_id, heartbeat_at in busy:
        playing.setdefault((host, kind), []).append((heartbeat_at, int(match_id)))
    found = []
    for host, kind, heartbeat_at, rows, done in grouped:
        matches = sorted(playing.get((host, kind), []), reverse=True)
        label = f"{host or '?'} (local executor)" if kind == "local" else f"{host or '?'} ({kind})"
        found.append(WorkerSeen(label, kind, heartbeat_at, matches[0][1] if matches else None, int(done or 0),
                                processes=int(rows), playing=tuple(sorted({match for _, match in matches}))))
    return sorted(found, key=lambda w: w.heartbeat_at, reverse=True)


def unplayable_games(settings: LadderSettings, games: Any = None) -> list[UnplayableGame]:
    """Games with active bots, but fewer than their settings' smallest player count."""
    from ladder.game_settings import GamesFile, games_file
    from referee.errors import ArenaError

    games = games if games is not None else GamesFile(games_file(settings.home))
    with read_session(settings.db_url) as session:
        active = dict(session.exec(select(Bot.game, func.count()).where(Bot.status == BotStatus.ACTIVE).group_by(Bot.game)).all())
    found = []
    for game, count in sorted(active.items()):
        try:
            flagged = unplayable(games.get(game), int(count))
        except ArenaError:
            continue  # a game this ladder cannot play at all is reported by the scheduler
        if flagged is not None:
            found.append(flagged)
    return found


def unplayable(game_settings: Any, active: int) -> UnplayableGame | None:
    """The flag of a game whose settings (a GameSettings) `active` bots cannot meet, None if they
    can (or if it has no active bot at all: nothing waits)."""
    counts = [players for players, weight in game_settings.player_counts().items() if weight > 0]
    if active < 1 or not counts or active >= min(counts):
        return None
    return UnplayableGame(game_settings.game, active, min(counts), game_settings.describe_players())
