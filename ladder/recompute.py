"""Recompute every rating from the match history, in the order the matches were rated."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

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
            if differences:
                from ladder.changes import RATINGS, count_change

                count_change(session, RATINGS)  # a running scheduler reads the ratings again
            for match_id, (before, after) in per_seat.items():
                seats = session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))).all()
                for seat, old, new in zip(seats, before, after):
                    seat.rating_before, seat.rating_after = old, new
                    session.add(seat)
        else:
            session.rollback()
    return differences


@dataclass
class _GameFit:
    """One game's fit and how far it knows the rating sequence."""

    incremental: IncrementalFit = field(default_factory=IncrementalFit)
    known: int = 0  # every match rated up to this sequence number is counted (or known to have changed nothing)
    read: bool = False  # the history was read once
    #: Matches told of beyond a gap in the sequence (None: it changed no rating), counted once the gap is filled.
    early: dict[int, tuple[list[int], list[int]] | None] = field(default_factory=dict)


class StrengthCache:
    """Each game's Bradley-Terry fit, kept current by reading only the matches rated since the last read, or
    by being told of each rated match in sequence (the scheduler learns of them as they end)."""

    def __init__(self) -> None:
        self._fits: dict[tuple[str, str], _GameFit] = {}
        self._lock = threading.Lock()

    def fit(self, settings: LadderSettings, game: str) -> StrengthFit:
        """The fit of every rated match of `game` so far (read from the database now)."""
        with self._lock:
            entry = self._fits.setdefault((settings.db_url, game), _GameFit())
            self._catch_up(settings, game, entry)
            return entry.incremental.current()

    def known(self, settings: LadderSettings, game: str) -> StrengthFit:
        """The fit of every rated match counted so far, read from the database only the first time: a match
        rated since is in it once it was told (`told`) or read (`fit`)."""
        with self._lock:
            entry = self._fits.setdefault((settings.db_url, game), _GameFit())
            if not entry.read:
                self._catch_up(settings, game, entry)
            return entry.incremental.current()

    def told(self, settings: LadderSettings, game: str, seq: int, bots: list[int] | None, ranks: list[int] | None) -> None:
        """Count the match rated with sequence number `seq` (`bots` None: it changed no rating), once every
        earlier number is counted; one counted already is ignored."""
        with self._lock:
            entry = self._fits.setdefault((settings.db_url, game), _GameFit())
            if seq > entry.known:
                entry.early[seq] = (list(bots), list(ranks or ())) if bots is not None else None
                self._drain(entry)

    def waiting(self, settings: LadderSettings, game: str) -> bool:
        """Whether matches were told beyond a gap in the sequence (a rated match not yet told or read)."""
        with self._lock:
            entry = self._fits.get((settings.db_url, game))
            return bool(entry and entry.early)

    def _catch_up(self, settings: LadderSettings, game: str, entry: _GameFit) -> None:
        with read_session(settings.db_url) as session:
            # The counter first: every match rated up to it is committed and seen by the next read.
            counter = session.exec(select(GameCounter.rating_seq).where(GameCounter.game == game)).first() or 0
            for _, seq, bots, ranks in rated_history_with_seq(settings, game, entry.known, session):
                if seq > counter:
                    break  # committed after the counter was read: counted by the next read or when told
                entry.incremental.add(bots, ranks)
        entry.read = True
        entry.known = max(entry.known, int(counter))
        entry.early = {seq: item for seq, item in entry.early.items() if seq > entry.known}
        self._drain(entry)

    @staticmethod
    def _drain(entry: _GameFit) -> None:
        while entry.known + 1 in entry.early:
            item = entry.early.pop(entry.known + 1)
            if item is not None:
                entry.incremental.add(*item)
            entry.known += 1


#: The process's strength fits (the leaderboard, the bot page and the matchmaker share it).
strengths = StrengthCache()


def strength_fit(settings: LadderSettings, game: str) -> StrengthFit:
    """The strength fit of `game`'s whole rated history (shared with the pages and the matchmaker)."""
    return strengths.fit(settings, game)
