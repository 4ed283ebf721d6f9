"""What the encoders from the state share: parts of a vector remembered by the state they come from.

Most of a position is as it was a step before (a DEEP DIVE tableau, a Magnificent camp), so an
encoder writes such a part once (slot -> value, frozen as numpy arrays: a block of the vector, or a run of
scattered slots) and keeps it in a `Memory` keyed by exactly the state it was made from; later positions
add the arrays to their `Slots` as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from sdk.envs.encoding import EncodingError

#: parts kept per memory before it is emptied (random play makes new ones forever)
MEMORY_SIZE = 20_000

#: slot numbers and values (for `Slots.add_run`)
Run = tuple[np.ndarray, np.ndarray]
#: a first slot and the values from it on (for `Slots.add_block`)
Block = tuple[int, np.ndarray]
_EMPTY: Run = (np.zeros(0, np.intp), np.zeros(0, np.float32))


def frozen(slots: dict[int, float]) -> Run:
    """Slots as the (slot numbers, values) arrays of a run."""
    if not slots:
        return _EMPTY
    return np.fromiter(slots.keys(), np.intp, len(slots)), np.fromiter(slots.values(), np.float32, len(slots))


class Memory:
    """Parts of vectors by the exact state they were made from (`key`); `make(slots)` writes a new one."""

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

    def keep(self, key: Hashable, part: Any) -> Any:  # noqa: ANN401 - a run or a block
        """Keep a part made by the caller."""
        if len(self.parts) >= MEMORY_SIZE:
            self.parts.clear()
        self.parts[key] = part
        return part


def check_cap(game_id: str, path: str, items: int, cap: int) -> None:
    """EncodingError (as the view's encoding raises) when a list holds more items than its cap."""
    if items > cap:
        raise EncodingError(f"view field {path} holds {items} items, more than its cap {cap}")
