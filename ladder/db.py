"""Database access: engines for SQLite (default, no set-up) or PostgreSQL (by URL), migrations, sessions."""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import TypeVar

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, create_engine

from ladder.settings import sqlite_url  # noqa: F401 - re-exported: db URLs are made here too

MIGRATIONS = Path(__file__).with_name("migrations")

log = logging.getLogger(__name__)
T = TypeVar("T")


class DatabaseUnavailable(RuntimeError):
    """The database did not answer within the time allowed (it is down or unreachable)."""


def is_unavailable(error: BaseException) -> bool:
    """Whether `error` means the database is away (connection refused, dropped, shut down), so the
    same call may succeed later, as opposed to a bug or a constraint the call will always break."""
    if isinstance(error, (OperationalError, InterfaceError)):
        return True
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


def retrying(call: Callable[[], T], within: float, what: str, first_delay: float = 0.1) -> T:
    """`call()`, tried again with growing pauses while the database is away, for up to `within`
    seconds; then DatabaseUnavailable. Each try is a whole transaction, so a retry never half-repeats."""
    deadline = time.monotonic() + within
    delay = first_delay
    while True:
        try:
            return call()
        except Exception as error:  # noqa: BLE001 - only outages are retried, everything else is raised
            if not is_unavailable(error):
                raise
            if time.monotonic() + delay > deadline:
                raise DatabaseUnavailable(f"{what}: the database is unavailable: {type(error).__name__}") from error
            log.warning("%s: the database is unavailable, trying again in %.1f s", what, delay)
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


def normalize_url(url: str) -> str:
    """Use psycopg 3 for postgresql:// URLs (SQLAlchemy's default driver is psycopg2)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


@cache
def get_engine(url: str) -> Engine:
    """One engine per URL and process. SQLite runs in WAL mode with IMMEDIATE write transactions."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False})
        _configure_sqlite(engine)
    else:
        # A process frozen inside a transaction (SIGSTOP, a swapped-out host) would hold its row locks for
        # good and stall every other worker and the reconciler: PostgreSQL ends such a session instead.
        idle_ms = int(float(os.environ.get("B99_LADDER_IDLE_TRANSACTION_SECONDS", "15")) * 1000)
        engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                               connect_args={"options": f"-c idle_in_transaction_session_timeout={idle_ms}"})
    return engine


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection) -> None:  # type: ignore[no-untyped-def]
        # A write transaction takes the write lock up front, so two writers never read the same
        # rating and both write it back (SQLite has no SELECT ... FOR UPDATE).
        immediate = connection.get_execution_options().get("immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def is_postgres(engine: Engine) -> bool:
    """Whether `engine` talks to PostgreSQL."""
    return engine.dialect.name == "postgresql"


@contextlib.contextmanager
def read_session(url: str) -> Iterator[Session]:
    """A session for reading (and small writes that cannot conflict)."""
    with Session(get_engine(url), expire_on_commit=False) as session:
        yield session


@contextlib.contextmanager
def write_session(url: str) -> Iterator[Session]:
    """A session whose transaction is serialised against other writers; commits on success."""
    engine = get_engine(url)
    bind = engine.execution_options(immediate=True) if engine.dialect.name == "sqlite" else engine
    with Session(bind, expire_on_commit=False) as session:
        yield session
        session.commit()


@contextlib.contextmanager
def write_connection(url: str) -> Iterator[Connection]:
    """A Core connection in a write transaction (serialised as write_session's), without an ORM session;
    commits on success."""
    engine = get_engine(url)
    bind = engine.execution_options(immediate=True) if engine.dialect.name == "sqlite" else engine
    with bind.begin() as connection:
        yield connection


def alembic_config(url: str):  # type: ignore[no-untyped-def]
    """An alembic Config for the ladder's migrations on `url` (no alembic.ini needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


def migrate(url: str, revision: str = "head") -> None:
    """Bring the database at `url` to `revision` (creating the SQLite file if needed)."""
    from alembic import command

    database = Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None
    if database is not None:
        database.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not database.exists():
            os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))  # the owner's alone from the start
    config = alembic_config(url)
    with get_engine(url).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current_revision(url: str) -> str | None:
    """The migration revision the database at `url` is at (None if never migrated)."""
    from alembic.runtime.migration import MigrationContext

    with get_engine(url).connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    """The newest migration revision this code knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    if head is None:
        raise RuntimeError("the ladder has no migrations")
    return head
