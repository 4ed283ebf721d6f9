"""One scheduler per database: a lease row that the scheduling service renews while it runs.

A second `b99 ladder serve` on the same database finds the lease held and schedules nothing (it
serves the APIs and pages only); it takes the lease over when the holder stops (released), lets it
run out (a host gone), or is a process of its own host that no longer exists. A row in the
`serviceinfo` table, locked by the write transaction that takes or renews it, works on SQLite and
PostgreSQL alike (an advisory lock would be PostgreSQL's alone).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from ladder.db import read_session, write_session
from ladder.matches import local_process_gone
from ladder.models import ServiceInfo, utcnow
from ladder.settings import LadderSettings

#: The service-info key of the scheduler's lease.
LEASE_KEY = "scheduler"
#: How long a lease lasts without renewal: a scheduler on a lost host is replaced after this.
LEASE_SECONDS = 20.0
#: A held lease is renewed once it is older than this (not at every tick: one write every few seconds).
RENEW_SECONDS = 5.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LeaseHolder:
    """Who holds the scheduler's lease and when they last renewed it."""

    name: str  # host:pid:nonce
    renewed_at: datetime

    @property
    def host_and_pid(self) -> str:
        return ":".join(self.name.split(":")[:2])

    def expired(self, now: datetime) -> bool:
        return _aware(self.renewed_at) + timedelta(seconds=LEASE_SECONDS) <= now

    def is_dead_process(self) -> bool:
        """Whether the holder is a process of this host that no longer exists."""
        host, _, rest = self.name.partition(":")
        return local_process_gone(host, rest.split(":", 1)[0])


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes: they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def current_holder(settings: LadderSettings) -> LeaseHolder | None:
    """The lease's holder as stored (None if no scheduler ever ran or the last one released it)."""
    with read_session(settings.db_url) as session:
        row = session.get(ServiceInfo, LEASE_KEY)
        return LeaseHolder(row.value, row.updated_at) if row is not None and row.value else None


class SchedulerLease:
    """This process's claim to be the database's only scheduler."""

    def __init__(self, settings: LadderSettings) -> None:
        self.settings = settings
        self.name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.held_since: datetime | None = None
        self._renewed: datetime | None = None

    @property
    def held(self) -> bool:
        return self.held_since is not None

    def hold(self) -> bool:
        """Take the lease if it is free (never taken, released, expired, its holder dead) or renew it
        if ours; True while this process is the scheduler. Reads only, unless a write is due."""
        now = utcnow()
        if self._renewed is not None and now - self._renewed < timedelta(seconds=RENEW_SECONDS):
            return True
        holder = current_holder(self.settings)
        if holder is not None and holder.name != self.name and not holder.expired(now) and not holder.is_dead_process():
            self._lost()
            return False
        try:
            taken = self._take(now)
        except IntegrityError:  # another scheduler inserted the row at the same instant
            taken = False
        if taken:
            if self.held_since is None:
                self.held_since = now
                log.info("scheduler lease taken by %s", self.name)
            self._renewed = now
        else:
            self._lost()
        return taken

    def _take(self, now: datetime) -> bool:
        with write_session(self.settings.db_url) as session:
            row = session.exec(select(ServiceInfo).where(ServiceInfo.key == LEASE_KEY).with_for_update()).first()
            if row is None:
                session.add(ServiceInfo(key=LEASE_KEY, value=self.name, updated_at=now))
                return True
            if row.value and row.value != self.name:
                holder = LeaseHolder(row.value, row.updated_at)
                if not holder.expired(now) and not holder.is_dead_process():
                    return False
                log.warning("scheduler lease of %s taken over by %s (%s)", row.value, self.name,
                            "its process is gone" if holder.is_dead_process() else "it was not renewed")
            row.value = self.name
            row.updated_at = now
            session.add(row)
            return True

    def _lost(self) -> None:
        if self.held_since is not None:
            log.warning("scheduler lease lost by %s: another scheduler took it", self.name)
        self.held_since = None
        self._renewed = None

    def release(self) -> None:
        """Give the lease up (on a clean stop), so that a standby takes over at once."""
        if self.held_since is None:
            return
        with write_session(self.settings.db_url) as session:
            row = session.exec(select(ServiceInfo).where(ServiceInfo.key == LEASE_KEY).with_for_update()).first()
            if row is not None and row.value == self.name:
                row.value = ""
                row.updated_at = utcnow()
                session.add(row)
        self.held_since = None
        self._renewed = None


__all__ = ["LEASE_SECONDS", "LeaseHolder", "SchedulerLease", "current_holder"]
