"""Validation before rating: a new bot plays unrated games against the reference bot before it
enters rated play, and is admitted only if it played them all without a fault.

Validation games run like rated ones (the same executor, the bot's own sandbox, the ladder's time
control); only their kind differs, so they never touch a rating. The opponent is the ladder's
`random` reference bot, registered once per game with the status `reference` (never rated or
listed). A fault in any validation game rejects the bot: its owner gets a notice per fault with
the bot's last stderr lines. A validation match that ends void (every seat, the reference bot too,
faulted before the first decision) or that the platform voided is played again.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from sqlmodel import Session, col, select

from ladder.db import read_session, write_session
from ladder.matches import last_lines, schedule_match
from ladder.models import (
    SUSPENSION_PAUSE, Account, AccountStatus, Bot, BotKind, BotStatus, Match, MatchKind, MatchStatus, Notice, Seat, utcnow,
)
from ladder.settings import LadderSettings
from ladder.versions import promote
from referee.faults import fault_words

#: Validation games a new bot plays (its seat rotates through the table).
VALIDATION_GAMES = 2
#: The reference bot new bots play against.
REFERENCE_BOT = "random"


def reference_name(game: str) -> str:
    """The name of a game's reference bot on the ladder."""
    return f"reference.{REFERENCE_BOT}.{game}"


def reference_bot(settings: LadderSettings, game: str) -> int:
    """The id of `game`'s reference bot, registered on first use."""
    name = reference_name(game)
    with write_session(settings.db_url) as session:
        bot = session.exec(select(Bot).where(Bot.name == name)).first()
        if bot is None:
            bot = Bot(name=name, owner="ladder", game=game, command=[sys.executable, "-m", "bots", REFERENCE_BOT],
                      status=BotStatus.REFERENCE, validated_at=utcnow())
            session.add(bot)
            session.flush()
        return bot.id or 0


def validation_matches(session: Session, bot_id: int) -> list[tuple[Match, Seat]]:
    """A bot's validation matches with its seat in each, oldest first."""
    return list(
        session.exec(
            select(Match, Seat)
            .join(Seat, col(Seat.match_id) == col(Match.id))
            .where(Seat.bot_id == bot_id, Match.kind == MatchKind.VALIDATION)
            .order_by(col(Match.id))
            .execution_options(populate_existing=True)  # as committed now, not as first read
        ).all()
    )


def schedule_validations(
    settings: LadderSettings,
    players: dict[str, int],
    rng: random.Random,
    games: int = VALIDATION_GAMES,
    games_file: Any = None,
    online: Any = None,
) -> list[int]:
    """Queue the validation games still missing for every bot waiting for validation; returns their ids.

    `players` fixes a game's seat count; otherwise the game's settings (`games_file`, a
    ladder.game_settings.GamesFile) draw it as for rated matches, and give the variants and the
    time control, so a bot is validated under the ladder's own conditions. A remote bot plays its
    games one at a time, each queued only while it has a connection waiting (`online`, the
    ladder.remote.Presence the Arena gateway keeps)."""
    from ladder.game_settings import GameSettings

    judge_finished(settings, games)
    with read_session(settings.db_url) as session:
        waiting = list(session.exec(select(Bot).where(Bot.status == BotStatus.VALIDATING).order_by(col(Bot.id))).all())
        plans = []
        for bot in waiting:
            rows = validation_matches(session, bot.id or 0)
            counted = sum(1 for match, _ in rows if match.status in (*MatchStatus.OPEN, MatchStatus.DONE))
            missing = games - counted
            if bot.kind == BotKind.REMOTE:
                waiting_for_it = any(match.status in MatchStatus.OPEN for match, _ in rows)
                connected = online is not None and online.available(bot.id or 0)
                missing = min(missing, 1) if connected and not waiting_for_it else 0
            plans.append((bot, missing, len(rows)))
    scheduled = []
    for bot, missing, played in plans:
        if missing <= 0:
            continue
        game_settings = games_file.get(bot.game) if games_file is not None else GameSettings(bot.game)
        reference = reference_bot(settings, bot.game)
        for number in range(played, played + missing):
            seats = players.get(bot.game) or game_settings.pick_players(rng, 1 << 30) or 1
            table = [reference] * seats
            table[number % seats] = bot.id or 0
            scheduled.append(
                schedule_match(settings, bot.game, table, seed=rng.getrandbits(63), kind=MatchKind.VALIDATION,
                               variants=dict(game_settings.variants), time_control=dict(game_settings.time_control))
            )
            if bot.kind == BotKind.REMOTE:
                online.reserve(bot.id or 0)  # its waiting connection is this match's
    return scheduled


def judge_validation(session: Session, match: Match, seats: list[Seat], games: int = VALIDATION_GAMES) -> None:
    """After a validation match (inside record_result's transaction): tell the owner of every seat
    that faulted, with its stderr, then judge each waiting bot of the match (judge_bot)."""
    waiting = set()
    for seat in seats:
        bot = session.get(Bot, seat.bot_id)
        if bot is None or bot.status == BotStatus.REFERENCE:
            continue  # the reference bot's row is never locked: every validation match has it
        if seat.faults:
            session.add(Notice(bot_id=bot.id or 0, message=fault_message(bot.name, match, seat)[:4000]))
        waiting.add(bot.id or 0)
    for bot_id in sorted(waiting):  # one order for every transaction: no deadlock
        judge_bot(session, bot_id, games)


def lock_bot(session: Session, bot_id: int) -> Bot | None:
    """The bot's row, locked until the transaction ends (SELECT ... FOR UPDATE on PostgreSQL; SQLite's
    write transactions are serialised already), and read afresh: what a concurrent transaction
    committed before the lock was granted is seen."""
    return session.exec(
        select(Bot).where(Bot.id == bot_id).with_for_update().execution_options(populate_existing=True)
    ).first()


def judge_bot(session: Session, bot_id: int, games: int = VALIDATION_GAMES) -> str | None:
    """Reject a waiting bot that faulted in any of its validation games; admit one that played
    `games` clean ones; returns its new status (None: unchanged).

    The bot's row is locked first, so that two validation results recorded at the same instant
    on two workers are judged one after the other, the second seeing the first (each transaction
    alone would count only its own game and leave the bot waiting for good). Judging again
    changes nothing: the scheduler calls it for any bot whose games are all over."""
    bot = lock_bot(session, bot_id)
    if bot is None or bot.status != BotStatus.VALIDATING:
        return None
    rows = validation_matches(session, bot_id)
    faulty = [(played, its_seat) for played, its_seat in rows if its_seat.faults and played.status == MatchStatus.DONE]
    if faulty:
        first_match, first_seat = faulty[0]
        fault = first_seat.faults[0]
        bot.status = BotStatus.REJECTED
        bot.paused_reason = (
            f"faulted in validation match {first_match.uid} (seat {first_seat.seat}): {fault['kind']}: {fault['detail']}"
        )[:1900]
        session.add(bot)
        return bot.status
    clean = sum(1 for played, _ in rows if played.status == MatchStatus.DONE)
    if clean >= games:
        account = session.get(Account, bot.account_id) if bot.account_id is not None else None
        bot.validated_at = utcnow()
        if account is not None and account.status == AccountStatus.SUSPENDED:
            # admitted, but it waits for its account's suspension to be lifted (ladder.accounts.set_suspended)
            bot.status = BotStatus.PAUSED
            bot.paused_reason = (SUSPENSION_PAUSE + (account.suspended_reason or ""))[:2000]
            message = f"{bot.name} passed its {clean} validation games; it plays rated matches once its account's suspension is lifted"
        else:
            bot.status = BotStatus.ACTIVE
            bot.paused_reason = None
            message = f"{bot.name} passed its {clean} validation games and plays rated matches now"
        session.add(bot)
        promote(session, bot)  # a new version of an account's bot replaces the one in rated play, under this lock
        session.add(Notice(bot_id=bot_id, message=message))
        return bot.status
    return None


def judge_finished(settings: LadderSettings, games: int = VALIDATION_GAMES) -> list[int]:
    """Judge every waiting bot whose validation games are all over and none is open (a judgement
    lost to a crash between result and verdict, or a ladder from before the row lock); returns
    the ids of the bots whose status changed."""
    with read_session(settings.db_url) as session:
        waiting = [bot_id for bot_id in session.exec(select(Bot.id).where(Bot.status == BotStatus.VALIDATING)).all() if bot_id]
        due = []
        for bot_id in waiting:
            rows = validation_matches(session, bot_id)
            over = sum(1 for match, _ in rows if match.status == MatchStatus.DONE)
            if over >= games and not any(match.status in MatchStatus.OPEN for match, _ in rows):
                due.append(bot_id)
    changed = []
    for bot_id in due:
        with write_session(settings.db_url) as session:
            if judge_bot(session, bot_id, games) is not None:
                changed.append(bot_id)
    return changed


def fault_message(name: str, match: Match, seat: Seat) -> str:
    """One line per fault of a seat, then the last lines of the bot's stderr."""
    faults = "; ".join(fault_words(fault) for fault in seat.faults)
    text = f"{name} faulted in {match.kind} match {match.uid}, seat {seat.seat}: {faults}"
    if seat.exit_code is not None:
        text += f"; exit code {seat.exit_code}"
    tail = last_lines(seat.stderr_tail, 10)
    return text + (f"; stderr: {tail}" if tail else "; no stderr")


def revalidate(settings: LadderSettings, name: str) -> Bot:
    """Send a rejected (or paused) bot through validation again."""
    from ladder.registry import LadderError, get_bot

    bot = get_bot(settings, name)
    if bot.status == BotStatus.REFERENCE:
        raise LadderError(f"{name} is a reference bot")
    with write_session(settings.db_url) as session:
        stored = session.get(Bot, bot.id)
        if stored is None:
            raise LadderError(f"no bot {name!r}")
        stored.status = BotStatus.VALIDATING
        stored.paused_reason = None
        session.add(stored)
        # Earlier validation games stay on record but no longer count: mark them as superseded.
        for match, _ in validation_matches(session, bot.id or 0):
            if match.kind == MatchKind.VALIDATION and match.status not in MatchStatus.OPEN:
                match.kind = MatchKind.VALIDATION_SUPERSEDED
                session.add(match)
        return stored
