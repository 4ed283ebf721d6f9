"""Importing this module loads every game: engines, component data and wire messages.

A process that forks matches (the ladder's fork server) imports it once, so each match process
starts with them loaded instead of importing and parsing them again for every match.
"""

from __future__ import annotations

from referee.registry import all_games
from referee.wire import get_wire


def load_all_games() -> list[str]:
    """Import every game and its wire messages, and build one initial state of each (which loads its
    component data, cached per process); returns the game ids."""
    loaded = []
    for game in all_games():
        get_wire(game.id)
        game.new_initial_state(game.make_config(game.default_players))
        loaded.append(game.id)
    return loaded


load_all_games()
