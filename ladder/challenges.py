"""Unrated challenges: an owner asks for N games between their bot and any bot of the same game.

Challenge games are ordinary ladder matches of kind `challenge`: the same executor, sandbox, time
control and replays, the seats alternating between the two bots; they never touch a rating.

A request only records the challenge; the running ladder queues its games a few at a time
(`schedule_challenges`), within the share of the workers the operator gives challenges on top of
rated play, so no challenge, however large, holds back rated matches. Its owner may cancel it: the
games not yet started are dropped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sqlalchemy import func
from sqlmodel import Session, col, select

from ladder import queries
from ladder.db import read_session, write_session
from ladder.matches import schedule_match
from ladder.models import BotStatus, Challenge, Match, MatchKind, MatchStatus, utcnow
from ladder.registry import LadderError, get_bot
from ladder.settings import LadderSettings

#: The most games one challenge may ask for.
MAX_CHALLENGE_GAMES = 200


@dataclass
class ChallengeResult:
    """A challenge and how its games went so far."""

    id: int
    bot: str
    opponent: str
    games: int
    requested_by: str
    matches: list[queries.MatchRow] = field(default_factory=list)
    wins: int = 0  # games the challenger ranked above its opponent
    draws: int = 0
    losses: int = 0

    @property
    def finished(self) -> int:
        """Games played to the end (done or void)."""
        return sum(1 for row in self.matches if row.status in ("done", "void"))


def request_challenge(
    settings: LadderSettings, bot_name: str, opponent_name: str, games: int, requested_by: str = "", seed: int | None = None,
    account_id: int | None = None,
) -> int:
    """Record a challenge of `games` unrated games between two bots of one game (seats alternating),
    which the running ladder plays; returns the challenge's id."""
    if not 1 <= games <= MAX_CHALLENGE_GAMES:
        raise LadderError(f"a challenge asks for 1 to {MAX_CHALLENGE_GAMES} games, not {games}")
    bot, opponent = get_bot(settings, bot_name), get_bot(settings, opponent_name)
    if bot.id == opponent.id:
        raise LadderError("a challenge needs two different bots")
    if bot.game != opponent.game:
        raise LadderError(f"{bot.name} plays {bot.game} and {opponent.name} plays {opponent.game}")
    for each in (bot, opponent):
        if each.status in (BotStatus.RETIRED, BotStatus.REFERENCE):
            raise LadderError(f"{each.name} is {each.status}: it plays no challenges")
    from referee.registry import get_game

    engine = get_game(bot.game)
    seats = max(2, engine.min_players)
    if seats > engine.max_players:
        raise LadderError(f"{bot.game} has no table for two bots")
    with write_session(settings.db_url) as session:
        challenge = Challenge(bot_id=bot.id or 0, opponent_id=opponent.id or 0, games=games, requested_by=requested_by,
                              account_id=account_id, seed=random.Random(seed).getrandbits(62) if seed is not None else None)
        session.add(challenge)
        session.flush()
        return challenge.id or 0


def _scheduled(session: Session, challenge_id: int) -> int:
    return int(session.exec(select(func.count()).select_from(Match).where(Match.challenge_id == challenge_id)).one())


def pending_games(settings: LadderSettings) -> int:
    """Challenge games asked for and not yet queued (cancelled challenges left out)."""
    with read_session(settings.db_url) as session:
        total = 0
        for challenge in session.exec(select(Challenge).where(Challenge.cancelled == False)).all():  # noqa: E712
            total += max(0, challenge.games - _scheduled(session, challenge.id or 0))
        return total


def open_challenge_matches(session: Session) -> int:
    """Challenge matches queued or running."""
    return int(session.exec(select(func.count()).select_from(Match).where(
        Match.kind == MatchKind.CHALLENGE, col(Match.status).in_(MatchStatus.OPEN))).one())


def schedule_challenges(settings: LadderSettings, slots: int, rng: random.Random) -> list[int]:
    """Queue the next games of the open challenges, oldest challenge first, until `slots` challenge
    matches are open; returns the new matches' ids."""
    from referee.registry import get_game

    with read_session(settings.db_url) as session:
        free = slots - open_challenge_matches(session)
        if free <= 0:
            return []
        plans = []
        for challenge in session.exec(select(Challenge).where(Challenge.cancelled == False).order_by(col(Challenge.id))).all():  # noqa: E712
            done = _scheduled(session, challenge.id or 0)
            if done < challenge.games:
                plans.append((challenge, done))
    scheduled: list[int] = []
    for challenge, done in plans:
        bot, opponent = get_bot(settings, challenge.bot_id), get_bot(settings, challenge.opponent_id)
        engine = get_game(bot.game)
        seats = max(2, engine.min_players)
        # a seeded challenge draws its games' seeds from its own generator, so it replays exactly
        seeds = random.Random(challenge.seed) if challenge.seed is not None else rng
        drawn = [seeds.getrandbits(63) for _ in range(challenge.games)] if challenge.seed is not None else []
        for number in range(done, min(challenge.games, done + free - len(scheduled))):
            table = [(bot.id if (seat + number) % 2 == 0 else opponent.id) or 0 for seat in range(seats)]
            seed = drawn[number] if drawn else seeds.getrandbits(63)
            scheduled.append(schedule_match(settings, bot.game, table, seed=seed, kind=MatchKind.CHALLENGE,
                                            challenge_id=challenge.id))
        if len(scheduled) >= free:
            break
    return scheduled


def cancel_challenge(settings: LadderSettings, challenge_id: int, account_id: int | None = None) -> None:
    """Cancel a challenge: its queued games end void, the rest are never queued (games under way
    play to their end). With `account_id`, only that account's challenge."""
    with write_session(settings.db_url) as session:
        challenge = session.get(Challenge, challenge_id)
        if challenge is None or (account_id is not None and challenge.account_id != account_id):
            raise LadderError(f"you have no challenge #{challenge_id}")
        _cancel(session, challenge, "challenge cancelled by its owner")


def cancel_account_challenges(session: Session, account_id: int, why: str) -> int:
    """Cancel every open challenge an account asked for, inside the caller's transaction (a suspension);
    returns how many."""
    open_challenges = session.exec(
        select(Challenge).where(Challenge.account_id == account_id, Challenge.cancelled == False)  # noqa: E712
    ).all()
    for challenge in open_challenges:
        _cancel(session, challenge, why)
    return len(open_challenges)


def _cancel(session: Session, challenge: Challenge, why: str) -> None:
    """Mark `challenge` cancelled and end its queued games void, saying `why`."""
    challenge.cancelled = True
    session.add(challenge)
    now = utcnow()
    for match in session.exec(select(Match).where(Match.challenge_id == challenge.id, Match.status == MatchStatus.QUEUED)).all():
        match.status = MatchStatus.VOID
        match.void_reason = why
        match.finished_at = now
        match.lease_expires_at = None
        session.add(match)


def challenge_result(settings: LadderSettings, challenge_id: int) -> ChallengeResult:
    """A challenge's games so far, and the challenger's wins, draws and losses (by best rank of its seats)."""
    with read_session(settings.db_url) as session:
        challenge = session.get(Challenge, challenge_id)
        if challenge is None:
            raise LadderError(f"no challenge #{challenge_id}")
        match_ids = list(session.exec(select(Match.id).where(Match.challenge_id == challenge_id).order_by(col(Match.id))).all())
    bot, opponent = get_bot(settings, challenge.bot_id), get_bot(settings, challenge.opponent_id)
    result = ChallengeResult(challenge_id, bot.name, opponent.name, challenge.games, challenge.requested_by)
    for match_id in match_ids:
        row = queries.match(settings, int(match_id or 0))
        if row is None:
            continue
        result.matches.append(row)
        if row.status != "done":
            continue
        mine = min(seat.rank for seat in row.seats if seat.bot_id == bot.id and seat.rank is not None)
        theirs = min(seat.rank for seat in row.seats if seat.bot_id == opponent.id and seat.rank is not None)
        if mine < theirs:
            result.wins += 1
        elif mine == theirs:
            result.draws += 1
        else:
            result.losses += 1
    return result
