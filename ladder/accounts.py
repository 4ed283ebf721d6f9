"""Accounts and their API keys: opening an account (by invitation or openly, as the operator
chose), keys listed, issued, rotated and revoked by their owner, accounts suspended by the operator.

Keys and invitation codes are 256 random bits shown once; only their SHA-256 is stored."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import col, select

from ladder.db import read_session, write_session
from ladder.ladder_config import load_config
from ladder.models import SUSPENSION_PAUSE, Account, AccountStatus, ApiKey, Bot, BotStatus, Invite, Notice
from ladder.registry import LadderError, hash_token
from ladder.settings import LadderSettings

#: What every API key starts with, so a key pasted in the wrong place is recognised.
KEY_PREFIX = "b99k_"
INVITE_PREFIX = "b99i_"


class AccountError(LadderError):
    """An account request the ladder refuses (bad invitation, name taken, suspended...)."""


@dataclass(frozen=True)
class KeyInfo:
    """One API key as its owner sees it (never the key itself)."""

    id: int
    hint: str
    label: str
    created_at: datetime
    revoked: bool


def valid_name(name: str) -> str:
    """The account name, or AccountError saying what a name may hold."""
    if not name or len(name) > 100 or not all(c.isalnum() or c in "-_." for c in name):
        raise AccountError(f"bad account name {name!r}: use letters, digits and - _ . (at most 100)")
    return name


def create_invite(settings: LadderSettings, uses: int = 1) -> str:
    """A new invitation code good for `uses` accounts (shown once)."""
    if uses < 1:
        raise AccountError(f"an invitation opens at least one account, not {uses}")
    code = INVITE_PREFIX + secrets.token_urlsafe(24)
    with write_session(settings.db_url) as session:
        session.add(Invite(code_hash=hash_token(code), uses_left=uses))
    return code


def _new_key(account_id: int, label: str) -> tuple[ApiKey, str]:
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    return ApiKey(account_id=account_id, key_hash=hash_token(key), hint=key[-4:], label=label[:100]), key


def register(settings: LadderSettings, name: str, invite: str | None = None) -> tuple[Account, str]:
    """Open an account named `name`; returns it with its first API key (shown once). On an
    invitation-only ladder `invite` must be a code with uses left; it loses one."""
    valid_name(name)
    config = load_config(settings.home)
    with write_session(settings.db_url) as session:
        if session.exec(select(Account).where(Account.name == name)).first() is not None:
            raise AccountError(f"an account named {name!r} already exists")
        if config.registration == "invite" or invite:
            if not invite:
                raise AccountError("this ladder opens accounts by invitation only: ask its operator for a code (--invite)")
            row = session.exec(select(Invite).where(Invite.code_hash == hash_token(invite))).first()
            if row is None or row.uses_left < 1:
                raise AccountError("unknown or used-up invitation code")
            row.uses_left -= 1
            session.add(row)
        account = Account(name=name)
        session.add(account)
        session.flush()
        key_row, key = _new_key(account.id or 0, "first key")
        session.add(key_row)
    return account, key


def account_for_key(settings: LadderSettings, key: str) -> Account | None:
    """The account a live API key belongs to (suspended or not), None for an unknown or revoked key."""
    if not key.startswith(KEY_PREFIX):
        return None
    with read_session(settings.db_url) as session:
        row = session.exec(select(ApiKey).where(ApiKey.key_hash == hash_token(key), ApiKey.revoked == False)).first()  # noqa: E712
        return session.get(Account, row.account_id) if row else None


def get_account(settings: LadderSettings, name: str) -> Account:
    """The account named `name`; AccountError if there is none."""
    with read_session(settings.db_url) as session:
        account = session.exec(select(Account).where(Account.name == name)).first()
    if account is None:
        raise AccountError(f"no account {name!r}")
    return account


def list_keys(settings: LadderSettings, account_id: int) -> list[KeyInfo]:
    """An account's keys, oldest first, revoked ones too."""
    with read_session(settings.db_url) as session:
        rows = session.exec(select(ApiKey).where(ApiKey.account_id == account_id).order_by(col(ApiKey.id))).all()
        return [KeyInfo(row.id or 0, row.hint, row.label, row.created_at, row.revoked) for row in rows]


def create_key(settings: LadderSettings, account_id: int, label: str = "") -> str:
    """A further key for an account (shown once)."""
    with write_session(settings.db_url) as session:
        row, key = _new_key(account_id, label)
        session.add(row)
    return key


def revoke_key(settings: LadderSettings, account_id: int, key_id: int) -> None:
    """Revoke one of the account's own keys; AccountError for another account's or an unknown one."""
    with write_session(settings.db_url) as session:
        row = session.get(ApiKey, key_id)
        if row is None or row.account_id != account_id:
            raise AccountError(f"you have no key #{key_id}")
        row.revoked = True
        session.add(row)


def rotate_key(settings: LadderSettings, account_id: int, key: str) -> str:
    """Revoke `key` and issue its replacement (same label) in one transaction; returns the new key."""
    with write_session(settings.db_url) as session:
        row = session.exec(select(ApiKey).where(ApiKey.key_hash == hash_token(key))).first()
        if row is None or row.account_id != account_id or row.revoked:
            raise AccountError("that key is not one of your live keys")
        row.revoked = True
        session.add(row)
        new_row, new_key = _new_key(account_id, row.label)
        session.add(new_row)
    return new_key


@dataclass(frozen=True)
class SuspensionChange:
    """What suspending an account, or lifting its suspension, changed."""

    account: Account
    #: the bots it paused (suspended) or put back in rated play (lifted), by name
    bots: list[str]
    #: the account's open challenges it cancelled
    challenges: int


def set_suspended(settings: LadderSettings, name: str, suspended: bool, reason: str = "") -> SuspensionChange:
    """Suspend an account, or lift its suspension, in one transaction.

    Suspended, its keys stop working for anything but reading, its active bots are paused (they leave
    rated play; games under way finish) and the challenges it asked for are cancelled. Lifted, the
    bots its suspension paused play again; a bot the operator paused for another reason stays paused."""
    from ladder.challenges import cancel_account_challenges

    with write_session(settings.db_url) as session:
        account = session.exec(select(Account).where(Account.name == name)).first()
        if account is None:
            raise AccountError(f"no account {name!r}")
        account.status = AccountStatus.SUSPENDED if suspended else AccountStatus.ACTIVE
        account.suspended_reason = (reason or "suspended by the operator")[:2000] if suspended else None
        session.add(account)
        changed: list[str] = []
        cancelled = 0
        bots = session.exec(select(Bot).where(Bot.account_id == account.id).order_by(col(Bot.id))).all()
        for bot in bots:
            if suspended and bot.status == BotStatus.ACTIVE:
                bot.status = BotStatus.PAUSED
                bot.paused_reason = (SUSPENSION_PAUSE + (account.suspended_reason or ""))[:2000]
                session.add(Notice(bot_id=bot.id or 0, message=f"{bot.name} was paused: {bot.paused_reason}"))
            elif not suspended and bot.status == BotStatus.PAUSED and (bot.paused_reason or "").startswith(SUSPENSION_PAUSE):
                bot.status = BotStatus.ACTIVE
                bot.paused_reason = None
                session.add(Notice(bot_id=bot.id or 0, message=f"{bot.name} plays rated matches again: its account's suspension was lifted"))
            else:
                continue
            session.add(bot)
            changed.append(bot.name)
        if suspended and account.id is not None:
            cancelled = cancel_account_challenges(session, account.id, "challenge cancelled: its account was suspended")
    return SuspensionChange(account, changed, cancelled)


def list_accounts(settings: LadderSettings) -> list[Account]:
    """Every account, by name."""
    with read_session(settings.db_url) as session:
        return list(session.exec(select(Account).order_by(Account.name)).all())
