"""The Magnificent as a platform game: id, player range, config flags, initial state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.engine import Flag, Game, GameConfig
from referee.games.magnificent.data import components
from referee.games.magnificent.state import MagnificentState
from referee.games.magnificent.views import build_view


class MagnificentGame(Game):
    """The Magnificent, 1 to 4 players (1 = solo); side B boards as a flag."""

    score_unit = "points"
    ranking_rule = "more points first, then more coins, then more completed posters"

    id: ClassVar[str] = "magnificent"
    name: ClassVar[str] = "The Magnificent"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    flags: ClassVar[tuple[Flag, ...]] = (
        Flag.boolean("side_b", False, "Play every player board on side B (different start resources)."),
        Flag.boolean(
            "draft_master_cards", False, "Draft the master cards: 5 dealt to each player, keep 4 passing left."
        ),
    )
    #: Only the master card draft (a variant) gives seats secrets; decks are dealt lazily.
    hidden_information: ClassVar[bool] = True
    test_variants: ClassVar[tuple[Mapping[str, Any], ...]] = ({}, {"side_b": True}, {"draft_master_cards": True})

    #: A state's views (views.py reads the state; the state reaches its views through its game).
    build_view = staticmethod(build_view)

    def __init__(self) -> None:
        self.components = components()

    def new_initial_state(self, config: GameConfig) -> MagnificentState:
        """The state before the start player is drawn."""
        return MagnificentState(self, config, self.components)
