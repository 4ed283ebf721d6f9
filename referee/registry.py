"""The registry of games: every package under referee/games/ that defines GAME is a playable game."""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import cache

import referee.games
from referee.engine import Game
from referee.errors import UnknownGameError


@cache
def game_ids() -> tuple[str, ...]:
    """Ids of every game package, sorted."""
    return tuple(
        sorted(info.name for info in pkgutil.iter_modules(referee.games.__path__) if info.ispkg)
    )


@cache
def get_game(game_id: str) -> Game:
    """The game registered under `game_id`; UnknownGameError names the known ones otherwise."""
    if game_id not in game_ids():
        close = difflib.get_close_matches(game_id, game_ids(), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UnknownGameError(f"unknown game {game_id!r} ({hint}known: {', '.join(game_ids())})")
    module = importlib.import_module(f"referee.games.{game_id}")
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise UnknownGameError(f"referee.games.{game_id} defines no GAME")
    return game


def all_games() -> list[Game]:
    """Every registered game, in id order."""
    return [get_game(game_id) for game_id in game_ids()]
