"""Playout policies: how every seat of an imagined game decides inside a search.

`HeuristicPolicy` asks the game's heuristic bot (bots/heuristic/<game>.py) with a direct request
(bots.search.requests) and plays a uniformly random option instead with probability `epsilon`, so
playouts look like good play while still exploring. A heuristic that cannot read a direct request
(or has none for the game) leaves the choice to chance, never to an exception. Where a game has a
faster version of its heuristic with the same choices (`PLAYOUT_HEURISTICS`), playouts use that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bots.registry import UnknownBotError, per_game_bot
from bots.search.requests import direct_request
from referee.engine import GameState, Option, Seat
from sdk import Bot


def _fast_merchants() -> Bot:
    from bots.search.merchants_policy import FastMerchantsHeuristic

    return FastMerchantsHeuristic()


def _fast_fuji() -> Bot:
    from bots.search.fuji_policy import FastFujiHeuristic

    return FastFujiHeuristic()


def _fast_deep_dive() -> Bot:
    from bots.search.deep_dive_policy import FastDeepDiveHeuristic

    return FastDeepDiveHeuristic()


#: Heuristics that choose as the game's own but cost less, by game id (bots/search/<game>_policy.py).
#: One with a `choose_in_state(state, seat, options)` method is asked that way, without a request.
PLAYOUT_HEURISTICS = {"merchants": _fast_merchants, "fuji99": _fast_fuji, "deep_dive": _fast_deep_dive}


def playout_heuristic(game_id: str) -> Bot:
    """The game's heuristic for playouts: its faster twin if it has one (raises UnknownBotError if none)."""
    faster = PLAYOUT_HEURISTICS.get(game_id)
    return faster() if faster is not None else per_game_bot("bots.heuristic", game_id)


class HeuristicPolicy:
    """The game's heuristic with `epsilon` random moves, one heuristic instance per seat."""

    def __init__(self, game_id: str, players: int, epsilon: float) -> None:
        self.epsilon = epsilon
        self.table = (game_id, players)
        self.bots: list[Bot | None] = []
        for _ in range(players):
            try:
                self.bots.append(playout_heuristic(game_id))
            except UnknownBotError:
                self.bots.append(None)
        #: Each seat's `choose_in_state`, where its heuristic has one (looked up once, not at every decision).
        self.in_state: list[Callable[[GameState, Seat, Sequence[Option]], Any] | None] = [
            getattr(bot, "choose_in_state", None) for bot in self.bots
        ]

    def choose(self, state: GameState, seat: Seat, options: Sequence[Option], rng: random.Random) -> Option:
        """One option for `seat` among its legal `options`."""
        if len(options) == 1:
            return options[0]
        bot = self.bots[seat]
        if bot is None or rng.random() < self.epsilon:
            return options[rng.randrange(len(options))]
        try:
            in_state = self.in_state[seat]
            if in_state is not None:
                answer = in_state(state, seat, options)
            else:
                answer = bot.choose(direct_request(state, seat, options))
        except Exception:  # noqa: BLE001 - a policy slip inside a search only costs one random move
            return options[rng.randrange(len(options))]
        answer_id = answer if isinstance(answer, str) else answer.id
        for option in options:
            if option.id == answer_id:
                return option
        return options[rng.randrange(len(options))]
