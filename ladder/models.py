"""The ladder's tables (sqlmodel): bots, their tokens and ratings, matches and their seats, notices."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    """The current time, in UTC."""
    return datetime.now(timezone.utc)


class BotKind:
    """How a bot runs: a command on the ladder's machine, an uploaded copy in the store, or remote."""

    COMMAND = "command"
    UPLOADED = "uploaded"
    REMOTE = "remote"
    ALL = (COMMAND, UPLOADED, REMOTE)


class BotStatus:
    """Whether the matchmaker may pick a bot."""

    ACTIVE = "active"
    PAUSED = "paused"  # too many faults; its owner got a notice saying why
    RETIRED = "retired"
    VALIDATING = "validating"  # new: plays unrated validation games before rated play
    REJECTED = "rejected"  # faulted in its validation games; its owner got a notice per fault
    REFERENCE = "reference"  # the ladder's own opponent for validation games; never rated or listed
    #: Statuses listed apart from the ranked table.
    UNRANKED = (PAUSED, VALIDATING, REJECTED)


class MatchKind:
    """Why a match is played: for the ratings, to admit a new bot, or at an owner's request."""

    RATED = "rated"
    VALIDATION = "validation"  # unrated: a new bot against reference bots
    CHALLENGE = "challenge"  # unrated: games an owner asked for
    VALIDATION_SUPERSEDED = "validation-old"  # validation games before the bot was sent to validation again


class MatchStatus:
    """A match's life: queued -> running -> done, or void (the platform failed it too often)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    VOID = "void"
    OPEN = (QUEUED, RUNNING)


class Bot(SQLModel, table=True):
    """A registered bot: one game, one version; a new version is a new bot."""

    __table_args__ = (UniqueConstraint("name", name="uq_bot_name"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, max_length=100)
    owner: str = Field(default="", max_length=200)
    game: str = Field(index=True, max_length=64)
    version: str = Field(default="1", max_length=64)
    kind: str = Field(default=BotKind.COMMAND, max_length=16)
    command: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    store_path: str | None = Field(default=None, max_length=1000)  # uploaded copy, the process's cwd
    content_hash: str | None = Field(default=None, max_length=64)  # SHA-256 of the upload's BotBlob
    sandbox: str = Field(default="none", max_length=16)
    status: str = Field(default=BotStatus.ACTIVE, index=True, max_length=16)
    paused_reason: str | None = Field(default=None, max_length=2000)
    created_at: datetime = Field(default_factory=utcnow)
    validated_at: datetime | None = None  # when it passed its validation games
    #: The account that submitted it (None: registered by the operator).
    account_id: int | None = Field(default=None, foreign_key="account.id", index=True)
    #: The bot's public name, shared by all its versions; the version in rated play carries it as
    #: its `name`, the others are `<family>@<version>` (ladder.versions). Empty: an unversioned bot.
    family: str = Field(default="", index=True, max_length=100)


class BotToken(SQLModel, table=True):
    """A remote bot's secret, stored as its SHA-256 (tokens are 256 random bits, so no salt or stretching)."""

    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bot.id", index=True)
    token_hash: str = Field(unique=True, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    revoked: bool = Field(default=False)


class Rating(SQLModel, table=True):
    """A bot's current Elo rating in its game (a float, never an elo object)."""

    bot_id: int = Field(foreign_key="bot.id", primary_key=True)
    game: str = Field(index=True, max_length=64)
    rating: float
    games: int = Field(default=0)
    updated_at: datetime = Field(default_factory=utcnow)


class GameCounter(SQLModel, table=True):
    """Per game, the rating sequence number of the last rated match (its row is the rating lock)."""

    game: str = Field(primary_key=True, max_length=64)
    rating_seq: int = Field(default=0)


class Match(SQLModel, table=True):
    """One match: scheduled (queued), claimed by a worker (running), then done or void."""

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(unique=True, max_length=64)  # the referee's match id
    game: str = Field(index=True, max_length=64)
    config: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(default=MatchStatus.QUEUED, index=True, max_length=16)
    attempts: int = Field(default=0)  # claims so far; only the latest claim may write a result
    worker: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow)
    dispatched_at: datetime | None = None
    started_at: datetime | None = None
    heartbeat_at: datetime | None = None
    finished_at: datetime | None = None
    replay_path: str | None = Field(default=None, max_length=1000)
    decisions: int | None = None
    duration_seconds: float | None = None
    void_reason: str | None = Field(default=None, max_length=2000)
    rating_seq: int | None = Field(default=None, index=True)  # order in which ratings were applied
    # Liveness: an open match always has a lease. Queued and dispatched: the executor must claim it
    # before the lease ends; running: the attempt must renew it by heartbeat. The reconciler sends
    # again whatever outlives its lease.
    lease_expires_at: datetime | None = Field(default=None, index=True)
    dispatches: int = Field(default=0)  # times sent to an executor; more than one: a dispatch was lost
    result_attempt: int | None = None  # the attempt whose result was recorded (idempotent retries)
    kind: str = Field(default=MatchKind.RATED, index=True, max_length=16)
    #: Why a finished rated-kind match changed no rating (decided only by faults), None if it did.
    unrated_reason: str | None = Field(default=None, max_length=2000)
    challenge_id: int | None = Field(default=None, foreign_key="challenge.id", index=True)


class Seat(SQLModel, table=True):
    """One seat of a match: who sat there and, once done, how it went."""

    __table_args__ = (UniqueConstraint("match_id", "seat", name="uq_seat_match_seat"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    seat: int
    bot_id: int = Field(foreign_key="bot.id", index=True)
    rank: int | None = None
    score: float | None = None
    faults: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    replaced: bool = Field(default=False)
    rating_before: float | None = None
    rating_after: float | None = None
    exit_code: int | None = None
    stderr_tail: str = Field(default="", max_length=4000)  # the bot's last stderr lines, for its owner


class Notice(SQLModel, table=True):
    """A message to a bot's owner (why it was paused, for example)."""

    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bot.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)
    message: str = Field(max_length=4000)


class Worker(SQLModel, table=True):
    """A process that plays matches (a Celery worker or a local match process), as last seen."""

    name: str = Field(primary_key=True, max_length=200)  # host:pid
    kind: str = Field(default="local", max_length=16)  # local | celery
    host: str = Field(default="", max_length=200)
    started_at: datetime = Field(default_factory=utcnow)
    heartbeat_at: datetime = Field(default_factory=utcnow, index=True)
    match_id: int | None = None  # the match it is playing, None when idle
    matches_done: int = Field(default=0)


class ReplayBlob(SQLModel, table=True):
    """A finished match's replay, compressed, written in the transaction that records its result."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    attempt: int
    codec: str = Field(default="zlib", max_length=16)
    size: int  # uncompressed bytes
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class SeatOutput(SQLModel, table=True):
    """What a seat's bot wrote (stdout, stderr) at each of its decisions, compressed JSON lines
    {"decision": n, "text": ...}: its owner's alone, kept apart from the public replay."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    seat: int = Field(primary_key=True)
    size: int  # uncompressed bytes
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class LiveChunk(SQLModel, table=True):
    """The next lines of a running attempt's replay, written by a worker on any machine so that the
    service's live page can follow the match; deleted when the match closes."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    attempt: int = Field(primary_key=True)
    seq: int = Field(primary_key=True)  # 1, 2, ... in the order the lines were written
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class BotBlob(SQLModel, table=True):
    """An uploaded bot's files as a gzipped tar, by content hash: any worker can unpack it."""

    content_hash: str = Field(primary_key=True, max_length=64)
    size: int
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class ChangeCounter(SQLModel, table=True):
    """How often a kind of row the scheduler keeps in memory changed: `bots` is moved by the database itself
    (triggers on every insert, update or delete of a bot, whoever makes it), `ratings` by a recompute that
    rewrites them. The scheduler reads its copy again when a count moved (ladder.scheduler_memory)."""

    name: str = Field(primary_key=True, max_length=32)
    value: int = Field(default=0)


class ServiceInfo(SQLModel, table=True):
    """Facts the service publishes for its workers (the gateway's address, the relay secret)."""

    key: str = Field(primary_key=True, max_length=64)
    value: str = Field(max_length=2000)
    updated_at: datetime = Field(default_factory=utcnow)


class AccountStatus:
    """Whether an account may act: active, or suspended by the operator."""

    ACTIVE = "active"
    SUSPENDED = "suspended"


#: What a bot paused by its account's suspension has as its paused reason, before the operator's reason:
#: lifting the suspension resumes these bots, and only these (one the operator paused stays paused).
SUSPENSION_PAUSE = "account suspended: "


class Account(SQLModel, table=True):
    """A person who submits bots to the ladder; authenticated by one of its API keys."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, max_length=100)
    status: str = Field(default=AccountStatus.ACTIVE, max_length=16)
    suspended_reason: str | None = Field(default=None, max_length=2000)
    created_at: datetime = Field(default_factory=utcnow)


class ApiKey(SQLModel, table=True):
    """An account's API key, stored as its SHA-256 (256 random bits: no salt or stretching needed)."""

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    key_hash: str = Field(unique=True, max_length=64)
    hint: str = Field(default="", max_length=16)  # the key's last characters, to tell keys apart in a list
    label: str = Field(default="", max_length=100)
    created_at: datetime = Field(default_factory=utcnow)
    revoked: bool = Field(default=False)


class Invite(SQLModel, table=True):
    """An invitation code (stored as its SHA-256) that opens `uses_left` more accounts."""

    id: int | None = Field(default=None, primary_key=True)
    code_hash: str = Field(unique=True, max_length=64)
    uses_left: int
    created_at: datetime = Field(default_factory=utcnow)


class Challenge(SQLModel, table=True):
    """An owner's request for unrated games between their bot and another bot of the same game."""

    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bot.id", index=True)  # the requester's bot
    opponent_id: int = Field(foreign_key="bot.id")
    games: int
    requested_by: str = Field(default="", max_length=200)
    created_at: datetime = Field(default_factory=utcnow)
    account_id: int | None = Field(default=None, foreign_key="account.id", index=True)  # who asked, if an account did
    cancelled: bool = Field(default=False)  # its owner cancelled it: its queued games were dropped
    seed: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))  # its games' seeds, if asked
