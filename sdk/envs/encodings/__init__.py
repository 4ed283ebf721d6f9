"""Per-game encodings: the vocabularies and caps of each view, and each game's frozen action list.

`game_encoding(game_id)` gives the view encoding and the action space of a game; the modules
beside this file (one per game id) declare `SPEC` (an EncodingSpec) and `ACTIONS` (option ids).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from referee.registry import get_game
from referee.wire import get_wire
from sdk.envs.actions import ActionSpace
from sdk.envs.encoding import ViewEncoding


@dataclass(frozen=True)
class GameEncoding:
    """How a game looks to a learner: its observation encoding and its action space."""

    game_id: str
    view: ViewEncoding
    actions: ActionSpace


@cache
def game_encoding(game_id: str) -> GameEncoding:
    """The encoding of a registered game (UnknownGameError names the known games otherwise)."""
    get_game(game_id)
    module = importlib.import_module(f"sdk.envs.encodings.{game_id}")
    view = ViewEncoding(game_id, get_wire(game_id).view.DESCRIPTOR, module.SPEC)
    return GameEncoding(game_id, view, ActionSpace(game_id, module.ACTIONS))
