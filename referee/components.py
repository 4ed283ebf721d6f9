"""Loading a game's component data file from beside its engine, with a clear error when it is invalid."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from referee.errors import ComponentDataError


def load_component_json(package: str, filename: str) -> Any:
    """Read `filename` from the package directory `package` (for example 'referee.games.fuji99')."""
    try:
        text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ComponentDataError(f"{package}: component data file {filename!r} is missing") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ComponentDataError(f"{package}/{filename}: not valid JSON ({error})") from None


def require(condition: bool, package: str, message: str) -> None:
    """Raise ComponentDataError with context unless `condition` holds (validation of loaded data)."""
    if not condition:
        raise ComponentDataError(f"{package}: {message}")
