"""Recompute every rating from the match history, in the order the matches were rated."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sqlmodel import Session, col, select

from ladder.db import read_session, write_session
from ladder.models import GameCounter, Match, MatchKind, MatchStatus, Rating, Seat
from ladder.ratings import INITIAL_RATING, RatingTable, rating_decision
from ladder.settings import LadderSettings
from ladder.strength import IncrementalFit, StrengthFit

TOLERANCE = 1e-9


@dataclass(frozen=True)
class RatingDifference:
    """A stored rating that differs from the recomputed one."""

    bot_id: int
    stored: float
    recomputed: float


def rated_history(
    settings: LadderSettings, game: str, after_seq: int = 0
) -> list[tuple[int, list[int], list[int]]]:
    """Every match of `game` that changed ratings, as (match id, bot ids in seat order, the ranks
    the ratings used), in rating order; with `after_seq`, only those rated after that number."""
    return [(match_id, bots, ranks) for match_id, _, bots, ranks in rated_history_with_seq(settings, game, after_seq)]


def rated_history_with_seq(
    settings: LadderSettings, game: str, after_seq: int = 0, session: Session | None = None
) -> list[tuple[int, int, list[int], list[int]]]:
    """Like rated_history, with each match's rating sequence number: (match id, seq, bots, ranks);
    read in `session` when given (to see the same instant as other reads of its transaction)."""
    if session is None:
        with read_session(settings.db_url) as own:
            return rated_history_with_seq(settings, game, after_seq, own)
    rows = session.exec(
        select(Match.id, Match.rating_seq, Seat.bot_id, Seat.rank, Seat.replaced)
        .join(Seat, col(Seat.match_id) == col(Match.id))
        .where(
            Match.game == game,
            Match.status == MatchStatus.DONE,
            Match.kind == MatchKind.RATED,
            col(Match.unrated_reason).is_(None),
            col(Match.rating_seq) > after_seq,
        )
        .order_by(col(Match.rating_seq), col(Seat.seat))
    ).all()
    grouped: list[tuple[int, int, list[int], list[int], list[bool]]] = []
    for match_id, seq, bot_id, rank, replaced in rows:
        if not grouped or grouped[-1][0] != match_id:
            grouped.append((match_id, int(seq), [], [], []))
        grouped[-1][2].append(bot_id)
        grouped[-1][3].append(int(rank))
        grouped[-1][4].append(bool(replaced))
    return [
        (match_id, seq, bots, list(rating_decision(ranks, replaced).ranks))
        for match_id, seq, bots, ranks, replaced in grouped
    ]


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
        for match_id, _, bots, ranks in rated_history_with_seq(settings, game, 0, session):
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


class StrengthCache:
    """Each game's Bradley-Terry fit, kept current by reading only the matches rated since the last call."""

    def __init__(self) -> None:
        self._fits: dict[tuple[str, str], tuple[int, IncrementalFit]] = {}
        self._lock = threading.Lock()

    def fit(self, settings: LadderSettings, game: str) -> StrengthFit:
        """The fit of every rated match of `game` so far."""
        key = (settings.db_url, game)
        with self._lock:
            last, incremental = self._fits.get(key, (0, IncrementalFit()))
            for _, seq, bots, ranks in rated_history_with_seq(settings, game, last):
                incremental.add(bots, ranks)
                last = seq
            self._fits[key] = (last, incremental)
            return incremental.current()


#: The process's strength fits (the leaderboard, the bot page and the matchmaker share it).
strengths = StrengthCache()


def strength_fit(settings: LadderSettings, game: str) -> StrengthFit:
    """The strength fit of `game`'s whole rated history (shared with the pages and the matchmaker)."""
    return strengths.fit(settings, game)
