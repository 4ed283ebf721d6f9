"""Parts of an observation written once and handed out again while what they show has not changed.

A part is the slots a pure function writes from some of the state's values (a seat's shop, a hand),
all inside one stretch of the vector. `Kept` remembers, per place, the values last met (shallow copies,
compared by value with the state's own before use, so a part never shows another position) and the part
written from them. `put` hands a part to an encoder's `out`: as one stretch of the vector where `out`
takes blocks (`add_block(start, values)`, copied into the vector before `out`'s own slots are set over
it), slot by slot otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from copy import copy
from typing import Any, NamedTuple

import numpy as np

from sdk.envs.encoding import EncodingError


class Part(NamedTuple):
    """Slots written for one stretch of the vector: as a dict, and as the whole stretch (zeros included)."""

    slots: dict[int, float]
    start: int
    values: np.ndarray


class Kept:
    """The part last written at each place, with copies of the values it was written from."""

    __slots__ = ("game_id", "parts")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.parts: dict[Hashable, tuple[tuple[Any, ...], Part]] = {}

    def part(self, place: Hashable, inputs: tuple[Any, ...], write: Callable[..., dict[int, float]], start: int, size: int) -> Part:
        """`write(*inputs)` (slots within start..start+size-1), or what it wrote when last given equal inputs here."""
        known = self.parts.get(place)
        if known is not None and known[0] == inputs:
            return known[1]
        slots = write(*inputs)
        values = np.zeros(size, np.float32)
        for slot, value in slots.items():
            if not start <= slot < start + size:
                raise EncodingError(
                    f"{self.game_id}: slot {slot} of part {place!r} lies outside its stretch {start}..{start + size - 1}"
                )
            values[slot - start] = value
        written = Part(slots, start, values)
        self.parts[place] = (tuple(copy(value) for value in inputs), written)
        return written


def put(out: dict[int, float], add_block: Callable[[int, np.ndarray], None] | None, part: Part) -> None:
    """Hand a part to `out`: one block where `out` takes blocks (`add_block`, looked up once per observation), else its slots."""
    if add_block is None:
        out.update(part.slots)
    else:
        add_block(part.start, part.values)
