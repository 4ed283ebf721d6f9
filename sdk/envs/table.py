"""One game as a learner drives it: chance resolved inside from a seed, decisions by action index.

A `Table` is what every environment here wraps (PettingZoo, Gymnasium, OpenSpiel). It knows no RL
library. Simultaneous decisions (Merchants' draft) are taken one seat at a time, in seat order, and
applied together once every deciding seat has chosen; a seat choosing later sees nothing of the
earlier choices, because its view does not change until all are applied.

A table logs what it applies since `reset` (chance outcomes and decisions, in a chain of tuples that
copies share), so the view of an `info` first read after the game has moved on is the view of the
position the info was made at, replayed from the start.

A step costs about as much as the engine's own decision, so the table does each piece of bookkeeping
once per position: the deciding seats, the seat to move, its options and their mask and action index ->
option table (made once per set of option ids, `ActionSpace.legal`). When one seat decides, the option
its action index names is applied through the engine's `_apply_decisions` (the table has just checked it
is legal, the check `apply_decisions` would repeat); simultaneous choices go through `apply_decisions`.
"""

from __future__ import annotations

import random
import secrets
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from referee.chance import sample_outcome
from referee.engine import GameResult, GameState, Option, Seat
from referee.errors import GameOverError, NotDecidingError
from referee.registry import get_game
from sdk.envs.actions import ActionSpace
from sdk.envs.encoding import Slots, ViewEncoding
from sdk.envs.encodings import GameEncoding, game_encoding
from sdk.envs.info import SeatInfo, StaleViewError, new_info
from sdk.envs.state_encoders import StateEncoder, state_encoder


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


_UNKNOWN: Any = object()
#: a link of a table's log, (earlier link, kind, value): typed Any so that links stay the very objects made
#: (a compiled build would unpack a typed tuple and make a new one, and the log is followed by identity)
Log = Any

#: the seat to move's (seat, mask, action index -> position in the engine's options, the engine's options)
Legal = tuple[Seat, np.ndarray, dict[int, int], Sequence[Option]]
#: the first link of every log: the initial state
_START: Log = (None, "start", None)


class Table:
    """A game state plus the seeded chance that drives it and the choices waiting for a simultaneous decision."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        variants: Mapping[str, Any] | None = None,
        auto_chance: bool = True,
        from_state: bool = True,
        *,
        copy_of: Table | None = None,
    ) -> None:
        """A new game of `game_id`, or (`copy_of`) a copy of another table's game through the engine's cheap `clone`."""
        if copy_of is None:
            #: False when the driver resolves chance nodes itself (OpenSpiel's chance player)
            self.auto_chance = auto_chance
            self.game = get_game(game_id)
            self.config = self.game.make_config(players, dict(variants or {}))
            self.encoding: GameEncoding = game_encoding(game_id)
            #: the game's encoder from the state (sdk/envs/state_encoders), None to encode the view
            #: (`from_state=False` forces the view's encoding, which the encoder from the state must equal)
            self.state_encoder: StateEncoder | None = state_encoder(game_id) if from_state else None
            self.rng = random.Random(0)
            self.state: GameState = self.game.new_initial_state(self.config)
            #: what was applied since the initial state: (earlier link, "chance", "chances" or "decide", an outcome
            #: id, the outcome ids drawn in one go, or the choices),
            #: None when the state was set or edited from outside (its positions cannot be replayed then)
            self.log: Log | None = _START
            self.pending: dict[Seat, str] = {}
            #: counts the positions the table has been at (an info's view belongs to one of them)
            self.version = 0
        else:  # component data and encodings stay shared
            self.auto_chance, self.game, self.config = copy_of.auto_chance, copy_of.game, copy_of.config
            self.encoding, self.state_encoder = copy_of.encoding, copy_of.state_encoder
            self.rng = random.Random()
            self.rng.setstate(copy_of.rng.getstate())
            self.state = copy_of.state.clone()
            self.log, self.pending, self.version = copy_of.log, dict(copy_of.pending), copy_of.version
        self.players = self.config.players
        #: this position's seat to move and deciding seats (None at the end; _UNKNOWN until asked), each
        #: seat's options and view once asked for, and the seat to move's (seat, mask, action -> position)
        self.mover: Any = _UNKNOWN
        self.deciding: Any = _UNKNOWN
        self.option_lists: dict[Seat, list[Option]] = {}
        self.views: dict[Seat, dict[str, Any]] = {}
        self.legal: Legal | None = None
        self.actions: ActionSpace = self.encoding.actions
        self.view_encoding: ViewEncoding = self.encoding.view
        #: the state encoder `whole_vector` was looked up for, and its module's `observation_vector` (or None)
        self.vector_encoder: Any = None
        self.whole_vector: Any = None

    # ----- driving ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game; chance outcomes come from `seed` (a fresh random seed when None)."""
        self.rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self.state = self.game.new_initial_state(self.config)
        self.log = _START
        self.pending = {}
        self._moved()
        self.resolve_chance()

    def resolve_chance(self) -> None:
        """Apply chance outcomes, drawn from the table's generator, until a seat decides or the game ends.

        The outcomes drawn in one go are one link of the log, and one new position for the caches."""
        state = self.state
        if state.is_terminal() or not state.is_chance_node():
            return
        rng, drawn = self.rng, []
        while True:
            outcome_id = sample_outcome(state.chance_outcomes(), rng).id
            state.apply_chance(outcome_id)
            drawn.append(outcome_id)
            if state.is_terminal() or not state.is_chance_node():
                break
        if self.log is not None:
            self.log = (self.log, "chances", drawn)
        self._moved()

    def apply_chance(self, outcome_id: str) -> None:
        """Apply one outcome of the pending chance node (drivers that resolve chance themselves call this)."""
        self.state.apply_chance(outcome_id)
        if self.log is not None:
            self.log = (self.log, "chance", outcome_id)
        self._moved()

    def to_move(self) -> Seat | None:
        """The seat that chooses next (the first deciding seat that has not chosen yet), None at the end."""
        seat = self.mover
        if seat is _UNKNOWN:
            deciding = self.deciding
            if deciding is _UNKNOWN:
                deciding = self.deciding_now()
            if deciding and not self.pending:
                seat = self.mover = deciding[0]
            else:
                seat = self.mover = self._next_seat()
        return seat  # type: ignore[no-any-return]

    def _next_seat(self) -> Seat | None:
        deciding = self.deciding_now()
        if deciding is None:
            return None
        pending = self.pending
        for seat in deciding:
            if seat not in pending:
                return seat
        raise NotDecidingError(f"{self.game.id}: every deciding seat has chosen but nothing was applied")

    def deciding_now(self) -> tuple[Seat, ...] | None:
        """The seats deciding at this position (chosen or not), None at the end (asked of the engine once)."""
        deciding = self.deciding
        if deciding is _UNKNOWN:
            state = self.state
            deciding = self.deciding = None if state.is_terminal() else state.deciding_seats()
        return deciding  # type: ignore[no-any-return]

    def changed(self) -> None:
        """Forget cached views and options: drivers that edit or replace `state` themselves call this.

        Positions from then on cannot be replayed (an info's view must then be read before the game moves on).
        The state's change tokens are renewed, so no part written before the edit is handed out again.
        """
        self.state.renew_tokens()
        self.log = None
        self._moved()

    def _moved(self) -> None:
        """Forget cached views and options: the state has moved."""
        self.version += 1
        self.mover = self.deciding = _UNKNOWN
        self.legal = None
        if self.option_lists:
            self.option_lists = {}
        if self.views:
            self.views = {}

    def options(self, seat: Seat) -> list[Option]:
        """The seat's legal options now (empty when it is not deciding or has already chosen)."""
        options = self.option_lists.get(seat)
        if options is None:
            deciding = self.deciding_now()
            chooses = deciding is not None and seat in deciding and seat not in self.pending
            options = self.option_lists[seat] = list(self.state.legal_options(seat)) if chooses else []
        return options

    def view(self, seat: Seat) -> dict[str, Any]:
        """The seat's private view now (built once per position)."""
        view = self.views.get(seat)
        if view is None:
            view = self.views[seat] = self.state.private_view(seat)
        return view

    def _legal(self, seat: Seat) -> Legal | None:
        """The seat to move's (seat, mask, action index -> position in the engine's options, those options), made
        once per position; None when `seat` is not the seat to move. `self.legal` holds it only for the seat to move."""
        legal = self.legal
        if legal is None or legal[0] != seat:
            mover = self.mover
            if mover is _UNKNOWN:
                mover = self.to_move()
            if mover != seat or mover is None:
                return None
            legal = self._make_legal(seat)
        return legal

    def _make_legal(self, seat: Seat) -> Legal:
        """The seat to move's legal options as the engine gives them (kept for the table alone: a learner is handed
        a list of its own), their mask and action index -> position (`ActionSpace.legal`, made once per option set)."""
        options = self.state.legal_options(seat)
        mask, positions = self.actions.legal(options)
        legal: Legal = (seat, mask, positions, options)
        self.legal = legal
        return legal

    def mover_info(self) -> tuple[Seat | None, dict[str, Any] | None]:
        """The seat to move and its `info` (None, None at the end), its options and mask made on the way:
        what an environment asks after every step, in one call."""
        seat = self.mover
        if seat is _UNKNOWN:
            seat = self.to_move()
        if seat is None:
            return None, None
        legal = self.legal
        if legal is None or legal[0] != seat:
            legal = self._make_legal(seat)
        # `info.lazy_info`, without a Python-level call: the decision, options and view are made when read
        info: Any = new_info(SeatInfo)
        info._lazy = (_TO_MOVE, info_field, self, seat, self.version, self.log, legal[3])
        return seat, info

    def act(self, seat: Seat, action: Any) -> None:  # noqa: ANN401 - an int or numpy integer (else the error names it)
        """The seat chooses by action index; IllegalActionError names an illegal one, nothing is applied then."""
        legal = self.legal
        if legal is None or legal[0] != seat:
            legal = self._legal(seat)
            if legal is None:
                if self.state.is_terminal():
                    raise GameOverError(f"{self.game.id}: the game is over; action {action!r} cannot be played")
                raise NotDecidingError(f"{self.game.id}: seat {seat} is not the seat to move (seat {self.to_move()} is)")
        if type(action) is not int and isinstance(action, np.integer):
            action = int(action)
        position = legal[2].get(action) if type(action) is int else None
        if position is None:  # not a legal action index: the error names it and where it was played
            option = self.actions.option_for(action, legal[3], f"for seat {seat} at {self.state.decision_name(seat)!r}")
        else:
            option = legal[3][position]
        if self.pending or len(self.deciding) != 1:
            self.choose(seat, option.id)
            return
        state = self.state
        state._apply_decisions({seat: option})  # the one deciding seat's legal option (checked above)
        if self.log is not None:
            self.log = (self.log, "decide", {seat: option.id})
        self._moved()
        if state.is_terminal():
            self.deciding = self.mover = None
        elif not state.is_chance_node():
            self.deciding = state.deciding_seats()
        elif self.auto_chance:
            self.resolve_chance()

    def choose(self, seat: Seat, option_id: str) -> None:
        """The seat chooses by option id; applied once every deciding seat has chosen."""
        pending = self.pending
        pending[seat] = option_id
        self.mover = _UNKNOWN
        self.legal = None
        self.option_lists.pop(seat, None)
        deciding = self.deciding_now() or ()
        if len(pending) == len(deciding) and all(s in pending for s in deciding):
            choices, self.pending = self.pending, {}
            self.state.apply_decisions(choices)
            if self.log is not None:
                self.log = (self.log, "decide", choices)
            self._moved()
            if self.auto_chance:
                self.resolve_chance()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """A copy through the engine's cheap `clone` (component data and encodings stay shared)."""
        return Table(self.game.id, copy_of=self)

    # ----- what a seat sees ------------------------------------------------------------------
    def observation(self, seat: Seat) -> dict[str, np.ndarray]:
        """The seat's encoded private view and its action mask (all zeros unless it is to choose now)."""
        return {"observation": self.encode(seat), "action_mask": self.action_mask(seat)}

    def encode(self, seat: Seat) -> np.ndarray:
        """The seat's observation vector: the game's encoder from the state, or its view encoded (the same vector)."""
        encoder = self.state_encoder
        if encoder is not None:
            if encoder is not self.vector_encoder:  # looked up again whenever the encoder is replaced
                self.vector_encoder = encoder
                self.whole_vector = whole_vector_of(encoder)
            whole = self.whole_vector
            if whole is not None:
                vector: np.ndarray = whole(self.state, seat)
                return vector
            out = Slots()
            encoder(self.state, seat, out)
        else:
            out = Slots()
            self.view_encoding.encode_into(self.view(seat), out)
        return self.view_encoding.vector(out)

    def action_mask(self, seat: Seat) -> np.ndarray:
        """The seat's legal-action mask alone (all zeros unless it is to choose now), without encoding its view.

        A new array each time (the table's own stays as it is whatever a learner does with it)."""
        legal = self.legal
        if legal is None or legal[0] != seat:
            legal = self._legal(seat)
            if legal is None:
                return np.zeros(self.actions.size, dtype=np.int8)
        return legal[1].copy()

    def info(self, seat: Seat, **extra: Any) -> dict[str, Any]:
        """The typed view (a dict keyed by the game's proto field names), the decision and its options, and `extra`.

        The view is built when first read (a `SeatInfo`): most learners never read it.
        """
        legal = self._legal(seat)
        source = (view_at, self, seat, self.version, self.log)
        if legal is None:
            return SeatInfo(source, decision=None, options=[], **extra)
        return SeatInfo(source, decision=self.state.decision_name(seat), options=list(legal[3]), **extra)

    def final_info(self, seat: Seat) -> dict[str, Any]:
        """At the end: the seat's view (built when first read) and the result."""
        return SeatInfo((view_at, self, seat, self.version, self.log), result=self.state.result())

    def view_at(self, seat: Seat, version: int, log: Log | None) -> dict[str, Any]:
        """The seat's view of the position the table was at when its `version` was `version` (and its log `log`),
        replayed from the start when the game has moved on since."""
        if self.version == version:
            return self.view(seat)
        return self.state_at(version, log, seat, "view").private_view(seat)

    def state_at(self, version: int, log: Log | None, seat: Seat, key: str) -> GameState:
        """The position the table was at when its `version` was `version` (and its log `log`): the state itself, or
        replayed from the start when the game has moved on since (StaleViewError, naming the seat's info `key` that
        needed it, when it cannot be)."""
        if self.version == version:
            return self.state
        if log is None:
            raise StaleViewError(
                f"{self.game.id}: seat {seat}'s {key} was first read after the game moved on, from a position "
                f"set from outside the table (read info[{key!r}] during the step that returned it)"
            )
        return self.replayed(log)

    def replayed(self, log: Log) -> GameState:
        """The position a log leads to, replayed on a new initial state."""
        entries: list[tuple[str, Any]] = []
        while log is not _START:
            log, kind, value = log
            entries.append((kind, value))
        state = self.game.new_initial_state(self.config)
        entries.reverse()
        for kind, value in entries:
            if kind == "chances":
                for outcome_id in value:
                    state.apply_chance(outcome_id)
            elif kind == "chance":
                state.apply_chance(value)
            else:
                state.apply_decisions(value)
        return state

    def rewards(self) -> list[float]:
        """Terminal rewards per seat (see `rewards_for`); zeros before the end."""
        if not self.state.is_terminal():
            return [0.0] * self.players
        return rewards_for(self.state.result(), bool(self.game.solo_opponent))


def whole_vector_of(encoder: StateEncoder) -> Any:  # noqa: ANN401 - a function (state, seat) -> a new vector, or None
    """The `observation_vector(state, seat)` of the module whose `encode` is `encoder`, or None: an encoder that
    makes the whole vector itself (Underground Dice's) hands out a new one directly, with no `Slots` in between
    (the same vector `ViewEncoding.vector` makes of `encode`'s slots)."""
    module = sys.modules.get(str(getattr(encoder, "__module__", None)))
    if module is None or getattr(module, "encode", None) is not encoder:
        return None
    whole = getattr(module, "observation_vector", None)
    return whole if callable(whole) else None


def view_at(table: Table, seat: Seat, version: int, log: Log | None) -> dict[str, Any]:
    """`table.view_at`, as the first item of an info's view source (a plain function: no bound method per step)."""
    return table.view_at(seat, version, log)


#: what the info of the seat to move makes when read (in this order when all are)
_TO_MOVE = ("decision", "options", "view")


def info_field(key: str, table: Table, seat: Seat, version: int, log: Log | None, options: Sequence[Option]) -> Any:  # noqa: ANN401
    """One key of the info `Table.mover_info` hands out, made when first read: the decision, a list of the options
    (the engine's own, which the table kept for that position) or the view, of the position the info was made at."""
    if key == "options":
        return list(options)
    if key == "decision":
        return table.state_at(version, log, seat, key).decision_name(seat)
    return table.view_at(seat, version, log)
