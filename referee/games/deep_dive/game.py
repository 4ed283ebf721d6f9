"""The DEEP DIVE game: player range, the `ai_difficulty` flag, and initial states."""

from __future__ import annotations

from typing import ClassVar

from referee.engine import Flag, Game, GameConfig
from referee.games.deep_dive.data import load_data
from referee.games.deep_dive.options import TileOptions
from referee.games.deep_dive.state import DeepDiveState
from referee.games.deep_dive.views import build_view


class DeepDiveGame(Game):
    """DEEP DIVE for 1 to 6 players; 1 player = solo against an AI the engine runs itself."""

    score_unit = "points"
    ranking_rule = "more points first, then more complete rows; solo: against the automa's points and rows"

    id: ClassVar[str] = "deep_dive"
    name: ClassVar[str] = "Deep Dive"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 2
    flags: ClassVar[tuple[Flag, ...]] = (
        Flag.choice(
            "ai_difficulty",
            "medium",
            "solo AI scoring: easy, medium or hard (ignored unless 1 player)",
            ("easy", "medium", "hard"),
        ),
    )
    hidden_information: ClassVar[bool] = False
    solo_opponent: ClassVar[bool] = True
    test_variants = ({}, {"ai_difficulty": "easy"}, {"ai_difficulty": "hard"})

    #: A state's views (views.py reads the state; the state reaches its views through its game).
    build_view = staticmethod(build_view)

    def __init__(self) -> None:
        self.data = load_data()
        self.tile_options = TileOptions(self.data.tiles)

    def new_initial_state(self, config: GameConfig) -> DeepDiveState:
        """Setup (spec 3): for 2+ players the first node is the random choice of the start player."""
        return DeepDiveState(self, config, self.data, self.tile_options)
