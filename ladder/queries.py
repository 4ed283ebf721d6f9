"""Read-only views of a ladder: leaderboards, match history, one match, a bot's rating history."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import col, select

from ladder.db import read_session
from ladder.models import Bot, BotStatus, Match, MatchKind, MatchStatus, Rating, ReplayBlob, Seat
from ladder.settings import LadderSettings
from referee.chance import seed_commitment


@dataclass
class LeaderboardRow:
    """One bot's line on its game's leaderboard."""

    position: int
    bot_id: int
    name: str
    owner: str
    version: str
    kind: str
    status: str
    rating: float  # official Elo
    games: int
    #: 90% interval of the bot's strength relative to the field's mean, plus 1500 (the Bradley-Terry fit of
    #: the whole history); it shrinks as the bot plays. None before its first game.
    interval: tuple[float, float] | None
    strength: float | None = None  # the Bradley-Terry fit's estimate, on the Elo scale
    game: str = ""
    paused_reason: str | None = None
    #: The probability that this bot is stronger than the ranked bot listed below it (None: last, or unfitted).
    above_next: float | None = None

    @property
    def ranked(self) -> bool:
        """Whether the bot is in the ranked table (active); paused, validating and rejected bots are listed apart."""
        return self.status == BotStatus.ACTIVE


@dataclass
class SeatRow:
    """One seat of a listed match."""

    seat: int
    bot_id: int
    bot: str
    rank: int | None
    score: float | None
    faults: list[dict[str, Any]]
    replaced: bool
    rating_before: float | None
    rating_after: float | None
    stderr_tail: str = ""
    exit_code: int | None = None


@dataclass
class MatchRow:
    """One match with its seats."""

    id: int
    uid: str
    game: str
    status: str
    seed: int
    attempts: int
    config: dict[str, Any]
    created_at: datetime
    finished_at: datetime | None
    decisions: int | None
    duration_seconds: float | None
    replay_path: str | None
    void_reason: str | None
    rating_seq: int | None
    worker: str | None
    seats: list[SeatRow] = field(default_factory=list)
    has_replay: bool = False  # a replay is stored (in the database, or a file of an older ladder)
    kind: str = MatchKind.RATED
    unrated_reason: str | None = None

    @property
    def over(self) -> bool:
        """Done or void: only then are its seed and replay public (a running match's seed predicts its chance)."""
        return self.status not in MatchStatus.OPEN

    @property
    def seed_commitment(self) -> str:
        """The hash of the seed that the referee publishes at the start (referee.chance.seed_commitment)."""
        return seed_commitment(self.seed, self.uid)


#: The largest id a table holds (64-bit signed); a longer number names nothing.
MAX_ID = 2**63 - 1


def parse_id(key: str | int) -> int | None:
    """A row id from a URL or request part: None unless it is a number a table can hold."""
    text = str(key)
    if not text.isdigit() or not text.isascii():
        return None
    value = int(text)
    return value if 0 < value <= MAX_ID else None


def games(settings: LadderSettings) -> list[str]:
    """Games that have at least one bot on this ladder."""
    with read_session(settings.db_url) as session:
        return sorted(set(session.exec(select(Bot.game)).all()))


def leaderboard(
    settings: LadderSettings, game: str, with_intervals: bool = True
) -> list[LeaderboardRow]:
    """Bots of `game`: the ranked (active) ones by Elo, best first, numbered from 1; then the bots
    listed apart (paused, validating, rejected, retired) with position 0. Each with games played,
    its Bradley-Terry strength and that strength's 90% interval."""
    with read_session(settings.db_url) as session:
        rows = session.exec(
            select(Bot, Rating)
            .join(Rating, col(Rating.bot_id) == col(Bot.id))
            .where(Bot.game == game, Bot.status != BotStatus.REFERENCE)
        ).all()
    from ladder.recompute import strengths  # numpy: loaded by the pages that show intervals, not by every command

    fit = strengths.fit(settings, game) if with_intervals else None
    ranked = sorted((row for row in rows if row[0].status == BotStatus.ACTIVE), key=lambda row: (-row[1].rating, row[0].name))
    apart = sorted((row for row in rows if row[0].status != BotStatus.ACTIVE), key=lambda row: (row[0].status, row[0].name))
    result = []
    for i, (bot, rating) in enumerate(ranked + apart):
        played = fit is not None and (bot.id or 0) in fit.index
        result.append(
            LeaderboardRow(
                position=i + 1 if bot.status == BotStatus.ACTIVE else 0,
                bot_id=bot.id or 0,
                name=bot.name,
                owner=bot.owner,
                version=bot.version,
                kind=bot.kind,
                status=bot.status,
                rating=rating.rating,
                games=rating.games,
                interval=fit.interval(bot.id or 0) if played else None,  # type: ignore[union-attr]
                strength=fit.rating(bot.id or 0) if played else None,  # type: ignore[union-attr]
                game=bot.game,
                paused_reason=bot.paused_reason,
            )
        )
    if fit is not None:
        ranked_rows = [row for row in result if row.ranked]
        for row, below in zip(ranked_rows, ranked_rows[1:]):
            if row.bot_id in fit.index and below.bot_id in fit.index:
                row.above_next = fit.better(row.bot_id, below.bot_id)
    return result


def _stored_replays(session: Any, match_ids: list[int]) -> set[int]:
    if not match_ids:
        return set()
    return set(session.exec(select(ReplayBlob.match_id).where(col(ReplayBlob.match_id).in_(match_ids))).all())


def _match_row(match: Match, seats: list[tuple[Seat, Bot]], stored_replay: bool = False) -> MatchRow:
    from pathlib import Path

    return MatchRow(
        has_replay=stored_replay or bool(match.replay_path and Path(match.replay_path).exists()),
        id=match.id or 0,
        uid=match.uid,
        game=match.game,
        status=match.status,
        seed=match.seed,
        attempts=match.attempts,
        config=dict(match.config),
        created_at=match.created_at,
        finished_at=match.finished_at,
        decisions=match.decisions,
        duration_seconds=match.duration_seconds,
        replay_path=match.replay_path,
        void_reason=match.void_reason,
        rating_seq=match.rating_seq,
        worker=match.worker,
        kind=match.kind,
        unrated_reason=match.unrated_reason,
        seats=[
            SeatRow(
                seat=seat.seat,
                bot_id=bot.id or 0,
                bot=bot.name,
                rank=seat.rank,
                score=seat.score,
                faults=list(seat.faults),
                replaced=seat.replaced,
                rating_before=seat.rating_before,
                rating_after=seat.rating_after,
                stderr_tail=seat.stderr_tail,
                exit_code=seat.exit_code,
            )
            for seat, bot in seats
        ],
    )


def matches(
    settings: LadderSettings,
    game: str | None = None,
    bot_id: int | None = None,
    status: str | None = None,
    limit: int = 50,
    after_seq: int | None = None,
    offset: int = 0,
) -> list[MatchRow]:
    """Matches, newest first, skipping `offset` (or, with `after_seq`, rated matches after that
    sequence number, oldest first)."""
    with read_session(settings.db_url) as session:
        query = _match_filter(select(Match), game, bot_id, status)
        if after_seq is not None:
            query = query.where(Match.status == MatchStatus.DONE, col(Match.rating_seq) > after_seq).order_by(
                col(Match.rating_seq)
            )
        else:
            query = query.order_by(col(Match.id).desc())
        found = list(session.exec(query.offset(offset).limit(limit)).all())
        seats: dict[int, list[tuple[Seat, Bot]]] = {}
        if found:
            for seat, bot in session.exec(
                select(Seat, Bot)
                .join(Bot, col(Bot.id) == col(Seat.bot_id))
                .where(col(Seat.match_id).in_([m.id for m in found]))
                .order_by(col(Seat.seat))
            ).all():
                seats.setdefault(seat.match_id, []).append((seat, bot))
        stored = _stored_replays(session, [m.id for m in found if m.id is not None])
    return [_match_row(match, seats.get(match.id or 0, []), match.id in stored) for match in found]


def _match_filter(query: Any, game: str | None, bot_id: int | None, status: str | None) -> Any:
    if game:
        query = query.where(Match.game == game)
    if status:
        query = query.where(Match.status == status)
    if bot_id is not None:
        query = query.where(col(Match.id).in_(select(Seat.match_id).where(Seat.bot_id == bot_id)))
    return query


def count_matches(
    settings: LadderSettings, game: str | None = None, bot_id: int | None = None, status: str | None = None
) -> int:
    """How many matches `matches()` would page through with the same filters."""
    from sqlalchemy import func

    with read_session(settings.db_url) as session:
        return int(session.exec(_match_filter(select(func.count()).select_from(Match), game, bot_id, status)).one())


def bots(settings: LadderSettings, game: str | None = None, limit: int = 50, offset: int = 0) -> list[LeaderboardRow]:
    """Registered bots by game and name (position 0: not ranked here), one page of them."""
    with read_session(settings.db_url) as session:
        query = select(Bot, Rating).join(Rating, col(Rating.bot_id) == col(Bot.id))
        if game:
            query = query.where(Bot.game == game)
        rows = session.exec(query.order_by(col(Bot.game), col(Bot.name)).offset(offset).limit(limit)).all()
    return [
        LeaderboardRow(position=0, bot_id=bot.id or 0, name=bot.name, owner=bot.owner, version=bot.version,
                       kind=bot.kind, status=bot.status, rating=rating.rating, games=rating.games, interval=None, game=bot.game)
        for bot, rating in rows
    ]


def count_bots(settings: LadderSettings, game: str | None = None) -> int:
    """How many bots `bots()` pages through."""
    from sqlalchemy import func

    with read_session(settings.db_url) as session:
        query = select(func.count()).select_from(Bot)
        if game:
            query = query.where(Bot.game == game)
        return int(session.exec(query).one())


def match(settings: LadderSettings, key: str | int) -> MatchRow | None:
    """One match by id or uid."""
    with read_session(settings.db_url) as session:
        if isinstance(key, int) or str(key).isdigit():
            match_id = parse_id(key)
            found = session.get(Match, match_id) if match_id is not None else None
        else:
            found = session.exec(select(Match).where(Match.uid == key)).first()
        if found is None:
            return None
        seats = list(
            session.exec(
                select(Seat, Bot).join(Bot, col(Bot.id) == col(Seat.bot_id)).where(Seat.match_id == found.id).order_by(col(Seat.seat))
            ).all()
        )
        stored = _stored_replays(session, [found.id or 0])
    return _match_row(found, seats, found.id in stored)


def rating_history(settings: LadderSettings, bot_id: int) -> list[tuple[int, datetime | None, float]]:
    """A bot's rating after each of its rated matches: (match id, finished at, rating), in rating order."""
    with read_session(settings.db_url) as session:
        rows = session.exec(
            select(Match.id, Match.finished_at, Seat.rating_after)
            .join(Match, col(Match.id) == col(Seat.match_id))
            .where(Seat.bot_id == bot_id, Match.status == MatchStatus.DONE, Match.kind == MatchKind.RATED)
            .order_by(col(Match.rating_seq), col(Seat.seat))
        ).all()
    history: list[tuple[int, datetime | None, float]] = []
    for match_id, finished, rating in rows:
        if history and history[-1][0] == match_id:
            continue  # self-play: one point per match
        history.append((int(match_id), finished, float(rating)))
    return history


def status_counts(settings: LadderSettings) -> dict[str, int]:
    """How many matches are in each status."""
    from sqlalchemy import func

    with read_session(settings.db_url) as session:
        return dict(session.exec(select(Match.status, func.count()).group_by(Match.status)).all())


def last_rating_seqs(settings: LadderSettings) -> dict[str, int]:
    """Per game, the rating sequence number of its latest rated match (games with none are left out)."""
    from sqlalchemy import func

    with read_session(settings.db_url) as session:
        rows = session.exec(select(Match.game, func.max(Match.rating_seq)).where(col(Match.rating_seq).is_not(None)).group_by(Match.game)).all()
    return {game: int(seq) for game, seq in rows}


def last_rating_seq(settings: LadderSettings, game: str) -> int:
    """The rating sequence number of the game's latest rated match (0 if none)."""
    from sqlalchemy import func

    with read_session(settings.db_url) as session:
        return int(session.exec(select(func.max(Match.rating_seq)).where(Match.game == game)).one() or 0)


def status_reasons(settings: LadderSettings, game: str) -> dict[int, str]:
    """Why each bot of `game` is listed apart from the ranked table (paused or rejected: the
    reason; validating: what it waits for)."""
    from ladder.models import BotKind
    from ladder.scheduler_lease import current_holder

    with read_session(settings.db_url) as session:
        bots = session.exec(select(Bot).where(Bot.game == game, col(Bot.status).in_(BotStatus.UNRANKED))).all()
        playing = set(session.exec(
            select(Seat.bot_id).join(Match, col(Match.id) == col(Seat.match_id))
            .where(Match.game == game, Match.kind == MatchKind.VALIDATION, Match.status == MatchStatus.RUNNING)
        ).all())
    holder = current_holder(settings)
    scheduling = holder is not None and not holder.expired(_now())
    reasons = {}
    for bot in bots:
        if bot.status == BotStatus.VALIDATING:
            if bot.id in playing:
                reasons[bot.id or 0] = "playing its validation games"
            elif not scheduling:
                reasons[bot.id or 0] = "waits for its validation games: no scheduler is running (`b99 ladder serve`)"
            elif bot.kind == BotKind.REMOTE:
                reasons[bot.id or 0] = "waits for its validation games: they start while it is connected"
            else:
                reasons[bot.id or 0] = "waits for its validation games"
        elif bot.paused_reason:
            reasons[bot.id or 0] = bot.paused_reason
    return reasons


def _now() -> datetime:
    from ladder.models import utcnow

    return utcnow()


@dataclass
class FaultRow:
    """One seat of one match in which a bot faulted, with what its owner needs to fix it."""

    match_id: int
    uid: str
    kind: str
    finished_at: datetime | None
    seat: int
    faults: list[dict[str, Any]]
    exit_code: int | None
    stderr_tail: str


@dataclass
class HeadToHead:
    """A bot's pairwise record against one opponent in rated matches (by rank; equal ranks draw)."""

    opponent_id: int
    opponent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def score(self) -> float:
        """Points per game: a win 1, a draw 1/2."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class SeatRecord:
    """A bot's rated results from one seat."""

    seat: int
    games: int = 0
    firsts: int = 0
    rank_total: int = 0
    faults: int = 0

    @property
    def mean_rank(self) -> float:
        return self.rank_total / self.games if self.games else 0.0


def _has_faults(seat: Any = Seat) -> Any:
    """SQL: the seat's fault list is not empty (the JSON column compared as text, on SQLite and PostgreSQL alike)."""
    from sqlalchemy import String, cast

    return cast(seat.faults, String) != "[]"


def bot_faults(settings: LadderSettings, bot_id: int, limit: int = 50) -> list[FaultRow]:
    """Every seat of the bot's finished matches (any kind) that has a fault, newest first (at most `limit`)."""
    with read_session(settings.db_url) as session:
        rows = session.exec(
            select(Seat, Match)
            .join(Match, col(Match.id) == col(Seat.match_id))
            .where(Seat.bot_id == bot_id, col(Match.status).in_([MatchStatus.DONE, MatchStatus.VOID]), _has_faults())
            .order_by(col(Match.id).desc())
            .limit(limit)
        ).all()
    return [FaultRow(match.id or 0, match.uid, match.kind, match.finished_at, seat.seat, list(seat.faults),
                     seat.exit_code, seat.stderr_tail) for seat, match in rows if seat.faults]


def _rated(query: Any) -> Any:
    """Only the matches whose result counted for the ratings."""
    return query.where(Match.status == MatchStatus.DONE, Match.kind == MatchKind.RATED, col(Match.unrated_reason).is_(None))


def head_to_head(settings: LadderSettings, bot_id: int) -> list[HeadToHead]:
    """The bot's pairwise record against each opponent in its rated matches, most games first
    (counted by the database in one query, however many games the bot played)."""
    from sqlalchemy import case, func
    from sqlalchemy.orm import aliased

    mine, other = aliased(Seat), aliased(Seat)
    with read_session(settings.db_url) as session:
        rows = session.exec(
            _rated(
                select(
                    other.bot_id, Bot.name, func.count(),
                    func.sum(case((mine.rank < other.rank, 1), else_=0)),
                    func.sum(case((mine.rank == other.rank, 1), else_=0)),
                )
                .select_from(mine)
                .join(other, other.match_id == mine.match_id)
                .join(Match, col(Match.id) == mine.match_id)
                .join(Bot, col(Bot.id) == other.bot_id)
                .where(mine.bot_id == bot_id, other.bot_id != bot_id, mine.rank.is_not(None), other.rank.is_not(None))
            ).group_by(other.bot_id, Bot.name)
        ).all()
    records = [
        HeadToHead(int(opponent), str(name), games=int(games), wins=int(wins or 0), draws=int(draws or 0),
                   losses=int(games) - int(wins or 0) - int(draws or 0))
        for opponent, name, games, wins, draws in rows
    ]
    return sorted(records, key=lambda record: (-record.games, record.opponent))


def results_by_seat(settings: LadderSettings, bot_id: int) -> list[SeatRecord]:
    """The bot's rated results from each seat it played (counted by the database in one query)."""
    from sqlalchemy import case, func

    with read_session(settings.db_url) as session:
        rows = session.exec(
            _rated(
                select(Seat.seat, func.count(), func.sum(case((Seat.rank == 1, 1), else_=0)), func.sum(Seat.rank),
                       func.sum(case((_has_faults(), 1), else_=0)))
                .join(Match, col(Match.id) == col(Seat.match_id))
                .where(Seat.bot_id == bot_id, col(Seat.rank).is_not(None))
            ).group_by(Seat.seat).order_by(Seat.seat)
        ).all()
    return [SeatRecord(int(seat), games=int(games), firsts=int(firsts or 0), rank_total=int(ranks or 0), faults=int(faults or 0))
            for seat, games, firsts, ranks, faults in rows]
