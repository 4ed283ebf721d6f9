"""Fixtures for the ladder's tests: a migrated SQLite ladder, a throwaway PostgreSQL cluster, Redis.

PostgreSQL: initdb/pg_ctl are found on PATH or under /usr/lib/postgresql/*/bin (Debian's
`postgresql` package), or in $B99_PG_BIN. The cluster listens on a Unix socket only, and is run as
the `postgres` user when the tests run as root. Redis: `redis-server` on PATH (Debian's
`redis-server` package), bound to 127.0.0.1 on a free port. Tests that need one skip when it is absent.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ladder.db import migrate, sqlite_url
from ladder.settings import LadderSettings

GAME = "underground_dice"


def pg_bin(name: str) -> str | None:
    """Path of a PostgreSQL server program, None if PostgreSQL is not installed."""
    if os.environ.get("B99_PG_BIN"):
        candidate = Path(os.environ["B99_PG_BIN"]) / name
        return str(candidate) if candidate.exists() else None
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _runuser() -> str:
    """util-linux's runuser, which lives in /usr/sbin: a plain user's PATH often lacks it."""
    found = shutil.which("runuser") or next((path for path in ("/usr/sbin/runuser", "/sbin/runuser") if os.path.exists(path)), None)
    if found is None:
        pytest.skip("runuser (util-linux) is needed to run PostgreSQL as the postgres user")
    return found


def _as_postgres(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return [_runuser(), "-u", "postgres", "--", *argv]


class PostgresCluster:
    """A throwaway cluster in a temporary directory, reachable only through its Unix socket."""

    def __init__(self) -> None:
        initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            pytest.skip("PostgreSQL is not installed (Debian package: postgresql)")
        self.pg_ctl = pg_ctl
        self.root = Path(tempfile.mkdtemp(prefix="b99-pg-"))
        self.data, self.socket_dir = self.root / "data", self.root / "socket"
        self.socket_dir.mkdir()
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("no postgres user to run PostgreSQL as")
            for path in (self.root, self.socket_dir):
                os.chown(path, user.pw_uid, user.pw_gid)
        subprocess.run(
            _as_postgres([initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]),
            check=True, capture_output=True,
        )
        self.options = f"-c listen_addresses='' -c unix_socket_directories={self.socket_dir} -c fsync=off -c max_connections=200"
        self.resume()
        self.databases = 0

    def halt(self) -> None:
        """Stop the server as an operator would (`pg_ctl stop -m fast`): clients are cut off."""
        subprocess.run(_as_postgres([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"]), check=True, capture_output=True)

    def resume(self) -> None:
        """Start the server (again)."""
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "-o", self.options, "-l", str(self.root / "log"), "-w", "start"]),
            check=True, capture_output=True,
        )

    def new_database(self) -> str:
        """A fresh empty database; returns its URL."""
        import psycopg

        self.databases += 1
        name = f"ladder{self.databases}"
        with psycopg.connect(host=str(self.socket_dir), user="postgres", dbname="postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://postgres@/{name}?host={self.socket_dir}"

    def stop(self) -> None:
        subprocess.run(_as_postgres([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A Redis on 127.0.0.1 without persistence (no RDB, no AOF), that a test may kill and restart."""

    def __init__(self) -> None:
        server = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)
        if server is None:
            pytest.skip("Redis is not installed (Debian package: redis-server)")
        self.server = server
        self.port = free_port()
        self.workdir = tempfile.mkdtemp(prefix="b99-redis-")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.server, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", self.workdir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def kill(self) -> None:
        """SIGKILL: everything queued in it is gone."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None
        shutil.rmtree(self.workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    server = RedisServer()
    yield server.url
    server.stop()


@pytest.fixture
def sqlite_settings(tmp_path: Path) -> LadderSettings:
    settings = LadderSettings(home=tmp_path / "ladder", db_url=sqlite_url(tmp_path / "ladder" / "ladder.db"))
    migrate(settings.db_url)
    return settings


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> LadderSettings:
    """A migrated, empty ladder on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        url = sqlite_url(tmp_path / "ladder" / "ladder.db")
    else:
        url = request.getfixturevalue("postgres").new_database()
    settings = LadderSettings(home=tmp_path / "ladder", db_url=url)
    migrate(settings.db_url)
    return settings
