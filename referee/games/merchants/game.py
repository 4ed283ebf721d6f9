"""The Merchants of B99 game: player range, config flags and initial states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from referee.engine import Flag, Game, GameConfig, JsonValue
from referee.errors import ConfigError
from referee.games.merchants.data import load_data
from referee.games.merchants.state import MerchantsState
from referee.games.merchants.views import build_view


class MerchantsGame(Game):
    """Merchants of B99 (seed 000); the spec is shared/games/merchants.md."""

    score_unit = "points"
    ranking_rule = "more points first, then more stars"

    id: ClassVar[str] = "merchants"
    name: ClassVar[str] = "Merchants of B99"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    flags: ClassVar[tuple[Flag, ...]] = (
        Flag.boolean("first_game", False, "First-game setup: fixed AB layout, only D1-D3 in the D shuffle."),
        Flag.boolean(
            "personal_board_back", False,
            "Back side of the personal board: each thumbs-up scores 2/3/4 points at once and no star (forced in solo).",
        ),
        Flag.choice(
            "floor99", "off", "Put a 99F card in this dungeon's row (off, dragon, castle, swamp or random).",
            ("off", "dragon", "castle", "swamp", "random"),
        ),
        Flag.choice("floor99_face", "random", "Face shown by the 99F card and the slot it takes (A, B or random).", ("A", "B", "random")),
    )
    test_variants: ClassVar[tuple[Mapping[str, JsonValue], ...]] = (
        {},
        {"first_game": True},
        {"floor99": "random", "floor99_face": "random"},
        {"personal_board_back": True, "floor99": "castle", "floor99_face": "B"},
    )

    #: A state's views (views.py reads the state; the state reaches its views through its game).
    build_view = staticmethod(build_view)

    def check_config(self, players: int, variants: Mapping[str, JsonValue]) -> None:
        if variants["first_game"] and variants["floor99"] != "off":
            raise ConfigError("merchants: first_game cannot be combined with floor99 (99F cards need the normal setup)")

    def new_initial_state(self, config: GameConfig) -> MerchantsState:
        """The state before the first chance outcome (layout draws)."""
        return MerchantsState(self, config, load_data())


GAME = MerchantsGame()
