"""Database access: engines for SQLite (default, no set-up) or PostgreSQL (by URL), migrations, sessions."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from ladder.settings import sqlite_url  # noqa: F401 - re-exported: db URLs are made here too

MIGRATIONS = Path(__file__).with_name("migrations")


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
        engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
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

    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    config = alembic_config(url)
    with get_engine(url).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current_revision(url: str) -> str | None:
    """The migration revision the database at `url` is at (None if never migrated)."""
    from alembic.runtime.migration import MigrationContext

    with get_engine(url).connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
