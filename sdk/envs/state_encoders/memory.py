"""`Memory`: parts of observation vectors kept by the exact state they were made from (sdk/envs/state_encoders/parts.py).

Its own module because it derives from the wire's `Blocks`, a Python class that a compiled parts.py could not derive
from; parts.py hands it out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from referee.wire import Blocks
from sdk.envs.state_encoders.parts import Block, make_block

#: parts kept per memory before it is emptied (random play makes new ones forever)
MEMORY_SIZE = 20_000


class Memory(Blocks):
    """Parts of vectors by the exact state they were made from (`key`), emptied when it holds MEMORY_SIZE
    (the wire's memory of serialized parts, holding blocks of the vector instead of bytes)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(MEMORY_SIZE)

    def block(self, key: Hashable, start: int, size: int, make: Callable[[memoryview], None]) -> Block:
        """Write the part for `key` with `make` (as `make_block`) and keep it; callers look it up first."""
        return self.keep(key, make_block(start, size, make))
