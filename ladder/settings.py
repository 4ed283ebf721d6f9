"""Where a ladder keeps its things: the database URL and the home directory (replays, uploaded bots)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


DEFAULT_HOME = "b99-ladder"
#: What the ladder keeps in its home, made its owner's alone by LadderSettings.secure.
PRIVATE_DIRECTORIES = ("replays", "bots", "bot-cache", "run", "logs")
PRIVATE_FILES = ("ladder.db", "ladder.db-wal", "ladder.db-shm", "admin-token", "games.toml")


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{Path(path).resolve()}"


@dataclass(frozen=True)
class LadderSettings:
    """A ladder's locations. The database defaults to SQLite inside the home directory."""

    home: Path
    db_url: str
    max_attempts: int = 3  # claims of one match before an infrastructure failure voids it
    gateway: str | None = None  # host:port of the Arena gateway for remote bots, when it runs

    @staticmethod
    def create(home: str | os.PathLike[str] | None = None, db_url: str | None = None) -> LadderSettings:
        """Settings from arguments, then B99_LADDER_HOME / B99_LADDER_DB, then the defaults."""
        home_path = Path(home or os.environ.get("B99_LADDER_HOME") or DEFAULT_HOME).resolve()
        url = db_url or os.environ.get("B99_LADDER_DB") or sqlite_url(home_path / "ladder.db")
        return LadderSettings(home=home_path, db_url=url)

    def secure(self) -> None:
        """Create the home if needed and make it, and what the ladder keeps in it, its owner's alone
        (directories 0700, files 0600): bots run as other uids and must read none of it (the seeds of
        running matches, the relay secret, other bots' files and logs, live replays)."""
        self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.home, 0o700)
        for name in PRIVATE_DIRECTORIES:
            path = self.home / name
            if path.is_dir() and not path.is_symlink():
                os.chmod(path, 0o700)
        for name in PRIVATE_FILES:
            path = self.home / name
            if path.is_file() and not path.is_symlink():
                os.chmod(path, 0o600)

    @property
    def replays_dir(self) -> Path:
        """Replay files, one per match attempt that finished."""
        return self.home / "replays"

    def admin_token(self) -> str:
        """The secret for the API's admin calls: $B99_LADDER_ADMIN_TOKEN, else the home's admin-token
        file (created with a random token, readable by its owner only)."""
        if os.environ.get("B99_LADDER_ADMIN_TOKEN"):
            return os.environ["B99_LADDER_ADMIN_TOKEN"]
        path = self.home / "admin-token"
        if not path.exists():
            import secrets

            self.home.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_urlsafe(32))
        return path.read_text().strip()

    @property
    def store_dir(self) -> Path:
        """Uploaded bots, one directory per bot."""
        return self.home / "bots"
