"""Web sessions of account owners: signing in with an API key gives a session cookie (HttpOnly,
SameSite=Strict, Secure over HTTPS) that names the account and the key, signed by the ladder. The
key itself never travels again, and never in a URL; revoking the key ends its sessions.

The ladder's admin token signs in too (a session for every bot's owner page)."""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

from sqlmodel import select

from ladder.accounts import account_for_key
from ladder.db import read_session
from ladder.models import Account, AccountStatus, ApiKey
from ladder.registry import hash_token
from ladder.service_info import SESSION_SECRET, named_secret
from ladder.settings import LadderSettings

COOKIE = "b99_session"
#: How long a session lasts.
SESSION_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class WebSession:
    """Who a request's cookie names: an account (by its key) or the admin (account_id 0)."""

    account_id: int
    key_id: int
    name: str

    @property
    def admin(self) -> bool:
        return self.account_id == 0


def _sign(settings: LadderSettings, text: str) -> str:
    return hmac.new(named_secret(settings, SESSION_SECRET).encode(), text.encode(), hashlib.sha256).hexdigest()


def sign_in(settings: LadderSettings, secret: str) -> str | None:
    """The cookie value for an API key or the admin token, None if it is neither (or suspended)."""
    expires = int(time.time()) + SESSION_SECONDS
    if hmac.compare_digest(secret.encode(), settings.admin_token().encode()):
        body = f"0.0.{expires}"
        return f"{body}.{_sign(settings, body)}"
    account = account_for_key(settings, secret)
    if account is None or account.status == AccountStatus.SUSPENDED:
        return None
    with read_session(settings.db_url) as session:
        key = session.exec(select(ApiKey).where(ApiKey.key_hash == hash_token(secret))).first()
    if key is None:
        return None
    body = f"{account.id}.{key.id}.{expires}"
    return f"{body}.{_sign(settings, body)}"


def session_of(settings: LadderSettings, cookie: str | None) -> WebSession | None:
    """The session a cookie proves: signed by this ladder, not expired, its key still live."""
    if not cookie or cookie.count(".") != 3:
        return None
    body, signature = cookie.rsplit(".", 1)
    if not hmac.compare_digest(signature, _sign(settings, body)):
        return None
    account_text, key_text, expires_text = body.split(".")
    if not (account_text.isdigit() and key_text.isdigit() and expires_text.isdigit()) or int(expires_text) < time.time():
        return None
    if account_text == "0":
        return WebSession(0, 0, "admin")
    with read_session(settings.db_url) as session:
        key = session.get(ApiKey, int(key_text))
        account = session.get(Account, int(account_text))
    if key is None or key.revoked or account is None or key.account_id != account.id or account.status == AccountStatus.SUSPENDED:
        return None
    return WebSession(account.id or 0, key.id or 0, account.name)


def form_token(settings: LadderSettings, cookie: str) -> str:
    """The token every form of a session carries, so another site cannot post for it."""
    return _sign(settings, f"form:{cookie}")
