"""One game as a learner drives it: chance resolved inside from a seed, decisions by action index.

A `Table` is what every environment here wraps (PettingZoo, Gymnasium, OpenSpiel). It knows no RL
library. Simultaneous decisions (Merchants' draft) are taken one seat at a time, in seat order, and
applied together once every deciding seat has chosen; a seat choosing later sees nothing of the
earlier choices, because its view does not change until all are applied.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np

from referee.chance import sample_outcome
from referee.engine import GameResult, GameState, Option, Seat
from referee.errors import GameOverError, NotDecidingError
from referee.registry import get_game
from sdk.envs.encodings import GameEncoding, game_encoding


def rewards_for(result: GameResult, solo_opponent: bool) -> list[float]:
    """Each seat's terminal reward: pairwise wins minus losses over the other seats, divided by their number.

    Two players: +1 / -1, a tie 0 / 0. Solo against the engine's opponent: +1 for rank 1, -1 for rank 2.
    Solo with no opponent: the final score (there is no one to beat).
    """
    ranks = result.ranks
    if len(ranks) == 1:
        if solo_opponent:
            return [1.0 if ranks[0] == 1 else -1.0]
        return [float(result.scores[0])]
    rewards = []
    for seat, rank in enumerate(ranks):
        balance = sum((rank < other) - (rank > other) for i, other in enumerate(ranks) if i != seat)
        rewards.append(balance / (len(ranks) - 1))
    return rewards


class Table:
    """A game state plus the seeded chance that drives it and the choices waiting for a simultaneous decision."""

    def __init__(
        self, game_id: str, players: int | None = None, variants: Mapping[str, Any] | None = None, auto_chance: bool = True
    ) -> None:
        #: False when the driver resolves chance nodes itself (OpenSpiel's chance player)
        self.auto_chance = auto_chance
        self.game = get_game(game_id)
        self.config = self.game.make_config(players, dict(variants or {}))
        self.encoding: GameEncoding = game_encoding(game_id)
        self.players = self.config.players
        self.rng = random.Random(0)
        self.state: GameState = self.game.new_initial_state(self.config)
        self.pending: dict[Seat, str] = {}
        #: (state version, seat) -> the seat's view and options, so the observation and the info share them
        self.version = 0
        self.cache: dict[tuple[int, Seat, str], Any] = {}

    # ----- driving ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game; chance outcomes come from `seed` (a fresh random seed when None)."""
        self.rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self.state = self.game.new_initial_state(self.config)
        self.pending = {}
        self.changed()
        self.resolve_chance()

    def resolve_chance(self) -> None:
        """Apply chance outcomes, drawn from the table's generator, until a seat decides or the game ends."""
        state = self.state
        while not state.is_terminal() and state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), self.rng).id)
            self.changed()

    def to_move(self) -> Seat | None:
        """The seat that chooses next (the first deciding seat that has not chosen yet), None at the end."""
        key = (self.version, -1, "to_move")
        if key in self.cache:
            return self.cache[key]  # type: ignore[no-any-return]
        seat = self._next_seat()
        self.cache[key] = seat
        return seat

    def _next_seat(self) -> Seat | None:
        if self.state.is_terminal():
            return None
        for seat in self.state.deciding_seats():
            if seat not in self.pending:
                return seat
        raise NotDecidingError(f"{self.game.id}: every deciding seat has chosen but nothing was applied")

    def changed(self) -> None:
        """Forget cached views and options: the state has moved (drivers that edit `state` call this)."""
        self.version += 1
        self.cache.clear()

    def options(self, seat: Seat) -> list[Option]:
        """The seat's legal options now (empty when it is not deciding or has already chosen)."""
        key = (self.version, seat, "options")
        options = self.cache.get(key)
        if options is None:
            state = self.state
            deciding = not state.is_terminal() and seat not in self.pending and seat in state.deciding_seats()
            options = list(state.legal_options(seat)) if deciding else []
            self.cache[key] = options
        return options  # type: ignore[no-any-return]

    def view(self, seat: Seat) -> dict[str, Any]:
        """The seat's private view now (built once per position)."""
        key = (self.version, seat, "view")
        if key not in self.cache:
            self.cache[key] = self.state.private_view(seat)
        return self.cache[key]  # type: ignore[no-any-return]

    def act(self, seat: Seat, action: int) -> None:
        """The seat chooses by action index; IllegalActionError names an illegal one, nothing is applied then."""
        if self.state.is_terminal():
            raise GameOverError(f"{self.game.id}: the game is over; action {action!r} cannot be played")
        if self.to_move() != seat:
            raise NotDecidingError(f"{self.game.id}: seat {seat} is not the seat to move (seat {self.to_move()} is)")
        options = self.options(seat)
        option = self.encoding.actions.find(action, options)
        if option is None:  # option_for raises the error naming the action and where it was played
            where = f"for seat {seat} at {self.state.decision_name(seat)!r}"
            option = self.encoding.actions.option_for(action, options, where)
        self.choose(seat, option.id)

    def choose(self, seat: Seat, option_id: str) -> None:
        """The seat chooses by option id; applied once every deciding seat has chosen."""
        self.pending[seat] = option_id
        self.cache.clear()
        if set(self.pending) == set(self.state.deciding_seats()):
            choices, self.pending = self.pending, {}
            self.state.apply_decisions(choices)
            self.changed()
            if self.auto_chance:
                self.resolve_chance()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """A copy through the engine's cheap `clone` (component data and encodings stay shared)."""
        twin = Table.__new__(Table)
        twin.__dict__.update(self.__dict__)
        twin.state = self.state.clone()
        twin.pending = dict(self.pending)
        twin.cache = {}
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        return twin

    # ----- what a seat sees ------------------------------------------------------------------
    def observation(self, seat: Seat) -> dict[str, np.ndarray]:
        """The seat's encoded private view and its action mask (all zeros unless it is to choose now)."""
        return {"observation": self.encoding.view.encode(self.view(seat)), "action_mask": self.action_mask(seat)}

    def action_mask(self, seat: Seat) -> np.ndarray:
        """The seat's legal-action mask alone (all zeros unless it is to choose now), without encoding its view."""
        return self.encoding.actions.mask(self.options(seat) if self.to_move() == seat else [])

    def info(self, seat: Seat) -> dict[str, Any]:
        """The typed view (a dict keyed by the game's proto field names), the decision and its options."""
        deciding = self.to_move() == seat
        return {
            "view": self.view(seat),
            "decision": self.state.decision_name(seat) if deciding else None,
            "options": self.options(seat) if deciding else [],
        }

    def rewards(self) -> list[float]:
        """Terminal rewards per seat (see `rewards_for`); zeros before the end."""
        if not self.state.is_terminal():
            return [0.0] * self.players
        return rewards_for(self.state.result(), bool(self.game.solo_opponent))
