"""Registering bots (local commands, uploaded directories or archives, remote) and their secret tokens."""

from __future__ import annotations

import hashlib
import secrets
import shlex
import shutil
import tarfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ladder.archives import check_tree, unpack_archive
from ladder.db import read_session, write_session
from ladder.models import Bot, BotKind, BotStatus, BotToken, Notice, Rating
from ladder.ratings import INITIAL_RATING
from ladder.settings import LadderSettings
from referee.registry import get_game


class LadderError(ValueError):
    """A request the ladder refuses (unknown bot, duplicate name, bad archive...), with the reason."""


class NameTakenError(LadderError):
    """A bot registered without versions under a name the ladder has."""


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def add_bot(
    settings: LadderSettings,
    name: str,
    game: str,
    *,
    command: Sequence[str] | str | None = None,
    upload: str | Path | None = None,
    remote: bool = False,
    owner: str = "",
    version: str | None = None,
    sandbox: str | None = None,
    validate: bool = False,
    account_id: int | None = None,
    versioned: bool = False,
) -> Bot:
    """Register a bot for `game`: a command run as is, an upload (directory or archive) copied into
    the ladder's store and started with `command` inside it, or a remote bot (no command).

    Uploads run in the strict sandbox unless told otherwise (a strict sandbox the machine cannot
    provide is a startup fault, never a silent downgrade); local commands and remote bots in none
    (a remote bot's seat is played by the ladder's own relay).

    With `validate` (what the CLI and the API ask for), the bot waits in `validating` until it has
    played its validation games without a fault (ladder.validation); otherwise it is active at once.

    `versioned` (an account's submission, or the operator's `add-bot --version`): `name` is the bot's
    family; a first submission creates version 1 (or `version`), a later one the next version (or
    `version`), stored as `<name>@<version>` until it is admitted (ladder.versions). The family must
    belong to `account_id` and play `game`. Unversioned, `version` is only a label ("1" by default)."""
    get_game(game)  # UnknownGameError for a bad id
    if not name or len(name) > 100 or not all(c.isalnum() or c in "-_.+" for c in name):
        raise LadderError(f"bad bot name {name!r}: use letters, digits and - _ . + (at most 100)")
    if version is not None and (not version or len(version) > 64 or not all(c.isalnum() or c in "-_.+" for c in version)):
        raise LadderError(f"bad version {version!r}: use letters, digits and - _ . + (at most 64)")
    argv = shlex.split(command) if isinstance(command, str) else list(command or [])
    if remote and (argv or upload):
        raise LadderError("a remote bot has no command or upload: it dials the ladder itself")
    if not remote and not argv:
        raise LadderError(f"bot {name!r} needs a command (or --remote)")
    kind = BotKind.REMOTE if remote else BotKind.UPLOADED if upload else BotKind.COMMAND
    if sandbox is None:
        sandbox = "strict" if kind == BotKind.UPLOADED else "none"
    if sandbox not in ("none", "basic", "strict"):
        raise LadderError(f"sandbox must be none, basic or strict, not {sandbox!r}")
    if kind == BotKind.UPLOADED and sandbox == "basic":
        raise LadderError("an uploaded bot plays in the strict sandbox (or none): at basic its uid would need to "
                          "read the ladder's home, which holds other bots' files, seeds and secrets")
    status = BotStatus.VALIDATING if validate else BotStatus.ACTIVE
    fields = dict(owner=owner, game=game, kind=kind, command=argv, sandbox=sandbox, status=status, account_id=account_id)
    try:
        return _insert_bot(settings, name, version, versioned, upload, fields)
    except IntegrityError:
        # Another registration took the name between this one's check and its insert (PostgreSQL: both
        # transactions saw the name free). Checked again, it now sees that bot: a same-account submission
        # becomes the next version; any other gets the one-line refusal.
        return _insert_bot(settings, name, version, versioned, upload, fields)


def _insert_bot(
    settings: LadderSettings, name: str, version: str | None, versioned: bool, upload: str | Path | None,
    fields: dict[str, Any],
) -> Bot:
    """`add_bot`'s transaction: the name checked, the bot's row, its upload and its rating written together."""
    with write_session(settings.db_url) as session:
        stored_name, family = name, ""
        if versioned:
            from ladder.versions import next_version

            stored_name, label = next_version(session, name, fields["game"], fields["account_id"], version)
            family = name
        elif name_taken(session, name):
            raise NameTakenError(f"a bot named {name!r} already exists")
        else:
            label = version or "1"
        bot = Bot(name=stored_name, version=label, family=family, **fields)
        session.add(bot)
        session.flush()
        if family and bot.status == BotStatus.ACTIVE:
            from ladder.versions import promote

            promote(session, bot)  # admitted without validation: it takes the name in rated play now
        if upload is not None:
            target = settings.store_dir / f"{bot.id}-{name}"
            _copy_upload(Path(upload), target)
            bot.store_path = str(target)
            from ladder.botstore import store_directory

            bot.content_hash = store_directory(session, target)  # what workers on any machine unpack
        session.add(Rating(bot_id=bot.id, game=fields["game"], rating=INITIAL_RATING, games=0))
    return bot


def name_taken(session: Session, name: str) -> bool:
    """Whether a bot (of any version or owner) is stored under `name`."""
    return session.exec(select(Bot).where(Bot.name == name)).first() is not None


def _copy_upload(source: Path, target: Path) -> None:
    """Copy a bot directory, or unpack a .zip/.tar(.gz) archive safely (ladder.archives), into `target`;
    on a refusal nothing is kept."""
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)
        try:
            check_tree(target)  # the same rules as an archive's: no link out or to a directory
        except tarfile.TarError as error:
            shutil.rmtree(target, ignore_errors=True)
            raise LadderError(f"{source.name}: refused: {error}") from None
    elif source.is_file() and (zipfile.is_zipfile(source) or _looks_like_tar(source)):
        try:
            unpack_archive(source, target)
        except tarfile.TarError as error:
            raise LadderError(f"{source.name}: refused: {error}") from None
    else:
        raise LadderError(f"{source}: not a directory, .zip or .tar archive")


def _looks_like_tar(source: Path) -> bool:
    """A tar file, plain or compressed with gzip, bzip2 or xz (tarfile.is_tarfile would read a bomb whole)."""
    with source.open("rb") as file:
        head = file.read(512)
    return head.startswith((b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")) or (len(head) == 512 and head[257:262] == b"ustar") \
        or (len(head) == 512 and _tar_checksum_ok(head))


def _tar_checksum_ok(header: bytes) -> bool:
    """A v7 tar header: its stored checksum matches its bytes."""
    try:
        stored = int(header[148:156].replace(b"\x00", b" ").strip() or b"-1", 8)
    except ValueError:
        return False
    return stored == sum(header[:148]) + 8 * 32 + sum(header[156:])


def get_bot(settings: LadderSettings, name_or_id: str | int) -> Bot:
    """The bot with that name (or id); LadderError if there is none."""
    from ladder.queries import parse_id

    with read_session(settings.db_url) as session:
        if isinstance(name_or_id, int) or str(name_or_id).isdigit():
            key = parse_id(name_or_id)
            bot = session.get(Bot, key) if key is not None else None
        else:
            bot = session.exec(select(Bot).where(Bot.name == name_or_id)).first()
    if bot is None:
        raise LadderError(f"no bot {name_or_id!r}")
    return bot


def issue_token(settings: LadderSettings, bot_name: str) -> str:
    """A new secret token for a bot (shown once; only its hash is stored)."""
    bot = get_bot(settings, bot_name)
    token = f"b99_{secrets.token_urlsafe(32)}"
    with write_session(settings.db_url) as session:
        session.add(BotToken(bot_id=bot.id, token_hash=hash_token(token)))
    return token


def revoke_tokens(settings: LadderSettings, bot_name: str, token: str | None = None) -> int:
    """Revoke one token of a bot (`token`) or every live one; returns how many were revoked. A revoked
    token opens no new connection; a game already under way plays to its end."""
    bot = get_bot(settings, bot_name)
    with write_session(settings.db_url) as session:
        revoked = _revoke(session, bot.id or 0, hash_token(token) if token else None)
    if token and not revoked:
        raise LadderError(f"bot {bot.name!r} has no live token like that")
    return revoked


def rotate_token(settings: LadderSettings, bot_name: str) -> str:
    """Revoke every token of a bot and issue a new one, in one transaction (shown once)."""
    bot = get_bot(settings, bot_name)
    token = f"b99_{secrets.token_urlsafe(32)}"
    with write_session(settings.db_url) as session:
        _revoke(session, bot.id or 0, None)
        session.add(BotToken(bot_id=bot.id, token_hash=hash_token(token)))
    return token


def _revoke(session: Session, bot_id: int, token_hash: str | None) -> int:
    query = select(BotToken).where(BotToken.bot_id == bot_id, BotToken.revoked == False)  # noqa: E712
    if token_hash is not None:
        query = query.where(BotToken.token_hash == token_hash)
    rows = list(session.exec(query).all())
    for row in rows:
        row.revoked = True
        session.add(row)
    return len(rows)


def bot_for_token(settings: LadderSettings, token: str) -> Bot | None:
    """The bot a token belongs to, None if the token is unknown or revoked."""
    with read_session(settings.db_url) as session:
        row = session.exec(
            select(BotToken).where(BotToken.token_hash == hash_token(token), BotToken.revoked == False)  # noqa: E712
        ).first()
        return session.get(Bot, row.bot_id) if row else None


def set_status(settings: LadderSettings, bot_name: str, status: str, reason: str | None = None) -> Bot:
    """Pause, resume or retire a bot; a pause leaves its owner a notice with the reason."""
    if status not in (BotStatus.ACTIVE, BotStatus.PAUSED, BotStatus.RETIRED):
        raise LadderError(f"unknown status {status!r}")
    with write_session(settings.db_url) as session:
        bot = session.get(Bot, get_bot(settings, bot_name).id)
        if bot is None:
            raise LadderError(f"no bot {bot_name!r}")
        bot.status = status
        bot.paused_reason = reason if status == BotStatus.PAUSED else None
        if status == BotStatus.PAUSED and reason:
            session.add(Notice(bot_id=bot.id, message=f"{bot.name} was paused: {reason}"))
        session.add(bot)
    return bot


def list_bots(settings: LadderSettings, game: str | None = None) -> list[Bot]:
    """Every registered bot (of one game), by name."""
    with read_session(settings.db_url) as session:
        query = select(Bot).order_by(Bot.name)
        if game:
            query = query.where(Bot.game == game)
        return list(session.exec(query).all())


def notices(settings: LadderSettings, bot_name: str) -> list[Notice]:
    """Messages left for a bot's owner, newest first."""
    bot = get_bot(settings, bot_name)
    with read_session(settings.db_url) as session:
        return list(session.exec(select(Notice).where(Notice.bot_id == bot.id).order_by(Notice.id.desc())).all())  # type: ignore[union-attr]
