"""The Fuji 99 game: player range, config flags and initial states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.engine import Flag, Game, GameConfig, JsonValue
from referee.errors import ConfigError
from referee.games.fuji99.data import FujiData, load_data
from referee.games.fuji99.state import Fuji99State
from referee.games.fuji99.views import build_view


class Fuji99Game(Game):
    """Fuji 99 (富士山地下99階): a push-your-luck race with bags of cubes, 2 to 4 players."""

    score_unit = "spaces climbed (the winner scores the goal)"
    ranking_rule = "the winner first, then the higher position, then fewer turns taken"

    id: ClassVar[str] = "fuji99"
    name: ClassVar[str] = "Fuji 99"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 3
    flags: ClassVar[tuple[Flag, ...]] = (
        Flag.integer(
            "max_rounds",
            100,
            "platform safeguard: the game ends with no winner after this many full rounds",
            minimum=1,
        ),
    )
    hidden_information: ClassVar[bool] = False
    test_variants = ({}, {"max_rounds": 4})

    #: A state's views (views.py reads the state; the state reaches its views through its game).
    build_view = staticmethod(build_view)

    def __init__(self, data: FujiData | None = None) -> None:
        self._data = data

    @property
    def data(self) -> FujiData:
        """The validated component data (loaded on first use)."""
        if self._data is None:
            self._data = load_data()
        return self._data

    def check_config(self, players: int, variants: Mapping[str, JsonValue]) -> None:
        if players not in self.data.supply:
            raise ConfigError(f"fuji99: the data file has no supply for {players} players")

    def new_initial_state(self, config: GameConfig) -> Fuji99State:
        state = Fuji99State(self, config, self.data)
        state.start()
        return state
