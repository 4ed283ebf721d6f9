"""A match's life in the database: scheduled, claimed by one attempt, then rated exactly once or voided.

Every transition is one serialised write transaction that checks the state it expects, so a late
or duplicate attempt (a worker thought dead, a task delivered twice) can never write a result twice.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, insert, select, update

from ladder.db import read_session, write_connection, write_session
from ladder.live import drop_live_chunks
from ladder.models import (
    Bot, BotStatus, GameCounter, Match, MatchKind, MatchStatus, Notice, Rating, ReplayBlob, Seat, SeatOutput, Worker, utcnow,
)
from ladder.ratings import INITIAL_RATING, RatingTable
from ladder.settings import LadderSettings

#: A bot with faults in this many of its last PAUSE_WINDOW rated matches is paused (it passed its
#: validation games, so repeated faults mean it broke since, or fails against some opponents).
PAUSE_FAULTS = 3
PAUSE_WINDOW = 5


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
    content_hash: str | None = None  # an uploaded bot's files in the store, fetched by the worker


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
    kind: str = MatchKind.RATED,
    challenge_id: int | None = None,
    dispatch_lease_seconds: float | None = None,
) -> int:
    """Queue a match between `bot_ids` (in seat order), with the game's variants and time control
    (TimeControl fields; none: the referee's defaults); returns its id. Only `rated` matches change
    ratings; `validation` and `challenge` matches are played the same way and never do. With
    `dispatch_lease_seconds`, the match is leased to an executor in the same transaction (as
    mark_dispatched would): the caller sends it at once."""
    config: dict[str, Any] = {"game": game, "players": len(bot_ids), "variants": dict(variants or {})}
    if time_control:
        config["time_control"] = dict(time_control)
    now = utcnow()
    # Core INSERTs, no ORM objects (the scheduler's per-match cost); every column a Match or Seat defaults is given here.
    row: dict[str, Any] = {
        "uid": uuid.uuid4().hex, "game": game, "config": config, "seed": seed, "status": MatchStatus.QUEUED, "attempts": 0,
        "created_at": now, "dispatches": 0, "kind": kind, "challenge_id": challenge_id,
    }
    if dispatch_lease_seconds is not None:
        row.update(dispatched_at=now, lease_expires_at=now + timedelta(seconds=dispatch_lease_seconds), dispatches=1)
    with write_connection(settings.db_url) as connection:
        # Statements on the tables with the values bound at execution: nothing is built or keyed per value.
        match_id = connection.execute(_INSERT_MATCH, row).inserted_primary_key[0]
        if match_id is None:
            raise RuntimeError(f"the database gave no id to a new match of {game}")
        # The seats in one multi-row INSERT.
        connection.execute(_INSERT_SEATS, [
            {"match_id": match_id, "seat": seat, "bot_id": bot_id, "faults": [], "replaced": False, "stderr_tail": ""}
            for seat, bot_id in enumerate(bot_ids)
        ])
        counter = (settings.db_url, game)
        if counter not in _COUNTED_GAMES:  # a game's counter row is never deleted: checked once per process
            if connection.execute(select(GameCounter.game).where(GameCounter.game == game)).first() is None:
                connection.execute(insert(GameCounter).values(game=game, rating_seq=0))
            _COUNTED_GAMES.add(counter)
    return int(match_id)


_INSERT_MATCH = insert(Match.__table__)  # type: ignore[attr-defined]
_INSERT_SEATS = insert(Seat.__table__)  # type: ignore[attr-defined]
#: (database, game) whose rating counter row is known to exist.
_COUNTED_GAMES: set[tuple[str, str]] = set()


def _locked_match(session: Session, match_id: int) -> Match | None:
    return session.exec(select(Match).where(Match.id == match_id).with_for_update()).first()


def mark_dispatched(settings: LadderSettings, match_id: int, lease_seconds: float) -> bool:
    """Lease a queued match to an executor for `lease_seconds`: True if it is to be sent now (never
    sent, or its previous dispatch outlived its lease without being claimed)."""
    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status != MatchStatus.QUEUED:
            return False
        if match.dispatched_at is not None and not _expired(match, now):
            return False
        match.dispatched_at = now
        match.lease_expires_at = now + timedelta(seconds=lease_seconds)
        match.dispatches += 1
        session.add(match)
        return True


def claim_match(settings: LadderSettings, match_id: int, worker: str, lease_seconds: float) -> MatchJob | str:
    """Start a new attempt at a match for `worker`, holding a lease of `lease_seconds`; or say why
    not: "closed" (done or void), "busy" (another attempt holds a live lease), "void" (too many
    attempts: voided now)."""
    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status not in MatchStatus.OPEN:
            return "closed"
        if match.status == MatchStatus.RUNNING and not _expired(match, now) and not holder_is_dead(match.worker):
            return "busy"
        if match.attempts >= settings.max_attempts:
            _void(match, now, f"the platform failed this match {match.attempts} times")
            session.add(match)
            return "void"
        match.attempts += 1
        match.status = MatchStatus.RUNNING
        match.worker = worker
        match.started_at = match.heartbeat_at = now
        match.lease_expires_at = now + timedelta(seconds=lease_seconds)
        session.add(match)
        touch_worker(session, worker, match_id, now)
        # The seats and their bots in one query (no Seat objects: nothing about them changes here).
        seats = session.exec(
            select(Seat.seat, Bot).outerjoin(Bot, col(Bot.id) == col(Seat.bot_id))
            .where(Seat.match_id == match_id).order_by(col(Seat.seat))
        ).all()
        jobs = []
        for seat_number, bot in seats:
            if bot is None:
                raise ValueError(f"match {match_id}: seat {seat_number} names no bot")
            jobs.append(
                SeatJob(seat_number, bot.id or 0, bot.name, bot.kind, tuple(bot.command), bot.store_path, bot.sandbox,
                        bot.content_hash)
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


def _expired(match: Match, now: datetime) -> bool:
    return match.lease_expires_at is None or match.lease_expires_at <= now


def holder_is_dead(worker: str | None) -> bool:
    """Whether the attempt's worker is a process of this host that no longer exists (so its lease
    need not be waited out: a pool child killed mid-match hands its task back at once)."""
    if not worker or ":" not in worker:
        return False
    host, _, pid = worker.rpartition(":")
    return local_process_gone(host, pid)


def local_process_gone(host: str, pid: str) -> bool:
    """Whether `pid` names a process of this host (`host` is this machine's name) that no longer exists;
    False for another host or a process that exists (even one of another user)."""
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def touch_worker(session: Session, name: str, match_id: int | None, now: datetime, done: bool = False) -> None:
    """Record that worker `name` is alive (and what it plays) in the workers-seen table."""
    worker = session.get(Worker, name)
    if worker is None:
        worker = Worker(name=name, kind=os.environ.get("B99_LADDER_WORKER_KIND", "local"),
                        host=name.rpartition(":")[0], started_at=now)
    worker.heartbeat_at = now
    worker.match_id = match_id
    if done:
        worker.matches_done += 1
    session.add(worker)


def _void(match: Match, now: datetime, reason: str) -> None:
    match.status = MatchStatus.VOID
    match.void_reason = reason
    match.finished_at = now


def heartbeat(settings: LadderSettings, match_id: int, attempt: int, lease_seconds: float, worker: str | None = None) -> bool:
    """Renew `attempt`'s lease for `lease_seconds`; False once it is no longer the current attempt."""
    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if worker is not None:
            touch_worker(session, worker, match_id, now)
        if match is None or match.status != MatchStatus.RUNNING or match.attempts != attempt:
            return False
        match.heartbeat_at = now
        match.lease_expires_at = now + timedelta(seconds=lease_seconds)
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
            drop_live_chunks(session, match_id)
            outcome = "void"
        else:
            match.status = MatchStatus.QUEUED
            match.dispatched_at = None  # the service dispatches it again
            match.lease_expires_at = None
            match.void_reason = reason  # last failure, kept for the record
            outcome = "requeued"
        match.worker = None
        session.add(match)
        return outcome


def reap_expired(settings: LadderSettings) -> list[int]:
    """Fail every running attempt whose lease ran out (its worker stopped renewing it): requeued,
    or voided after max_attempts. Returns the match ids."""
    now = utcnow()
    with read_session(settings.db_url) as session:
        expired = session.exec(
            select(Match.id).where(Match.status == MatchStatus.RUNNING, col(Match.lease_expires_at) < now)
        ).all()
    reaped = []
    for match_id in expired:
        if match_id is None:
            continue
        with write_session(settings.db_url) as session:
            match = _locked_match(session, match_id)
            if match is None or match.status != MatchStatus.RUNNING or not _expired(match, utcnow()):
                continue
            attempt = match.attempts
        if fail_attempt(settings, match_id, attempt, "worker lost (lease expired)") in ("requeued", "void"):
            reaped.append(match_id)
    return reaped


def reap_dead_holders(settings: LadderSettings) -> list[int]:
    """Fail at once every running attempt held by a process of this host that no longer exists
    (killed with the service, or a pool child killed mid-match), without waiting out its lease."""
    with read_session(settings.db_url) as session:
        running = session.exec(select(Match.id, Match.worker, Match.attempts).where(Match.status == MatchStatus.RUNNING)).all()
    failed = []
    for match_id, worker, attempt in running:
        if match_id is not None and holder_is_dead(worker):
            if fail_attempt(settings, match_id, attempt, f"worker {worker} died mid-match") in ("requeued", "void"):
                failed.append(match_id)
    return failed


def fail_worker(settings: LadderSettings, match_id: int, worker: str, reason: str) -> str:
    """A worker process is known dead (its supervisor saw it exit): fail its attempt at once, or
    hand the match back for dispatching if it died before claiming it."""
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status not in MatchStatus.OPEN:
            return "closed"
        if match.status == MatchStatus.QUEUED:
            match.dispatched_at = None
            match.lease_expires_at = None
            session.add(match)
            return "undispatched"
        if match.worker != worker:
            return "stale"
        attempt = match.attempts
    return fail_attempt(settings, match_id, attempt, reason)


class Recorded(str, Enum):
    """What record_result did; true only when this call wrote the result."""

    RECORDED = "recorded"  # written (and rated) now
    ALREADY = "already"  # this attempt's result was committed before (a retry after a lost acknowledgement)
    STALE = "stale"  # no longer the current attempt (it was reaped): nothing written
    CLOSED = "closed"  # the match is done by another attempt, or void

    def __bool__(self) -> bool:
        return self is Recorded.RECORDED


def record_result(
    settings: LadderSettings, job: MatchJob, report: Any, replay: bytes | None = None, worker: str | None = None,
    output: bytes | None = None,
) -> Recorded:
    """Write a finished attempt's result, its compressed replay and the new ratings in one
    transaction, exactly once per match, and only for the match's current attempt: an attempt that
    was reaped meanwhile (frozen, cut off) is a game the platform broke, never rated. Safe to call
    again after an error: a result already committed by this attempt is recognised.

    Every seat's faults, exit code and stderr tail are kept for its owner, and so is what its bot wrote
    at each decision (`output`: the referee's decision_logs_path lines), apart from the public replay. A void report (every
    seat faulted before the first decision) voids the match; a rated match decided only by faults
    changes no rating (`unrated_reason` says why); validation and challenge matches never do."""
    from ladder.ratings import rating_decision

    now = utcnow()
    with write_session(settings.db_url) as session:
        match = _locked_match(session, job.match_id)
        if match is None:
            return Recorded.CLOSED
        if match.status in (MatchStatus.DONE, MatchStatus.VOID) and match.result_attempt == job.attempt:
            return Recorded.ALREADY
        if match.status not in MatchStatus.OPEN:
            return Recorded.CLOSED
        if match.status != MatchStatus.RUNNING or match.attempts != job.attempt:
            return Recorded.STALE
        seats = list(session.exec(select(Seat).where(Seat.match_id == match.id).order_by(col(Seat.seat))).all())
        # Every write below is flushed once, at the end: none of the reads in between (the ratings, the
        # worker row) depends on them, and one flush costs far less than one before each read.
        with session.no_autoflush:
            # A void report (every seat faulted before any decision) has no ranks or scores.
            void = bool(getattr(report, "void", False)) or str(getattr(report, "status", "") or "") == MatchStatus.VOID
            ranks = [int(rank) for rank in report.ranks] if not void else [0] * len(seats)
            decision = rating_decision(ranks, [bool(seat.replaced) for seat in report.seats], void=void)
            for seat, seat_report in zip(seats, report.seats):
                seat.rank = None if void else int(report.ranks[seat.seat])
                seat.score = None if void else float(report.scores[seat.seat])
                seat.faults = [
                    {"kind": str(fault.kind), "detail": str(fault.detail), "decision_index": fault.decision_index,
                     "seat_decision": getattr(fault, "seat_decision", None)}
                    for fault in seat_report.faults
                ]
                seat.replaced = bool(seat_report.replaced)
                seat.exit_code = getattr(seat_report, "exit_code", None)
                seat.stderr_tail = str(getattr(seat_report, "stderr_tail", "") or "")[-STDERR_TAIL_CHARS:]
                session.add(seat)
            if match.kind == MatchKind.RATED and not void:
                _rate(session, match, seats, decision, now)
            match.status = MatchStatus.VOID if void else MatchStatus.DONE
            match.finished_at = now
            # The referee's full config (every flag's value), and the time control the match was played with.
            match.config = {**dict(report.config), **({"time_control": match.config["time_control"]} if match.config.get("time_control") else {})}
            _store_replay(session, match, job, report, replay, worker, now)
            _store_output(session, job.match_id, output)
            match.decisions = int(report.decisions)
            match.duration_seconds = float(report.duration_seconds)
            match.void_reason = (str(getattr(report, "void_reason", "") or "") or decision.reason) if void else None
            if void:
                match.worker = None
            session.add(match)
        session.flush()
        if match.kind == MatchKind.VALIDATION and not void:
            # A void validation match (every seat, the reference bot too, faulted before the first
            # decision) says more about the host than the bot: it is played again, not judged.
            from ladder.validation import judge_validation

            judge_validation(session, match, seats)
        elif match.kind == MatchKind.RATED:
            # Only a seat that faulted now can bring its bot to PAUSE_FAULTS of its last PAUSE_WINDOW
            # matches: a clean match only pushes older ones out of the window.
            faulted = {seat.bot_id for seat in seats if seat.faults}
            for bot_id in sorted(faulted):  # one locking order for every transaction
                _pause_if_failing(session, bot_id)
        return Recorded.RECORDED


def record_seat_exits(settings: LadderSettings, job: MatchJob, report: Any) -> bool:
    """Complete a recorded attempt's seats with their bots' exit codes and stderr tails, known only once
    the bots were stopped (after the result was recorded); only the seats that changed are written, with
    plain UPDATEs (no Match or Seat objects loaded). False when the match holds another attempt's result
    (nothing written)."""
    with write_session(settings.db_url) as session:
        result_attempt = session.exec(select(Match.result_attempt).where(Match.id == job.match_id)).first()
        if result_attempt is None or result_attempt != job.attempt:
            return False
        stored = session.exec(
            select(Seat.seat, Seat.exit_code, Seat.stderr_tail).where(Seat.match_id == job.match_id).order_by(col(Seat.seat))
        ).all()
        for (seat, stored_code, stored_tail), seat_report in zip(stored, report.seats):
            exit_code = getattr(seat_report, "exit_code", None)
            tail = str(getattr(seat_report, "stderr_tail", "") or "")[-STDERR_TAIL_CHARS:]
            if (stored_code, stored_tail) != (exit_code, tail):
                session.exec(  # type: ignore[call-overload]
                    update(Seat).where(col(Seat.match_id) == job.match_id, col(Seat.seat) == seat)
                    .values(exit_code=exit_code, stderr_tail=tail).execution_options(synchronize_session=False)
                )
        return True


def _store_replay(session: Session, match: Match, job: MatchJob, report: Any, replay: bytes | None,
                  worker: str | None, now: datetime) -> None:
    """Close the attempt's lease and keep its replay (compressed, in the database when given)."""
    match.lease_expires_at = None
    match.result_attempt = job.attempt
    match.replay_path = None if replay is not None else report.replay_path
    if replay is not None:
        session.add(ReplayBlob(match_id=job.match_id, attempt=job.attempt, codec="zlib", size=len(replay),
                               data=zlib.compress(replay, 6)))
    drop_live_chunks(session, job.match_id)  # the live page reads the stored replay from now on
    if worker is not None:
        touch_worker(session, worker, None, now, done=True)


def _store_output(session: Session, match_id: int, output: bytes | None) -> None:
    """Keep each seat's own output (lines {"seat", "decision", "text"}) as that seat's private row."""
    per_seat: dict[int, list[str]] = {}
    for line in (output or b"").decode("utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
            per_seat.setdefault(int(record["seat"]), []).append(
                json.dumps({"decision": int(record["decision"]), "text": str(record["text"])}))
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by a crash of the worker mid-write: the rest stands
    for seat, lines in per_seat.items():
        data = ("\n".join(lines) + "\n").encode()
        session.merge(SeatOutput(match_id=match_id, seat=seat, size=len(data), data=zlib.compress(data, 6)))


#: How much of a seat's stderr the ladder keeps (the referee sends at most 2,000 characters).
STDERR_TAIL_CHARS = 4000


def _rate(session: Session, match: Match, seats: list[Seat], decision: Any, now: datetime) -> None:
    """Apply a rated-kind match to the ratings (or record why it changes none), under the rating lock."""
    counter = session.exec(select(GameCounter).where(GameCounter.game == match.game).with_for_update()).one()
    bot_ids = [seat.bot_id for seat in seats]
    ratings = {
        rating.bot_id: rating
        for rating in session.exec(select(Rating).where(col(Rating.bot_id).in_(bot_ids)).with_for_update()).all()
    }
    table = RatingTable()
    for bot_id in bot_ids:
        table.ratings[bot_id] = ratings[bot_id].rating if bot_id in ratings else INITIAL_RATING
        table.games[bot_id] = ratings[bot_id].games if bot_id in ratings else 0
    if decision.rated:
        before, after = table.apply(bot_ids, list(decision.ranks))
    else:
        before = after = [table.rating(bot_id) for bot_id in bot_ids]
    for seat, old, new in zip(seats, before, after):
        seat.rating_before, seat.rating_after = float(old), float(new)
        session.add(seat)
    if decision.rated:
        for bot_id in set(bot_ids):
            rating = ratings.get(bot_id) or Rating(bot_id=bot_id, game=match.game, rating=INITIAL_RATING)
            rating.rating = float(table.ratings[bot_id])
            rating.games = table.games[bot_id]
            rating.updated_at = now
            session.add(rating)
    counter.rating_seq += 1
    session.add(counter)
    match.rating_seq = counter.rating_seq
    match.unrated_reason = decision.reason


def _pause_if_failing(session: Session, bot_id: int) -> None:
    """Pause a bot that faulted in PAUSE_FAULTS of its last PAUSE_WINDOW matches, telling its owner.
    Under the bot's row lock, so that results recorded at the same instant see each other's faults."""
    from ladder.validation import lock_bot

    bot = lock_bot(session, bot_id)
    if bot is None or bot.status != BotStatus.ACTIVE:
        return
    recent = session.exec(
        select(Seat, Match)
        .join(Match, col(Match.id) == col(Seat.match_id))
        .where(Seat.bot_id == bot_id, Match.kind == MatchKind.RATED, col(Match.status).in_([MatchStatus.DONE, MatchStatus.VOID]))
        .order_by(col(Match.id).desc())
        .limit(PAUSE_WINDOW)
        .execution_options(populate_existing=True)
    ).all()
    faulty = [(seat, match) for seat, match in recent if seat.faults]
    if len(faulty) < PAUSE_FAULTS:
        return
    kinds = sorted({fault["kind"] for seat, _ in faulty for fault in seat.faults})
    last = faulty[0][0].faults[0]
    reason = (
        f"faults in {len(faulty)} of its last {len(recent)} matches ({', '.join(kinds)}); "
        f"latest in match {faulty[0][1].uid}: {last['kind']}: {last['detail']}"
    )
    reason = reason[:1900]
    bot.status = BotStatus.PAUSED
    bot.paused_reason = reason
    session.add(bot)
    tail = last_lines(faulty[0][0].stderr_tail, 10)
    message = f"{bot.name} was paused: {reason}" + (f"; its stderr ended: {tail}" if tail else "")
    session.add(Notice(bot_id=bot_id, message=message[:4000]))  # the owner's eyes only: stderr may say anything


def last_lines(text: str, count: int) -> str:
    """The last `count` non-empty lines of a stderr tail, joined with " | " (empty if none)."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return " | ".join(lines[-count:])[-1000:]


def undispatch(settings: LadderSettings, match_id: int) -> bool:
    """Hand a queued match back for dispatching (its executor lost it before any attempt began)."""
    with write_session(settings.db_url) as session:
        match = _locked_match(session, match_id)
        if match is None or match.status != MatchStatus.QUEUED or match.dispatched_at is None:
            return False
        match.dispatched_at = None
        match.lease_expires_at = None
        session.add(match)
        return True
