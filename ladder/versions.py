"""A bot's versions: an account's bot is a family of Bot rows, one per version. The version in
rated play carries the family's name; the others are named `<family>@<version>`, so every match,
replay and rating stays with the version that played it.

A new version plays its validation games while the current one keeps playing rated matches; only
when it is admitted (ladder.validation) does it take the family's name and the current one retire.
Its rating starts afresh at the initial rating, as any new bot's: a new version is a different
program, and a rating carried over would make the ratings differ from a recomputation of the
history (`b99 ladder recompute --check`). A rollback brings back an earlier admitted version with
its own rating and games."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from ladder.db import read_session, write_session
from ladder.models import Bot, BotStatus, Rating
from ladder.registry import LadderError, name_taken
from ladder.settings import LadderSettings


class UnknownVersionError(LadderError):
    """The account has no bot of that name, or the bot no such version."""


@dataclass
class VersionInfo:
    """One version of a family, as its owner sees it."""

    bot_id: int
    name: str
    version: str
    status: str
    reason: str
    rating: float
    games: int
    current: bool  # the version in rated play (or the newest, if none is)


@dataclass
class FamilyInfo:
    """One of an account's bots with all its versions, newest first."""

    name: str
    game: str
    kind: str
    versions: list[VersionInfo] = field(default_factory=list)

    @property
    def current(self) -> VersionInfo | None:
        return next((version for version in self.versions if version.current), None)


def versioned_name(family: str, version: str) -> str:
    """The name of a version that is not in rated play."""
    return f"{family}@{version}"


def _family_rows(session: Session, family: str, lock: bool = False) -> list[Bot]:
    """The rows of a family, oldest version first, read afresh. With `lock`, the family's first row
    is locked until the transaction ends (SELECT ... FOR UPDATE on PostgreSQL; an SQLite write
    transaction holds the whole database already): every change of a family's names takes that one
    lock, so two versions admitted at once are switched one after the other, and a validation that
    holds its own bot's row lock never waits for another version's."""
    if lock:
        first = select(Bot.id).where(Bot.family == family).order_by(col(Bot.id)).limit(1).scalar_subquery()
        session.exec(select(Bot).where(Bot.id == first).with_for_update().execution_options(populate_existing=True)).first()
    query = select(Bot).where(Bot.family == family).order_by(col(Bot.id)).execution_options(populate_existing=True)
    return list(session.exec(query).all())


def next_version(
    session: Session, family: str, game: str, account_id: int | None, wanted: str | None = None
) -> tuple[str, str]:
    """(stored name, version) of a new version of `family`, inside the registering transaction;
    LadderError if the name belongs to another account, another game or an operator's bot.

    `wanted`: the version the operator names (`b99 ladder add-bot NAME --version N`), refused where the
    family has it already; otherwise the next number. For the operator (no account), a bot of that
    name registered without versions becomes the family's first version."""
    rows = _family_rows(session, family, lock=True)
    if not rows:
        first = _operator_bot(session, family) if account_id is None else None
        if first is None:
            if name_taken(session, family):
                raise LadderError(f"the name {family!r} is taken on this ladder")
            return family, wanted or "1"
        rows = [first]
    if rows[0].account_id != account_id:
        raise LadderError(f"the name {family!r} belongs to another account")
    if rows[0].game != game:
        raise LadderError(f"{family} plays {rows[0].game}, not {game}: a new game needs a new name")
    if wanted is not None:
        if any(row.version == wanted for row in rows):
            raise LadderError(f"{family} has a version {wanted} already")
        version = wanted
    else:
        version = str(max((int(row.version) for row in rows if row.version.isdigit()), default=0) + 1)
    taken = any(row.name == family for row in rows)
    return (versioned_name(family, version) if taken else family), version


def _operator_bot(session: Session, name: str) -> Bot | None:
    """The operator's bot named `name` that has no family yet, made the first row of its own family
    (locked until the transaction ends); None if there is none (a reference bot never gets versions)."""
    bot = session.exec(
        select(Bot).where(Bot.name == name, Bot.family == "").with_for_update().execution_options(populate_existing=True)
    ).first()
    if bot is None or bot.account_id is not None or bot.status == BotStatus.REFERENCE:
        return None
    bot.family = name
    session.add(bot)
    session.flush()
    return bot


def promote(session: Session, bot: Bot) -> None:
    """Put `bot` (an admitted or rolled-back version) in rated play, inside the caller's transaction:
    it takes the family's name, and the version that held it retires. The family's rows are locked
    first, so two versions admitted at once are switched one after the other."""
    if not bot.family:
        return
    for row in _family_rows(session, bot.family, lock=True):
        if row.id != bot.id and row.name == bot.family:
            row.name = versioned_name(bot.family, row.version)
            if row.status in (BotStatus.ACTIVE, BotStatus.PAUSED):
                row.status = BotStatus.RETIRED
                row.paused_reason = f"replaced by version {bot.version}"
            session.add(row)
            session.flush()  # the name is free before `bot` takes it
    if bot.name != bot.family:
        bot.name = bot.family
        session.add(bot)
        session.flush()


def _owned_family(session: Session, family: str, account_id: int) -> list[Bot]:
    rows = _family_rows(session, family, lock=True)
    if not rows or rows[0].account_id != account_id:
        raise UnknownVersionError(f"you have no bot named {family!r}")
    return rows


def retire(settings: LadderSettings, account_id: int, family: str) -> None:
    """Take every version of an account's bot out of play (its history stays)."""
    with write_session(settings.db_url) as session:
        for row in _owned_family(session, family, account_id):
            if row.status in (BotStatus.ACTIVE, BotStatus.PAUSED, BotStatus.VALIDATING):
                row.status = BotStatus.RETIRED
                row.paused_reason = "retired by its owner"
                session.add(row)


def rollback(settings: LadderSettings, account_id: int, family: str, version: str) -> Bot:
    """Put an earlier admitted version back in rated play, with its own rating and games."""
    with write_session(settings.db_url) as session:
        rows = _owned_family(session, family, account_id)
        target = next((row for row in rows if row.version == version), None)
        if target is None:
            raise UnknownVersionError(f"{family} has no version {version!r}")
        if target.validated_at is None:
            raise LadderError(f"{family} version {version} was never admitted: submit it again to validate it")
        promote(session, target)
        target.status = BotStatus.ACTIVE
        target.paused_reason = None
        session.add(target)
        return target


def families(settings: LadderSettings, account_id: int) -> list[FamilyInfo]:
    """An account's bots, each with its versions (newest first) and their ratings."""
    with read_session(settings.db_url) as session:
        rows = session.exec(
            select(Bot, Rating).join(Rating, col(Rating.bot_id) == col(Bot.id), isouter=True)
            .where(Bot.account_id == account_id).order_by(col(Bot.id).desc())
        ).all()
    found: dict[str, FamilyInfo] = {}
    for bot, rating in rows:
        family = bot.family or bot.name
        info = found.setdefault(family, FamilyInfo(family, bot.game, bot.kind))
        info.versions.append(VersionInfo(
            bot.id or 0, bot.name, bot.version, bot.status, bot.paused_reason or "",
            rating.rating if rating else 0.0, rating.games if rating else 0, bot.name == family,
        ))
    for info in found.values():
        if info.versions and not any(version.current for version in info.versions):
            info.versions[0].current = True
    return sorted(found.values(), key=lambda info: info.name)
