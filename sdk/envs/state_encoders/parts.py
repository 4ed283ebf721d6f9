"""What the encoders from the state share: parts of a vector remembered by the state they come from.

Most of a position is as it was a step before (a DEEP DIVE tableau, a Magnificent camp), so an
encoder writes such a part once, into a float32 block of the vector, and keeps it in a `Memory` keyed by
exactly the state it was made from; later positions add the block to their `Slots` as it is. `Recent`
finds the part handed out last at a place without making a key when its state has not changed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from sdk.envs.encoding import EncodingError

#: parts kept per memory before it is emptied (random play makes new ones forever)
MEMORY_SIZE = 20_000

#: a first slot and the values from it on (for `Slots.add_block`)
Block = tuple[int, np.ndarray]


class Memory:
    """Parts of vectors by the exact state they were made from (`key`), emptied when it holds MEMORY_SIZE."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: dict[Hashable, Any] = {}

    def block(self, key: Hashable, start: int, size: int, make: Callable[[memoryview], None]) -> Block:
        """Write the part for `key` with `make` and keep it as a block of the vector from slot `start` on.

        `make` gets the block's `size` slots (zeros, float32, through a memoryview: `slots[i] = value`, with
        `i` counted from `start`); callers look in `parts` first.
        """
        values = np.zeros(size, np.float32)
        make(memoryview(values))
        return self.keep(key, (start, values))

    def keep(self, key: Hashable, part: Any) -> Any:  # noqa: ANN401 - a block (or any part the caller made)
        """Keep a part made by the caller."""
        if len(self.parts) >= MEMORY_SIZE:
            self.parts.clear()
        self.parts[key] = part
        return part


def check_cap(game_id: str, path: str, items: int, cap: int) -> None:
    """EncodingError (as the view's encoding raises) when a list holds more items than its cap."""
    if items > cap:
        raise EncodingError(f"view field {path} holds {items} items, more than its cap {cap}")


class Recent:
    """The part last handed out at each place, with the state it came from, compared before any key is made.

    Most parts are as they were one step before; comparing the state's own lists with copies of them is
    cheaper than making (and hashing) a key of tuples. `current` is a tuple of the state's values (lists
    and dicts as they are); on a change the caller finds the part in a `Memory` and calls `keep`.
    """

    __slots__ = ("seen",)

    def __init__(self, places: int) -> None:
        self.seen: list[tuple[Any, Any] | None] = [None] * places

    def get(self, place: int, current: tuple[Any, ...]) -> Any:  # noqa: ANN401 - a part
        """The part last kept at `place` if it came from a state equal to `current`, else None."""
        entry = self.seen[place]
        if entry is not None and entry[0] == current:
            return entry[1]
        return None

    def keep(self, place: int, current: tuple[Any, ...], part: Any) -> Any:  # noqa: ANN401
        """Remember `part` at `place`, with a copy of `current` (its lists and dicts copied)."""
        self.seen[place] = (tuple(_copied(value) for value in current), part)
        return part


def _copied(value: Any) -> Any:  # noqa: ANN401
    """A copy of a state's value as deep as its lists and dicts go (tuples and scalars are kept as they are)."""
    if isinstance(value, list):
        if value and isinstance(value[0], (list, dict)):
            return [_copied(item) for item in value]
        return list(value)
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    return value
