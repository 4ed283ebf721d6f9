"""OpenSpiel games over the engines: `import sdk.envs.openspiel` registers `b99_<id>` for every game.

    import pyspiel, sdk.envs.openspiel
    game = pyspiel.load_game("b99_fuji99", {"players": 4})

- Parameters: `players` and every variant flag of the game, with the rulebook defaults (a flag whose
  default is null, such as Underground Dice's `stake_cap`, is a string: "" for null).
- Moves are sequential: a simultaneous decision is taken seat by seat in seat order and applied when
  the last seat has chosen (no seat sees another's choice), as in the PettingZoo environment.
- Chance nodes are the engine's own: outcome `i` is the i-th outcome the engine lists now.
- Actions are the game's fixed action space (sdk/envs/encodings/<id>.py, documented in docs/games/).
- Observation tensor and string: the seat's private view (its encoding, and the view as JSON).
  Information-state tensor: the same encoding; information-state string: the view, the seat's own
  choices and a running digest of every event it has seen, so it has perfect recall of what the
  seat was told.
- Returns: `sdk.envs.table.rewards_for` (pairwise wins minus losses; solo: see there).
- `resample(state, player, rng)` draws a state from the player's information set with the engine's
  `determinize`, for OpenSpiel's ISMCTS bot (`bot.set_resampler`, see `ismcts_bot`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from referee.engine import Game, GameState
from referee.registry import all_games
from sdk.envs.encodings import game_encoding
from sdk.envs.table import Table

#: Upper bounds OpenSpiel asks for: outcomes of one chance node and decisions in one game.
MAX_CHANCE_OUTCOMES = {"deep_dive": 160, "fuji99": 64, "magnificent": 1024, "merchants": 128, "underground_dice": 128}
MAX_GAME_LENGTH = {"deep_dive": 5000, "fuji99": 20000, "magnificent": 5000, "merchants": 2000, "underground_dice": 5000}
#: Solo games with no engine-run opponent return the score; this bounds it.
MAX_SOLO_SCORE = 1000.0


def _parameter_defaults(game: Game) -> dict[str, Any]:
    defaults: dict[str, Any] = {"players": game.default_players}
    for flag in game.flags:
        defaults[flag.name] = "" if flag.default is None else flag.default
    return defaults


def _game_type(game: Game) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"b99_{game.id}",
        long_name=f"B99 {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_defaults(game),
    )


class B99SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One B99 game as an OpenSpiel game; its parameters are `players` and the variant flags."""

    engine: Game

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        engine = self.engine
        values = {**_parameter_defaults(engine), **dict(params or {})}
        players = int(values.pop("players"))
        variants = {name: (None if value == "" else value) for name, value in values.items()}
        self.config = engine.make_config(players, variants)
        self.encoding = game_encoding(engine.id)
        solo_score = players == 1 and not engine.solo_opponent
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.actions.size,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES[engine.id],
            num_players=players,
            min_utility=-MAX_SOLO_SCORE if solo_score else -1.0,
            max_utility=MAX_SOLO_SCORE if solo_score else 1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH[engine.id],
        )
        super().__init__(_GAME_TYPES[engine.id], info, dict(params or {}))

    def new_initial_state(self) -> B99SpielState:
        """The state before the first chance outcome."""
        return B99SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> B99Observer:  # noqa: ANN401
        """The observer of a seat: its view (observation) or its view, events and choices (information state)."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return B99Observer(self, perfect_recall)


class B99SpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: a `Table` whose chance nodes OpenSpiel drives."""

    def __init__(self, game: B99SpielGame) -> None:
        super().__init__(game)
        # Built on first use: OpenSpiel clones a Python state by making a new one and replacing its
        # attributes with copies of the original's, so a clone never pays for a new game.
        self._spiel_game = game
        self._table: Table | None = None
        #: each seat's own choices so far (option ids), part of its information state
        self.choices: list[list[str]] = [[] for _ in range(game.config.players)]
        #: per seat: (events folded in, running SHA-256 of those events), the seat's history in brief
        self.seen: list[tuple[int, str]] = [(0, "")] * game.config.players

    @property
    def table(self) -> Table:
        if self._table is None:
            game = self._spiel_game
            self._table = Table(game.engine.id, game.config.players, game.config.variants, auto_chance=False)
        return self._table

    # ----- the OpenSpiel API ------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, CHANCE at a chance node, TERMINAL at the end."""
        state = self.table.state
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.table.to_move())  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        """The seat's legal actions, ascending."""
        if player != self.current_player():
            return []
        actions = self.table.encoding.actions
        return sorted(actions.index_of(option.id) for option in self.table.options(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome index, probability) of the pending chance node, in the engine's order."""
        return [(index, outcome.probability) for index, outcome in enumerate(self.table.state.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome index or the player's action index."""
        state = self.table.state
        if state.is_chance_node():
            self.table.apply_chance(state.chance_outcomes()[action].id)
            return
        seat = self.current_player()
        self.table.act(seat, action)  # IllegalActionError names an illegal action; nothing is applied then
        self.choices[seat].append(self.table.encoding.actions.ids[int(action)])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{self.table.state.chance_outcomes()[action].id}"
        return self.table.encoding.actions.ids[action]

    def is_terminal(self) -> bool:
        return self.table.state.is_terminal()

    def returns(self) -> list[float]:
        return self.table.rewards()

    def __str__(self) -> str:
        """The public view as JSON (for people; algorithms key states by their history)."""
        return json.dumps(self.table.state.public_view(), sort_keys=True, default=str)

    # ----- what a seat knows --------------------------------------------------------------------
    def encoded_view(self, player: int) -> np.ndarray:
        """The seat's observation vector (its view's encoding), computed once per position (observation and
        information state share it)."""
        position = len(self.history())
        cached = self.__dict__.get("_encoded")
        if cached is None or cached[0] != position:
            cached = (position, {})
            self.__dict__["_encoded"] = cached
        if player not in cached[1]:
            cached[1][player] = self.table.encode(player)
        return cached[1][player]

    def view_string(self, player: int) -> str:
        return json.dumps(self.table.view(player), sort_keys=True, default=str)

    def history_string(self, player: int) -> str:
        """The seat's information state: its view, its own choices, and the events it has seen.

        The events are folded into a running SHA-256 (updated with each new event the seat may see),
        so equal strings mean equal event histories without re-serialising them at every step.
        """
        log = self.table.state.events
        count, digest = self.seen[player]
        if count < len(log):
            for event in log.since(count):
                if event.visible_to(player):
                    text = json.dumps([event.kind, event.data], sort_keys=True, default=str)
                    digest = hashlib.sha256((digest + text).encode()).hexdigest()
            self.seen = [*self.seen[:player], (len(log), digest), *self.seen[player + 1 :]]
        record = {"view": self.table.view(player), "choices": self.choices[player], "events": digest}
        return json.dumps(record, sort_keys=True, default=str)


class B99Observer:
    """OpenSpiel's observer of one seat: the view encoding as the tensor; the view or the history as string."""

    def __init__(self, game: B99SpielGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.encoding = game.encoding
        self.tensor = np.zeros(self.encoding.view.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: B99SpielState, player: int) -> None:
        self.tensor[:] = state.encoded_view(player)

    def string_from(self, state: B99SpielState, player: int) -> str:
        return state.history_string(player) if self.perfect_recall else state.view_string(player)


def resample(state: B99SpielState, player: int, rng: random.Random | None = None) -> B99SpielState:
    """A state from `player`'s information set: the engine's determinize; others' pending choices redrawn."""
    rng = rng or random.Random()
    world: GameState = state.table.state.determinize(player, rng)
    twin = state.clone()
    twin.table.state = world
    twin.table.pending = {}
    for seat in sorted(state.table.pending):
        option_id = state.table.pending[seat] if seat == player else rng.choice(list(world.legal_options(seat))).id
        twin.table.pending[seat] = option_id
    twin.table.changed()
    return twin


def ismcts_bot(game: B99SpielGame, simulations: int = 20, seed: int = 0) -> Any:  # noqa: ANN401 - an ISMCTSBot
    """OpenSpiel's ISMCTS bot on a b99 game, resampling worlds with the engine's determinize."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(seed))
    bot.set_resampler(lambda state, player: resample(state, player, rng))
    return bot


def _register(engine: Game) -> None:
    game_class = type(f"B99Spiel_{engine.id}", (B99SpielGame,), {"engine": engine})
    pyspiel.register_game(_GAME_TYPES[engine.id], game_class)


_GAME_TYPES = {game.id: _game_type(game) for game in all_games()}
for _engine in all_games():
    _register(_engine)
