"""Unrated challenges: an owner asks for N games between their bot and any bot of the same game.

Challenge games are ordinary ladder matches of kind `challenge`: the same executor, sandbox, time
control and replays, the seats alternating between the two bots; they never touch a rating.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sqlmodel import col, select

from ladder import queries
from ladder.db import read_session, write_session
from ladder.matches import schedule_match
from ladder.models import BotStatus, Challenge, Match, MatchKind
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
    settings: LadderSettings, bot_name: str, opponent_name: str, games: int, requested_by: str = "", seed: int | None = None
) -> int:
    """Queue `games` unrated games between two bots of one game (seats alternating); returns the challenge's id."""
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
        challenge = Challenge(bot_id=bot.id or 0, opponent_id=opponent.id or 0, games=games, requested_by=requested_by)
        session.add(challenge)
        session.flush()
        challenge_id = challenge.id or 0
    rng = random.Random(seed)
    for number in range(games):
        table = [(bot.id if (seat + number) % 2 == 0 else opponent.id) or 0 for seat in range(seats)]
        schedule_match(settings, bot.game, table, seed=rng.getrandbits(63), kind=MatchKind.CHALLENGE, challenge_id=challenge_id)
    return challenge_id


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
