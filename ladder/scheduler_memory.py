"""What the scheduler knows between matches, kept in memory instead of read for every match: each game's
active bots with their ratings, who sat in its recent matches, its strength fit, and the open matches.

It is read whole at start and on a timer (a safety net), and kept in step in between from what the scheduler
is told or sees: the matches it queues, the matches that ended (their seats' ratings and the rating sequence
are read back, one query for all of them), and the database's change counts (ladder.changes), which move on
every change of a bot, whoever makes it (an operator's pause, a new bot, a validation that admits one, a bot
paused for its faults), and when a recompute rewrites ratings: then the bots and ratings are read again before
the next match is picked. The candidates it gives are the ones a read of the database would give
(`candidates_from_database`, which tests compare it with); docs/decisions.md "The scheduler's memory".
"""

from __future__ import annotations

import bisect
import contextlib
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func
from sqlalchemy.engine import Connection
from sqlmodel import col, select

from ladder.changes import change_counts
from ladder.db import get_engine, read_session
from ladder.matchmaking import Candidate
from ladder.models import Bot, BotKind, BotStatus, Match, MatchKind, MatchStatus, Rating, Seat
from ladder.ratings import rating_decision
from ladder.recompute import StrengthCache, strengths
from ladder.settings import LadderSettings

#: How many of a game's latest matches count as "recent" for matchmaking.
RECENT_MATCHES = 200
#: How often everything is read again whatever the change counts say (a safety net, not the way changes arrive).
REFRESH_SECONDS = 30.0


@dataclass
class KnownBot:
    """An active bot as the scheduler knows it."""

    bot_id: int
    game: str
    kind: str
    rating: float
    games: int


@contextlib.contextmanager
def _reading(url: str) -> Iterator[Connection]:
    """A Core connection for a few reads (no ORM session: these run before every match)."""
    with get_engine(url).connect() as connection:
        yield connection


class SchedulerMemory:
    """Candidates, recent seats and open matches of the scheduler's games, kept in step with the database."""

    def __init__(self, settings: LadderSettings, refresh_seconds: float = REFRESH_SECONDS, fits: StrengthCache = strengths) -> None:
        self.settings = settings
        self.refresh_seconds = refresh_seconds
        self.fits = fits
        self.bots: dict[str, dict[int, KnownBot]] = {}  # per game, its active bots (with a rating row)
        self.recent: dict[str, list[tuple[int, tuple[int, ...]]]] = {}  # per game, (match id, bot ids) by id, read lazily
        self.seated: dict[str, Counter[int]] = {}  # per game, seats per bot in `recent`
        self.open: dict[int, bool] = {}  # open matches: id -> whether it counts against the scheduler's concurrency
        self.changes: dict[str, int] | None = None
        self.loaded_at: float | None = None
        self._ended: list[int] = []
        self._lock = threading.Lock()

    # What the scheduler is told.

    def ended(self, match_ids: Iterable[int]) -> None:
        """Matches that may have closed (from any thread): read back at the next refresh."""
        with self._lock:
            self._ended.extend(match_ids)

    def queued(self, match_id: int, game: str, bot_ids: Sequence[int], counted: bool = True) -> None:
        """A match the scheduler queued (`counted`: it counts against its concurrency, as a challenge does not)."""
        self.open[match_id] = counted
        if game in self.recent:
            recent, seated = self.recent[game], self.seated[game]
            bisect.insort(recent, (match_id, tuple(bot_ids)))
            seated.update(bot_ids)
            while len(recent) > RECENT_MATCHES:
                seated.subtract(recent.pop(0)[1])

    def forget_recent(self) -> None:
        """Matches were queued by others (validation, challenges): each game's recent seats are read again."""
        self.recent.clear()
        self.seated.clear()

    # Reading the database.

    def load(self) -> None:
        """Read everything again: the change counts first, so that a change made during the read moves them again."""
        with self._lock:
            self._ended.clear()  # what they said is in the read below (what is said during it is read back after)
        with _reading(self.settings.db_url) as connection:
            self.changes = change_counts(connection)
            self._read_bots(connection)
            self._read_open(connection)
        self.forget_recent()
        for game in self.bots:
            self.fits.fit(self.settings, game)  # the rated matches not yet told
        self.loaded_at = time.monotonic()

    def read_open(self) -> None:
        """Read the open matches again (after the reaper and the validation and challenge queues ran)."""
        with _reading(self.settings.db_url) as connection:
            self._read_open(connection)

    def refresh(self, poll: bool = False) -> None:
        """Before a match is picked: read back the matches that ended (with `poll`, every open match: for executors
        that do not say which ended), and the bots and ratings again if a change count moved; everything on the timer."""
        if self.loaded_at is None or time.monotonic() - self.loaded_at >= self.refresh_seconds:
            self.load()
            return
        with self._lock:
            ended, self._ended = self._ended, []
        if poll:
            ended = [*ended, *self.open]
        with _reading(self.settings.db_url) as connection:
            changes = change_counts(connection)
            if ended:
                self._read_ended(connection, sorted(set(ended)))
            if changes != self.changes:
                self.changes = changes
                self._read_bots(connection)

    def _read_bots(self, connection: Connection) -> None:
        rows = connection.execute(
            select(Bot.id, Bot.game, Bot.kind, Rating.rating, Rating.games)
            .join(Rating, col(Rating.bot_id) == col(Bot.id)).where(Bot.status == BotStatus.ACTIVE).order_by(col(Bot.id))
        ).all()
        bots: dict[str, dict[int, KnownBot]] = {}
        for bot_id, game, kind, rating, games in rows:
            bots.setdefault(game, {})[int(bot_id)] = KnownBot(int(bot_id), game, kind, float(rating), int(games))
        self.bots = bots

    def _read_open(self, connection: Connection) -> None:
        rows = connection.execute(select(Match.id, Match.kind).where(col(Match.status).in_(MatchStatus.OPEN))).all()
        self.open = {int(match_id): kind != MatchKind.CHALLENGE for match_id, kind in rows}

    def _read_ended(self, connection: Connection, match_ids: list[int]) -> None:
        """Read back matches that may have closed: close them here, take their seats' ratings, tell the fit."""
        rows = connection.execute(_ENDED, {"ids": match_ids}).all()
        matches: dict[int, list[Any]] = {}
        for row in rows:
            matches.setdefault(int(row[0]), []).append(row)
        for match_id, seats in matches.items():
            _, status, kind, game, seq, unrated, *_ = seats[0]
            if status in MatchStatus.OPEN:
                continue  # requeued, or still running
            self.open.pop(match_id, None)
            known = self.bots.get(game, {})
            for row in seats:
                bot_id, rating, games = int(row[6]), row[9], row[10]
                if bot_id in known and rating is not None:
                    known[bot_id].rating, known[bot_id].games = float(rating), int(games)
            if kind == MatchKind.RATED and status == MatchStatus.DONE and seq is not None:
                if unrated is None:
                    bots = [int(row[6]) for row in seats]
                    ranks = list(rating_decision([int(row[7]) for row in seats], [bool(row[8]) for row in seats]).ranks)
                    self.fits.told(self.settings, game, int(seq), bots, ranks)
                else:
                    self.fits.told(self.settings, game, int(seq), None, None)

    def _recent(self, game: str) -> Counter[int]:
        if game not in self.recent:
            with _reading(self.settings.db_url) as connection:
                ids = select(Match.id).where(Match.game == game).order_by(col(Match.id).desc()).limit(RECENT_MATCHES)
                rows = connection.execute(
                    select(Match.id, Seat.bot_id).outerjoin(Seat, col(Seat.match_id) == col(Match.id))
                    .where(col(Match.id).in_(ids.scalar_subquery())).order_by(col(Match.id), col(Seat.seat))
                ).all()
            grouped: dict[int, list[int]] = {}
            for match_id, bot_id in rows:
                seats = grouped.setdefault(int(match_id), [])
                if bot_id is not None:
                    seats.append(int(bot_id))
            self.recent[game] = [(match_id, tuple(seats)) for match_id, seats in sorted(grouped.items())]
            self.seated[game] = Counter(bot_id for _, seats in self.recent[game] for bot_id in seats)
        return self.seated[game]

    # What the scheduler asks.

    def _loaded(self) -> None:
        if self.loaded_at is None:
            self.load()

    def games(self) -> list[str]:
        """The games that have active bots."""
        self._loaded()
        return sorted(game for game, bots in self.bots.items() if bots)

    def open_count(self) -> int:
        """Open matches that count against the scheduler's concurrency (rated and validation ones)."""
        self._loaded()
        return sum(1 for counted in self.open.values() if counted)

    def remote_ids(self, game: str) -> set[int]:
        """The active remote bots of `game`."""
        self._loaded()
        return {bot.bot_id for bot in self.bots.get(game, {}).values() if bot.kind == BotKind.REMOTE}

    def candidates(self, game: str, online: Any = None) -> list[Candidate]:
        """The active bots of `game` (remote ones only while connected), with rating, recent load and fitted strength."""
        self._loaded()
        bots = self.bots.get(game, {})
        if not bots:
            return []
        seated = self._recent(game)
        fit = self.fits.known(self.settings, game)
        return _candidates(bots.values(), seated, fit, online)


_ENDED = (
    select(Match.id, Match.status, Match.kind, Match.game, Match.rating_seq, Match.unrated_reason,
           Seat.bot_id, Seat.rank, Seat.replaced, Rating.rating, Rating.games)
    .join(Seat, col(Seat.match_id) == col(Match.id)).outerjoin(Rating, col(Rating.bot_id) == col(Seat.bot_id))
    .where(col(Match.id).in_(bindparam("ids", expanding=True))).order_by(col(Match.id), col(Seat.seat))
)


def _candidates(bots: Iterable[KnownBot], seated: Counter[int] | dict[int, int], fit: Any, online: Any) -> list[Candidate]:
    result = []
    for bot in sorted(bots, key=lambda known: known.bot_id):
        if bot.kind == BotKind.REMOTE and (online is None or bot.bot_id not in online):
            continue
        fitted = bot.bot_id in fit.index
        result.append(Candidate(bot.bot_id, bot.rating, bot.games, int(seated.get(bot.bot_id, 0)),
                                strength=fit.rating(bot.bot_id) if fitted else None, sd=fit.sd(bot.bot_id) if fitted else None))
    return result


def candidates_from_database(settings: LadderSettings, game: str, online: Any = None) -> list[Candidate]:
    """The candidates of `game` read from the database now (every bot, rating and recent seat; the whole rated
    history fitted afresh): what the scheduler's memory must give."""
    from ladder.strength import fit_history
    from ladder.recompute import rated_history

    with read_session(settings.db_url) as session:
        rows = session.exec(
            select(Bot.id, Bot.game, Bot.kind, Rating.rating, Rating.games).join(Rating, col(Rating.bot_id) == col(Bot.id))
            .where(Bot.game == game, Bot.status == BotStatus.ACTIVE)
        ).all()
        recent_ids = select(Match.id).where(Match.game == game).order_by(col(Match.id).desc()).limit(RECENT_MATCHES)
        seated = dict(session.exec(
            select(Seat.bot_id, func.count()).where(col(Seat.match_id).in_(recent_ids.scalar_subquery())).group_by(Seat.bot_id)
        ).all())
    fit = fit_history((bots, ranks) for _, bots, ranks in rated_history(settings, game))
    bots = [KnownBot(int(bot_id), name, kind, float(rating), int(games)) for bot_id, name, kind, rating, games in rows]
    return _candidates(bots, seated, fit, online)
