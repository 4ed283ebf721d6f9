"""The operator's ladder-wide settings: how accounts are opened and each account's quotas.

They live in `<home>/ladder.toml` (or $B99_LADDER_CONFIG), read whenever a request needs them, so an
edit applies without a restart:

    [accounts]
    registration = "invite"        # "invite": an invitation code is needed; "open": anyone may join

    [quotas]                       # per account
    bots_per_game = 3              # bots (not versions) it may have in one game, retired ones not counted
    submissions_per_hour = 10      # new bots and versions
    archive_bytes = 5000000        # an uploaded bot's packed size
    challenge_games_in_flight = 20 # its challenge games queued or running at once

    [challenges]
    worker_share = 0.5             # of the ladder's concurrency, on top of rated play (at least one match)
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from referee.errors import ConfigError

REGISTRATION_MODES = ("invite", "open")


class LadderConfigError(ConfigError):
    """A ladder.toml the ladder refuses, with the key and the value."""


@dataclass(frozen=True)
class Quotas:
    """What one account may use."""

    bots_per_game: int = 3
    submissions_per_hour: int = 10
    archive_bytes: int = 5_000_000
    challenge_games_in_flight: int = 20

    def describe(self) -> list[tuple[str, int]]:
        """(name, value) pairs, as the owner sees them."""
        return [(item.name, getattr(self, item.name)) for item in fields(self)]


@dataclass(frozen=True)
class LadderConfig:
    """The operator's choices for accounts, quotas and challenges."""

    registration: str = "invite"
    quotas: Quotas = field(default_factory=Quotas)
    challenge_share: float = 0.5

    def challenge_slots(self, concurrency: int) -> int:
        """Challenge matches in flight at once beside `concurrency` rated ones (at least one)."""
        return max(1, math.ceil(concurrency * self.challenge_share))


def config_path(home: Path) -> Path:
    """$B99_LADDER_CONFIG, else ladder.toml in the ladder's home."""
    return Path(os.environ.get("B99_LADDER_CONFIG") or home / "ladder.toml")


def load_config(home: Path) -> LadderConfig:
    """The ladder's config (the defaults when the file is absent); LadderConfigError for a bad one."""
    path = config_path(home)
    if not path.exists():
        return LadderConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise LadderConfigError(f"{path}: not UTF-8 text") from None
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise LadderConfigError(f"{path}: {error}") from None
    return parse_config(data, str(path))


def parse_config(data: dict[str, Any], where: str = "ladder.toml") -> LadderConfig:
    """A LadderConfig from the TOML tables, every value checked."""
    keys = {"accounts": {"registration"}, "quotas": {item.name for item in fields(Quotas)}, "challenges": {"worker_share"}}
    tables = tuple(keys)
    unknown = set(data) - set(tables)
    if unknown:
        homes = [f"{name} goes under [{table}]" for name in sorted(unknown) for table in tables if name in keys[table]]
        hint = "; ".join(homes) if homes else "a key goes under its table"
        raise LadderConfigError(f"{where}: unknown table(s) {', '.join(sorted(unknown))} (tables: {', '.join(tables)}; {hint})")
    for table in tables:
        if not isinstance(data.get(table, {}), dict):
            raise LadderConfigError(f"{where}: {table} must be a table ([{table}]), not {data[table]!r}")
        strangers = set(data.get(table, {})) - keys[table]
        if strangers and table != "quotas":  # quotas name their own known keys below
            raise LadderConfigError(f"{where}: unknown key(s) {', '.join(sorted(strangers))} in [{table}] (known: {', '.join(sorted(keys[table]))})")
    accounts = data.get("accounts", {})
    registration = accounts.get("registration", "invite")
    if registration not in REGISTRATION_MODES:
        raise LadderConfigError(f"{where}: accounts.registration must be invite or open, not {registration!r}")
    quota_values = data.get("quotas", {})
    known = {item.name for item in fields(Quotas)}
    for key, value in quota_values.items():
        if key not in known:
            raise LadderConfigError(f"{where}: unknown quota {key!r} (known: {', '.join(sorted(known))})")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise LadderConfigError(f"{where}: quotas.{key} must be a whole number 0 or more, not {value!r}")
    share = data.get("challenges", {}).get("worker_share", 0.5)
    if not isinstance(share, (int, float)) or isinstance(share, bool) or not 0 < share <= 1:
        raise LadderConfigError(f"{where}: challenges.worker_share must be above 0 and at most 1, not {share!r}")
    return LadderConfig(registration=registration, quotas=Quotas(**quota_values), challenge_share=float(share))
