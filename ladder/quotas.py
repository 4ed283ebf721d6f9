"""Per-account quotas (set in the ladder's config, ladder.ladder_config): what an account uses of
each, and the checks made before a submission or a challenge."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from ladder.db import read_session
from ladder.ladder_config import Quotas
from ladder.models import Bot, BotStatus, Challenge, Match, MatchStatus, utcnow
from ladder.registry import LadderError
from ladder.settings import LadderSettings


class QuotaExceeded(LadderError):
    """A request beyond one of the account's quotas, naming the quota and its limit."""


def _families_per_game(session: Session, account_id: int) -> dict[str, set[str]]:
    rows = session.exec(select(Bot.game, Bot.family, Bot.name, Bot.status).where(Bot.account_id == account_id)).all()
    playing: dict[str, set[str]] = {}
    for game, family, name, status in rows:
        if status != BotStatus.RETIRED:
            playing.setdefault(game, set()).add(family or name)
    return playing


def _submissions_last_hour(session: Session, account_id: int) -> int:
    since = utcnow() - timedelta(hours=1)
    return int(session.exec(select(func.count()).select_from(Bot).where(Bot.account_id == account_id, col(Bot.created_at) >= since)).one())


def challenge_games_in_flight(session: Session, account_id: int) -> int:
    """The account's challenge games not yet finished (queued, running, or waiting to be queued)."""
    total = 0
    for challenge in session.exec(select(Challenge).where(Challenge.account_id == account_id, Challenge.cancelled == False)).all():  # noqa: E712
        finished = session.exec(select(func.count()).select_from(Match).where(
            Match.challenge_id == challenge.id, col(Match.status).in_((MatchStatus.DONE, MatchStatus.VOID)))).one()
        total += max(0, challenge.games - int(finished))
    return total


def usage(settings: LadderSettings, account_id: int) -> dict[str, int]:
    """What the account uses of each quota now (archive_bytes: 0, it is a per-upload limit)."""
    with read_session(settings.db_url) as session:
        per_game = _families_per_game(session, account_id)
        return {
            "bots_per_game": max((len(names) for names in per_game.values()), default=0),
            "submissions_per_hour": _submissions_last_hour(session, account_id),
            "archive_bytes": 0,
            "challenge_games_in_flight": challenge_games_in_flight(session, account_id),
        }


def check_submission(settings: LadderSettings, quotas: Quotas, account_id: int, family: str, game: str) -> None:
    """QuotaExceeded if the account may not submit `family` (a new bot or a new version) now."""
    with read_session(settings.db_url) as session:
        if _submissions_last_hour(session, account_id) >= quotas.submissions_per_hour:
            raise QuotaExceeded(f"quota: at most {quotas.submissions_per_hour} submissions per hour; try again later")
        names = _families_per_game(session, account_id).get(game, set())
        if family not in names and len(names) >= quotas.bots_per_game:
            raise QuotaExceeded(f"quota: at most {quotas.bots_per_game} bots in {game} per account "
                                f"(retire one with `b99 retire NAME` first)")


def check_challenge(settings: LadderSettings, quotas: Quotas, account_id: int, games: int) -> None:
    """QuotaExceeded if `games` more challenge games would put the account over its share."""
    with read_session(settings.db_url) as session:
        flying = challenge_games_in_flight(session, account_id)
    if flying + games > quotas.challenge_games_in_flight:
        raise QuotaExceeded(f"quota: at most {quotas.challenge_games_in_flight} challenge games in flight per account; "
                            f"{flying} are, {games} more asked for")
