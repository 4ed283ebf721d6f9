"""A fixed action space per game: every option id any decision can offer has one index, for good.

Indices follow the game's frozen list in sdk/envs/encodings/<id>.py, so a trained policy's outputs
keep their meaning. The legal options of a decision become a mask over that space.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from referee.engine import Option
from referee.errors import ArenaError, IllegalOptionError


_option_id = attrgetter("id")
#: masks an action space remembers before it empties that memory
_MASK_MEMORY = 20_000
#: option tuples an action space remembers by their identity before it empties that memory (few: each is kept alive)
_TUPLE_MEMORY = 256


class UnknownOptionError(ArenaError):
    """An engine offered an option id that the game's action space lacks (the encoding is out of date)."""


class IllegalActionError(IllegalOptionError):
    """An action index that is not legal now: out of range, or not among the deciding seat's options."""


class ActionSpace:
    """Option ids <-> action indices for one game."""

    def __init__(self, game_id: str, ids: Sequence[str]) -> None:
        if len(set(ids)) != len(ids):
            raise ArenaError(f"{game_id}: the action list repeats an option id")
        self.game_id = game_id
        self.ids: tuple[str, ...] = tuple(ids)
        self.index: dict[str, int] = {option_id: i for i, option_id in enumerate(ids)}
        #: option ids of a decision -> its mask (copied when handed out) and action index -> option position
        self.legals: dict[tuple[str, ...], tuple[np.ndarray, dict[int, int]]] = {}
        #: id of a tuple of options an engine handed out -> (that tuple, kept alive so that its id stays its own;
        #: what `legals` holds for it)
        self.tuples: dict[int, Any] = {}

    @property
    def size(self) -> int:
        return len(self.ids)

    def index_of(self, option_id: str) -> int:
        """The index of an option id; UnknownOptionError names an id the space lacks."""
        index = self.index.get(option_id)
        if index is None:
            raise UnknownOptionError(f"{self.game_id}: option {option_id!r} has no action index")
        return index

    def mask(self, options: Sequence[Option]) -> np.ndarray:
        """1 at the index of each legal option, 0 elsewhere (int8, as PettingZoo's action masks; a new array).

        Masks are remembered by their option ids (the same few sets come back again and again) and copied.
        """
        return self.legal(options)[0].copy()

    def legal(self, options: Sequence[Option]) -> tuple[np.ndarray, dict[int, int]]:
        """The remembered mask of these options (not to be changed: `mask` copies it) and action index -> position.

        Both are made once per set of option ids, so an environment step finds its option by one lookup. A tuple
        (which nobody can change) is found first by its identity among the last few hundred: several engines hand out
        the same tuple for the same options again (Underground Dice's option tables), and making the ids' key costs
        more than the rest of the lookup. (Keeping thousands of them was tried: most engines make a new tuple per
        position, and thousands kept alive cost the garbage collector more than the lookups saved.)
        """
        tuples = self.tuples
        same = type(options) is tuple
        if same:
            seen = tuples.get(id(options))
            if seen is not None and seen[0] is options:
                return seen[1]  # type: ignore[no-any-return]
        key = tuple(map(_option_id, options))
        known = self.legals.get(key)
        if known is None:
            if len(self.legals) >= _MASK_MEMORY:
                self.legals.clear()
            mask = self._mask(options)
            positions: dict[int, int] = {}
            for position, option_id in enumerate(key):
                positions.setdefault(self.index[option_id], position)  # the first of repeated ids, as `find`
            known = self.legals[key] = (mask, positions)
        if same:
            if len(tuples) >= _TUPLE_MEMORY:
                tuples.clear()
            tuples[id(options)] = (options, known)
        return known

    def _mask(self, options: Sequence[Option]) -> np.ndarray:
        """A new mask of these options, set one by one (numpy's index arrays cost more for a decision's few options)."""
        mask: Any = np.zeros(self.size, dtype=np.int8)  # Any: numpy's stubs do not declare its buffer
        slots: Any = memoryview(mask)
        index = self.index
        for option in options:
            action = index.get(option.id)
            if action is None:
                self.index_of(option.id)  # raises UnknownOptionError naming the id
            else:
                slots[action] = 1
        return mask  # type: ignore[no-any-return]

    def find(self, action: Any, options: Sequence[Option]) -> Option | None:  # noqa: ANN401 - any value a learner gives
        """The legal option an action index stands for, None if it stands for none (`option_for` says why)."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < self.size:
            return None
        wanted = self.ids[action]
        for option in options:
            if option.id == wanted:
                return option
        return None

    def option_for(self, action: Any, options: Sequence[Option], where: str) -> Option:
        """The legal option an action index stands for; IllegalActionError names the action otherwise."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= int(action) < self.size:
            raise IllegalActionError(f"{self.game_id}: action {action!r} is outside 0..{self.size - 1} ({where})")
        wanted = self.ids[int(action)]
        for option in options:
            if option.id == wanted:
                return option
        legal = ", ".join(option.id for option in options[:12]) + (", ..." if len(options) > 12 else "")
        raise IllegalActionError(
            f"{self.game_id}: action {int(action)} ({wanted!r}) is not legal {where}; legal: {legal}"
        )
