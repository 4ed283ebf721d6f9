"""Facts the service publishes in the database for workers on any machine: where the Arena
gateway for remote bots listens, and the secret that signs relay tickets."""

from __future__ import annotations

import secrets

from ladder.db import read_session, write_session
from ladder.models import ServiceInfo, utcnow
from ladder.settings import LadderSettings

GATEWAY = "gateway"
RELAY_SECRET = "relay_secret"


def publish(settings: LadderSettings, key: str, value: str) -> None:
    """Set `key` to `value`."""
    with write_session(settings.db_url) as session:
        row = session.get(ServiceInfo, key) or ServiceInfo(key=key, value=value)
        row.value, row.updated_at = value, utcnow()
        session.add(row)


def lookup(settings: LadderSettings, key: str) -> str | None:
    """The value published for `key`, None if there is none."""
    with read_session(settings.db_url) as session:
        row = session.get(ServiceInfo, key)
        return row.value if row is not None else None


SESSION_SECRET = "session_secret"


def named_secret(settings: LadderSettings, key: str) -> str:
    """The secret stored under `key` (created once, random); every process of the ladder reads the same."""
    with write_session(settings.db_url) as session:
        row = session.get(ServiceInfo, key)
        if row is None:
            row = ServiceInfo(key=key, value=secrets.token_urlsafe(32))
            session.add(row)
        return row.value


def relay_secret(settings: LadderSettings) -> str:
    """The secret of relay tickets (created once, random); workers read it from the database."""
    return named_secret(settings, RELAY_SECRET)
