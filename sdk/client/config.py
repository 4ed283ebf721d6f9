"""Where a bot author's ladder credentials live: `$XDG_CONFIG_HOME/b99/ladders.json` (default
`~/.config/b99/`), readable by its owner only, one entry per ladder address."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path


class ClientConfigError(RuntimeError):
    """No credentials for a ladder, or a config file that cannot be read."""


@dataclass(frozen=True)
class LadderLogin:
    """One ladder's address, the account's name and API key, and how to verify its TLS."""

    address: str
    account: str
    key: str
    tls: bool = False
    ca_file: str = ""  # a CA certificate for a self-signed ladder ("" : the system's roots)


def config_dir() -> Path:
    """$XDG_CONFIG_HOME/b99, else ~/.config/b99."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "b99"


def config_file() -> Path:
    return config_dir() / "ladders.json"


def _read() -> dict:
    path = config_file()
    if not path.exists():
        return {"default": "", "ladders": {}}
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ClientConfigError(f"{path}: {error}") from None


def save_login(login: LadderLogin) -> Path:
    """Store `login` (and make its ladder the default); the file is created with mode 0600."""
    data = _read()
    data.setdefault("ladders", {})[login.address] = asdict(login)
    data["default"] = login.address
    directory = config_dir()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = config_file()
    staging = path.with_suffix(".tmp")
    descriptor = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(data, file, indent=2)
    os.chmod(staging, 0o600)
    os.replace(staging, path)
    return path


def load_login(address: str | None = None) -> LadderLogin:
    """The stored login for `address` (default: the ladder logged in to last)."""
    data = _read()
    address = address or data.get("default") or ""
    entry = data.get("ladders", {}).get(address)
    if not entry:
        raise ClientConfigError(f"not logged in to {address or 'any ladder'}: run `b99 login --ladder HOST:PORT --name NAME` first")
    return LadderLogin(**entry)
