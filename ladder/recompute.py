"""Recompute every rating from the match history, in the order the matches were rated."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from ladder.db import read_session, write_session
from ladder.models import GameCounter, Match, MatchStatus, Rating, Seat
from ladder.ratings import INITIAL_RATING, RatingTable, bootstrap_intervals
from ladder.settings import LadderSettings

TOLERANCE = 1e-9


@dataclass(frozen=True)
class RatingDifference:
    """A stored rating that differs from the recomputed one."""

    bot_id: int
    stored: float
    recomputed: float


def rated_history(settings: LadderSettings, game: str) -> list[tuple[int, list[int], list[int]]]:
    """Every rated match of `game` as (match id, bot ids in seat order, ranks), in rating order."""
    with read_session(settings.db_url) as session:
        return _history(session, game)


def _history(session: Session, game: str) -> list[tuple[int, list[int], list[int]]]:
    rows = session.exec(
        select(Match.id, Seat.bot_id, Seat.rank)
        .join(Seat, col(Seat.match_id) == col(Match.id))
        .where(Match.game == game, Match.status == MatchStatus.DONE)
        .order_by(col(Match.rating_seq), col(Seat.seat))
    ).all()
    history: list[tuple[int, list[int], list[int]]] = []
    for match_id, bot_id, rank in rows:
        if not history or history[-1][0] != match_id:
            history.append((match_id, [], []))
        history[-1][1].append(bot_id)
        history[-1][2].append(int(rank))
    return history


def recompute_table(settings: LadderSettings, game: str) -> RatingTable:
    """The ratings of `game` replayed from its history."""
    table = RatingTable()
    for _, bots, ranks in rated_history(settings, game):
        table.apply(bots, ranks)
    return table


def recompute(settings: LadderSettings, game: str, write: bool = False) -> list[RatingDifference]:
    """Compare (and with `write`, replace) the stored ratings of `game` with the recomputed ones."""
    table = RatingTable()
    per_seat: dict[int, tuple[list[float], list[float]]] = {}
    differences = []
    with write_session(settings.db_url) as session:
        # The game's rating lock, held by every result being recorded: history and ratings are read
        # at one instant even while the ladder runs.
        session.exec(select(GameCounter).where(GameCounter.game == game).with_for_update()).first()
        for match_id, bots, ranks in _history(session, game):
            per_seat[match_id] = table.apply(bots, ranks)
        for rating in session.exec(select(Rating).where(Rating.game == game)).all():
            expected = table.ratings.get(rating.bot_id, INITIAL_RATING)
            if abs(rating.rating - expected) > TOLERANCE or rating.games != table.games.get(rating.bot_id, 0):
                differences.append(RatingDifference(rating.bot_id, rating.rating, expected))
                if write:
                    rating.rating = expected
                    rating.games = table.games.get(rating.bot_id, 0)
                    session.add(rating)
        if write:
            for match_id, (before, after) in per_seat.items():
                seats = session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))).all()
                for seat, old, new in zip(seats, before, after):
                    seat.rating_before, seat.rating_after = old, new
                    session.add(seat)
        else:
            session.rollback()
    return differences


_interval_cache: dict[tuple[str, str, int, int, int], dict[int, tuple[float, float]]] = {}


def rating_intervals(settings: LadderSettings, game: str, samples: int = 60) -> dict[int, tuple[float, float]]:
    """A 90% bootstrap interval of each bot's rating in `game` (computed once per rated history)."""
    history = rated_history(settings, game)
    key = (settings.db_url, game, history[-1][0] if history else 0, len(history), samples)
    if key not in _interval_cache:
        matches = [(bots, ranks) for _, bots, ranks in history]
        if len(_interval_cache) > 64:
            _interval_cache.clear()
        _interval_cache[key] = {
            int(bot): interval for bot, interval in bootstrap_intervals(matches, samples=samples).items()  # type: ignore[call-overload]
        }
    return _interval_cache[key]
