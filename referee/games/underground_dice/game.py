"""The Underground Dice game: flags (section 7), component data and initial states."""

from __future__ import annotations

from typing import Any

from referee.engine import Flag, Game, GameConfig
from referee.errors import ConfigError
from referee.games.underground_dice.data import Components, components
from referee.games.underground_dice.options import OptionTables, build_option_tables
from referee.games.underground_dice.state import UndergroundDiceState
from referee.games.underground_dice.views import build_view


def _check_first_parent(value: Any) -> Any:
    """'random', 0 or 1 (also as the strings '0' and '1')."""
    if value == "random":
        return "random"
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    if isinstance(value, str) and value in ("0", "1"):
        return int(value)
    raise ConfigError(f"flag 'first_parent' takes random, 0 or 1, not {value!r}")


class UndergroundDiceGame(Game):
    """Underground Dice: 2-player dice bluffing; the parent sets dice, the child stakes and guesses the sum."""

    score_unit = "P (money: a bill is worth 1000 P)"
    ranking_rule = "a bankrupt seat ranks last whatever bills it holds; otherwise more money first"

    #: A state's views (views.py reads the state; the state reaches its views through its game).
    build_view = staticmethod(build_view)

    id = "underground_dice"
    name = "Underground Dice"
    #: With counterfeits, how many fake bills a seat may stake or pay depends on its secret make-up.
    asked_even_when_forced = frozenset(("stake_fakes", "pay_fakes"))
    min_players = 2
    max_players = 2
    default_players = 2
    flags = (
        Flag("first_parent", "random", "seat of the first parent: random, 0 or 1", _check_first_parent),
        Flag.integer("stake_cap", None, "maximum stake in bills, or null for no cap", minimum=1, nullable=True),
        Flag.boolean("until_bankruptcy", False, "no end after 5 parent turns each; play until a bankruptcy"),
        Flag.integer(
            "max_parent_turns",
            100,
            "with until_bankruptcy: total parent turns after which the game is scored as a normal end",
            minimum=1,
        ),
        Flag.boolean("counterfeit", False, "6 of the 66 bills are counterfeit; cheating and accusations"),
    )
    test_variants = (
        {},
        {"counterfeit": True},
        {"until_bankruptcy": True, "max_parent_turns": 4, "first_parent": 0},
        {"stake_cap": 3, "first_parent": 1},
        {"counterfeit": True, "until_bankruptcy": True, "max_parent_turns": 6, "stake_cap": 5, "first_parent": 0},
        {"counterfeit": True, "stake_cap": 2, "first_parent": 1},
    )

    def __init__(self) -> None:
        #: Validated at start: a broken data file raises ComponentDataError here.
        self.data: Components = components()
        self.tables: OptionTables = build_option_tables(self.data)

    def new_initial_state(self, config: GameConfig) -> UndergroundDiceState:
        """The state before the counterfeit deal / first-parent draw (or at the first set_pins when both are fixed)."""
        if config.game_id != self.id:
            raise ConfigError(f"config is for game {config.game_id!r}, not {self.id!r}")
        return UndergroundDiceState(self, config, self.data, self.tables)
