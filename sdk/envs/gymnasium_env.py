"""The Gymnasium environment of one seat of a B99 game against fixed opponents (needs the `rl` extra).

Opponents are reference bot names (`random`, `heuristic`, ...), `sdk.Bot` objects (they receive the
same Request as over the protocol, built in process), or callables `policy(observation, info) -> action`
with the learner's own observation dict and info. The observation is the AEC one (`observation` and
`action_mask`); the reward is the seat's terminal reward (`sdk.envs.table.rewards_for`).

An illegal action raises IllegalActionError naming it (`illegal="raise"`, the default). With
`illegal="lose"` it ends the episode instead, with reward -1 and the error's text in
`info["illegal_action"]` (the usual convention of unmasked learners, and what gymnasium's checker needs:
it steps with actions sampled before a reset).
"""

from __future__ import annotations

import random

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from referee.errors import ConfigError
from referee.local import request_for
from sdk.bot import Bot
from sdk.envs.actions import IllegalActionError
from sdk.envs.pettingzoo_env import observation_space
from sdk.envs.table import Table
from sdk.types import OptionInfo

Policy = Callable[[dict[str, np.ndarray], dict[str, Any]], int]


def reseed(bot: Any, seed: int) -> None:  # noqa: ANN401 - any Bot
    """Seed a bot's own generator (`rng`, or its per-game inner bot's) so a seeded episode replays exactly."""
    for holder in (bot, getattr(bot, "inner", None)):
        rng = getattr(holder, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(seed)


def _as_chooser(opponent: Any, table: Table, bots: list[Bot]) -> Callable[[int], str]:  # noqa: ANN401
    """A function seat -> chosen option id for one opponent (a bot name, a Bot or a callable)."""
    if isinstance(opponent, str):
        from bots.registry import PerGameBot, make_bot, per_game_bot, supports

        if not supports(opponent, table.game.id):
            raise ConfigError(f"reference bot {opponent!r} cannot play {table.game.id}")
        opponent = make_bot(opponent)
        if isinstance(opponent, PerGameBot):
            opponent = per_game_bot(opponent.package, table.game.id)
    if isinstance(opponent, Bot):
        bot = opponent
        bots.append(bot)
        from bots.random_bot import RandomBot

        if type(bot) is RandomBot:

            def by_random(seat: int) -> str:
                """RandomBot's own draw over the same options in the same order, without building its Request."""
                return bot.rng.choice(table.options(seat)).id  # type: ignore[attr-defined, no-any-return]

            return by_random

        def by_bot(seat: int) -> str:
            request = request_for(table.state, seat)
            answer = bot.choose(request)
            if isinstance(answer, OptionInfo):
                return answer.id
            if isinstance(answer, int):
                return request.options[answer].id
            return str(answer)

        return by_bot
    if callable(opponent):
        policy = opponent

        def by_policy(seat: int) -> str:
            action = policy(table.observation(seat), table.info(seat))
            option = table.encoding.actions.option_for(action, table.options(seat), f"for opponent seat {seat}")
            return option.id

        return by_policy
    raise ConfigError(f"an opponent must be a bot name, a Bot or a callable, not {opponent!r}")


class LegalDiscrete(spaces.Discrete):  # type: ignore[misc]
    """The game's action space, whose `sample()` draws among the legal actions of the seat to move.

    An illegal action given to `step` is still an error that names it; this only makes random
    sampling (and gymnasium's own env checker) draw legal actions, as a masked sample would.
    """

    def __init__(self, n: int, mask: Callable[[], np.ndarray], seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self.legal_mask = mask

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None:
            legal = self.legal_mask()
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)


class B99GymEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of a B99 game; the other seats are played by the opponents inside `step`."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: str,
        opponents: Sequence[Any],
        seat: int = 0,
        players: int | None = None,
        variants: Mapping[str, Any] | None = None,
        illegal: str = "raise",
    ) -> None:
        if illegal not in ("raise", "lose"):
            raise ConfigError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self.table = Table(game, players if players is not None else len(opponents) + 1, variants)
        if len(opponents) != self.table.players - 1:
            raise ConfigError(f"{game} with {self.table.players} players needs {self.table.players - 1} opponents, not {len(opponents)}")
        if not 0 <= seat < self.table.players:
            raise ConfigError(f"seat {seat} is not a seat of a {self.table.players}-player game")
        self.seat = seat
        others = [s for s in range(self.table.players) if s != seat]
        self.bots: list[Bot] = []
        self.choosers = {s: _as_chooser(opponent, self.table, self.bots) for s, opponent in zip(others, opponents)}
        self.observation_space = observation_space(self.table)
        self.action_space = LegalDiscrete(
            self.table.encoding.actions.size, lambda: self.table.action_mask(self.seat)
        )

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self.table.reset(seed)
        for index, bot in enumerate(self.bots):
            reseed(bot, seed * 31 + index)
        self._play_opponents()
        return self.table.observation(self.seat), self.table.info(self.seat)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        try:
            self.table.act(self.seat, action)
        except IllegalActionError as error:
            if self.illegal == "raise" or self.table.state.is_terminal():
                raise
            info = self.table.info(self.seat, illegal_action=str(error))
            return self.table.observation(self.seat), -1.0, True, False, info
        self._play_opponents()
        terminated = self.table.state.is_terminal()
        reward = self.table.rewards()[self.seat] if terminated else 0.0
        info = self.table.info(self.seat)
        if terminated:
            info["result"] = self.table.state.result()
        return self.table.observation(self.seat), reward, terminated, False, info

    def _play_opponents(self) -> None:
        """Let the opponents choose until it is the learner's turn or the game is over."""
        while True:
            seat = self.table.to_move()
            if seat is None or seat == self.seat:
                return
            self.table.choose(seat, self.choosers[seat](seat))
