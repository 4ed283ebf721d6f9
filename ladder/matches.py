"""A match's life in the database: scheduled, claimed by one attempt, then rated exactly once or voided.

Every transition is one serialised write transaction that checks the state it expects, so a late
or duplicate attempt (a worker thought dead, a task delivered twice) can never write a result twice.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from ladder.db import read_session, write_session
from ladder.models import Bot, BotStatus, GameCounter, Match, MatchStatus, Notice, Rating, Seat, utcnow
from ladder.ratings import INITIAL_RATING, RatingTable
from ladder.settings import LadderSettings

#: A bot with faults in this many of its last PAUSE_WINDOW matches is paused.
PAUSE_FAULTS = 5
PAUSE_WINDOW = 6


@dataclass(frozen=True)
class SeatJob:
    """What a worker needs to start one seat's bot."""

    seat: int
    bot_id: int
    name: str
    kind: str
    command: tuple[str, ...]
    cwd: str | None
    sandbox: str


@dataclass(frozen=True)
class MatchJob:
    """A claimed attempt at a match: everything a worker needs to play it."""

    match_id: int
    uid: str
    attempt: int
    game: str
    players: int
    variants: dict[str, Any]
    seed: int
    seats: tuple[SeatJob, ...]
    time_control: dict[str, float] = field(default_factory=dict)  # referee TimeControl fields; empty: defaults


def schedule_match(
    settings: LadderSettings,
    game: str,
    bot_ids: Sequence[int],
    seed: int,
    variants: dict[str, Any] | None = None,
    time_control: dict[str, float] | None = None,
) -> int:
    """Queue a match between `bot_ids` (in seat order), with the game's variants and time control
    (TimeControl fields; none: the referee's defaults); returns its id."""
    config: dict[str, Any] = {"game": game, "players": len(bot_ids), "variants": dict(variants or {})}
    if time_control:
        config["time_control"] = dict(time_control)
    with write_session(settings.db_url) as session:
        match = Match(uid=uuid.uuid4().hex, game=game, config=config, seed=seed)
        session.add(match)
        session.flush()
        for seat, bot_id in enumerate(bot_ids):
            session.add(Seat(match_id=match.id, seat=seat, bot_id=bot_id))
        if session.get(GameCounter, game) is None:
            session.add(GameCounter(game=game, rating_seq=0))
        assert match.id is not None
        return match.id


def _locked_match(session: Session, match_id: int) -> Match | None:
    return session.exec(select(Match).where(Match.id == match_id).with_for_update()).first()


def claim_match(settings: LadderSettings, match_id: int, worker: str, lease_seconds: float) -> MatchJob | str:
    """Start a new attempt at a match for `worker`; or say why not: "closed" (done or void), "busy"
    (another attempt is alive), "void" (too many attempts: voided now)."""
    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status not in MatchStatus.OPEN:
            return "closed"
        if match.status == MatchStatus.RUNNING and not _stale(match, now, lease_seconds):
            return "busy"
        if match.attempts >= settings.max_attempts:
            _void(match, now, f"the platform failed this match {match.attempts} times")
            session.add(match)
            return "void"
        match.attempts += 1
        match.status = MatchStatus.RUNNING
        match.worker = worker
        match.started_at = match.heartbeat_at = now
        session.add(match)
        seats = session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))).all()
        jobs = []
        for seat in seats:
            bot = session.get(Bot, seat.bot_id)
            if bot is None:
                raise ValueError(f"match {match_id}: seat {seat.seat} names no bot")
            jobs.append(
                SeatJob(seat.seat, bot.id or 0, bot.name, bot.kind, tuple(bot.command), bot.store_path, bot.sandbox)
            )
        return MatchJob(
            match_id=match_id,
            uid=match.uid,
            attempt=match.attempts,
            game=match.game,
            players=len(jobs),
            variants=dict(match.config.get("variants") or {}),
            seed=match.seed,
            seats=tuple(jobs),
            time_control=dict(match.config.get("time_control") or {}),
        )


def _stale(match: Match, now: datetime, lease_seconds: float) -> bool:
    beat = match.heartbeat_at or match.started_at
    return beat is None or now - beat > timedelta(seconds=lease_seconds)


def _void(match: Match, now: datetime, reason: str) -> None:
    match.status = MatchStatus.VOID
    match.void_reason = reason
    match.finished_at = now


def heartbeat(settings: LadderSettings, match_id: int, attempt: int) -> bool:
    """Record that `attempt` is alive; False once it is no longer the current attempt."""
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status != MatchStatus.RUNNING or match.attempts != attempt:
            return False
        match.heartbeat_at = utcnow()
        session.add(match)
        return True


def fail_attempt(
    settings: LadderSettings, match_id: int, attempt: int | None, reason: str, final: bool = False
) -> str:
    """The platform failed an attempt (worker lost, referee error): requeue the match, or void it
    after max_attempts (or at once if `final`). `attempt` None fails whatever attempt is current.
    Never touches ratings."""
    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status not in MatchStatus.OPEN:
            return "closed"
        if attempt is not None and (match.status != MatchStatus.RUNNING or match.attempts != attempt):
            return "stale"
        if final or match.attempts >= settings.max_attempts:
            _void(match, now, reason)
            outcome = "void"
        else:
            match.status = MatchStatus.QUEUED
            match.dispatched_at = None  # the service dispatches it again
            match.void_reason = reason  # last failure, kept for the record
            outcome = "requeued"
        match.worker = None
        session.add(match)
        return outcome


def reap_stale(settings: LadderSettings, lease_seconds: float) -> list[int]:
    """Fail every running attempt whose worker stopped sending heartbeats; returns the match ids."""
    cutoff = utcnow() - timedelta(seconds=lease_seconds)
    with read_session(settings.db_url) as session:
        stale = session.exec(
            select(Match.id).where(Match.status == MatchStatus.RUNNING, col(Match.heartbeat_at) < cutoff)
        ).all()
    reaped = []
    for match_id in stale:
        assert match_id is not None
        with write_session(settings.db_url) as session:
            match = _locked_match(session, match_id)
            if match is None or match.status != MatchStatus.RUNNING or not _stale(match, utcnow(), lease_seconds):
                continue
            attempt = match.attempts
        if fail_attempt(settings, match_id, attempt, "worker lost (no heartbeat)") in ("requeued", "void"):
            reaped.append(match_id)
    return reaped


def record_result(settings: LadderSettings, job: MatchJob, report: Any) -> bool:
    """Write a finished attempt's result and rate it, exactly once: False (and nothing written) if
    this attempt is no longer the match's current one."""
    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, job.match_id)
        if match is None or match.status != MatchStatus.RUNNING or match.attempts != job.attempt:
            return False
        seats = list(session.exec(select(Seat).where(Seat.match_id == match.id).order_by(col(Seat.seat))).all())
        if getattr(report, "void", False):
            # Nobody played (every seat faulted before any decision): keep the faults, rate nothing.
            for seat, seat_report in zip(seats, report.seats):
                seat.faults = [
                    {"kind": str(fault.kind), "detail": str(fault.detail), "decision_index": fault.decision_index}
                    for fault in seat_report.faults
                ]
                seat.replaced = bool(seat_report.replaced)
                session.add(seat)
            _void(match, now, str(report.void_reason))
            match.replay_path = report.replay_path
            match.worker = None
            session.add(match)
            return True
        counter = session.exec(select(GameCounter).where(GameCounter.game == match.game).with_for_update()).one()
        bot_ids = [seat.bot_id for seat in seats]
        ratings = {
            rating.bot_id: rating
            for rating in session.exec(
                select(Rating).where(col(Rating.bot_id).in_(bot_ids)).with_for_update()
            ).all()
        }
        table = RatingTable()
        for bot_id in bot_ids:
            table.ratings[bot_id] = ratings[bot_id].rating if bot_id in ratings else INITIAL_RATING
            table.games[bot_id] = ratings[bot_id].games if bot_id in ratings else 0
        before, after = table.apply(bot_ids, list(report.ranks))
        for seat, seat_report, old, new in zip(seats, report.seats, before, after):
            seat.rank = int(report.ranks[seat.seat])
            seat.score = float(report.scores[seat.seat])
            seat.faults = [
                {"kind": str(fault.kind), "detail": str(fault.detail), "decision_index": fault.decision_index}
                for fault in seat_report.faults
            ]
            seat.replaced = bool(seat_report.replaced)
            seat.rating_before, seat.rating_after = float(old), float(new)
            session.add(seat)
        for bot_id in set(bot_ids):
            rating = ratings.get(bot_id) or Rating(bot_id=bot_id, game=match.game, rating=INITIAL_RATING)
            rating.rating = float(table.ratings[bot_id])
            rating.games = table.games[bot_id]
            rating.updated_at = now
            session.add(rating)
        counter.rating_seq += 1
        session.add(counter)
        match.rating_seq = counter.rating_seq
        match.status = MatchStatus.DONE
        match.finished_at = now
        # The referee's full config (every flag's value), and the time control the match was played with.
        match.config = {**dict(report.config), **({"time_control": match.config["time_control"]} if match.config.get("time_control") else {})}
        match.replay_path = report.replay_path
        match.decisions = int(report.decisions)
        match.duration_seconds = float(report.duration_seconds)
        match.void_reason = None
        session.add(match)
        session.flush()
        for bot_id in set(bot_ids):
            _pause_if_failing(session, bot_id)
        return True


def _pause_if_failing(session: Session, bot_id: int) -> None:
    """Pause a bot that faulted in PAUSE_FAULTS of its last PAUSE_WINDOW matches, telling its owner."""
    bot = session.get(Bot, bot_id)
    if bot is None or bot.status != BotStatus.ACTIVE:
        return
    recent = session.exec(
        select(Seat, Match)
        .join(Match, col(Match.id) == col(Seat.match_id))
        .where(Seat.bot_id == bot_id, Match.status == MatchStatus.DONE)
        .order_by(col(Match.rating_seq).desc())
        .limit(PAUSE_WINDOW)
    ).all()
    faulty = [(seat, match) for seat, match in recent if seat.faults]
    if len(recent) < PAUSE_WINDOW or len(faulty) < PAUSE_FAULTS:
        return
    kinds = sorted({fault["kind"] for seat, _ in faulty for fault in seat.faults})
    last = faulty[0][0].faults[0]
    reason = (
        f"faults in {len(faulty)} of its last {len(recent)} matches ({', '.join(kinds)}); "
        f"latest in match {faulty[0][1].uid}: {last['kind']}: {last['detail']}"
    )
    bot.status = BotStatus.PAUSED
    bot.paused_reason = reason
    session.add(bot)
    session.add(Notice(bot_id=bot_id, message=f"{bot.name} was paused: {reason}"))


def undispatch(settings: LadderSettings, match_id: int) -> bool:
    """Hand a queued match back for dispatching (its executor lost it before any attempt began)."""
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status != MatchStatus.QUEUED or match.dispatched_at is None:
            return False
        match.dispatched_at = None
        session.add(match)
        return True
