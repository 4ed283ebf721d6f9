"""Finds each game's drawing module and draws a view with it; bad game ids get a one-line error."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Any

from referee.errors import UnknownGameError
from referee.registry import get_game


@cache
def drawing_module(game_id: str) -> ModuleType:
    """`referee.games.<id>.drawing` for a registered game."""
    get_game(game_id)
    try:
        return importlib.import_module(f"referee.games.{game_id}.drawing")
    except ModuleNotFoundError:
        raise UnknownGameError(f"{game_id} has no drawing (referee/games/{game_id}/drawing.py)") from None


@cache
def glossary(game_id: str) -> dict[str, str]:
    """What each component id of the game is (the drawing module's `glossary()`)."""
    return dict(drawing_module(game_id).glossary())


def draw_view(game_id: str, view: Mapping[str, Any]) -> str:
    """The SVG picture of `view` (a seat's private view or the spectator's public view)."""
    return str(drawing_module(game_id).draw(view))
