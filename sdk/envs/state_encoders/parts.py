"""Parts of an observation written once and handed out again while what they show has not changed.

Most of a position is as it was a step before (a DEEP DIVE tableau, a Magnificent camp, a Merchants of
B99 seat's shop), so an encoder writes such a part once, as a block of the vector (its first slot and its
float32 values, zeros included), and finds it again by the state it came from: `Recent` keeps the part
last handed out at each place with copies of the state's values it came from (compared with the state's
own before any key is made), `Memory` keeps parts by a key of exactly the state they came from (for a
position met again). `block_taker(out)` hands blocks to an encoder's `out`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from referee.engine import GameState, Seat
from sdk.envs.encoding import EncodingError
from sdk.envs.state_encoders import StateEncoder



#: a part as a stretch of the vector: its first slot and its float32 values, zeros included (what
#: `Slots.blocks` holds; a plain tuple, which the vector unpacks fastest)
Block = tuple[int, np.ndarray]

#: the non-zero slots of the blocks last handed to a plain dict, by the block's id (the block is kept with
#: them, so an id is never taken for a later block's), emptied at PLAIN_SLOTS_SIZE entries
_plain_slots: dict[int, tuple[Block, dict[int, float]]] = {}
PLAIN_SLOTS_SIZE = 512


def block_slots(block: Block) -> dict[int, float]:
    """The block's non-zero slots (slot -> value), found once per block while it is among the last few hundred."""
    known = _plain_slots.get(id(block))
    if known is not None and known[0] is block:
        return known[1]
    start, values = block
    where = values.nonzero()[0]
    slots = dict(zip((where + start).tolist(), values[where].tolist()))
    _remember_slots(block, slots)
    return slots


def _remember_slots(block: Block, slots: dict[int, float]) -> None:
    if len(_plain_slots) >= PLAIN_SLOTS_SIZE:
        _plain_slots.clear()
    _plain_slots[id(block)] = (block, slots)


def make_block(start: int, size: int, make: Callable[[memoryview], None]) -> Block:
    """The block of `size` slots from slot `start` that `make` writes.

    `make` gets the block's slots (zeros, float32, through a memoryview: `slots[i] = value`, with `i`
    counted from `start`).
    """
    values: Any = np.zeros(size, np.float32)  # Any: numpy's stubs do not declare its buffer
    make(memoryview(values))
    return start, values


def block_of(game_id: str, part: str, slots: dict[int, float], start: int, size: int) -> Block:
    """The block of `size` slots from slot `start` holding `slots` (slot -> value, also what a plain dict is
    given for it); an EncodingError names a slot outside it."""
    values = np.zeros(size, np.float32)
    for slot, value in slots.items():
        if not start <= slot < start + size:
            raise EncodingError(f"{game_id}: slot {slot} of part {part} lies outside its stretch {start}..{start + size - 1}")
        values[slot - start] = value
    block = start, values
    _remember_slots(block, slots)
    return block


def block_taker(out: dict[int, float]) -> Callable[[Block], None]:
    """How an encoder hands a block to `out`, looked up once per observation.

    Where `out` keeps blocks (a `Slots`: copied into the vector before `out`'s own slots are set over them)
    the block is added to them; in a plain dict its non-zero slots are set (a block's zeros never stand over
    another part's slots, so both give the same vector).
    """
    blocks = getattr(out, "blocks", None)
    if blocks is not None:
        return blocks.append  # type: ignore[no-any-return]
    remembered = _plain_slots

    def set_slots(block: Block) -> None:
        known = remembered.get(id(block))
        out.update(known[1] if known is not None and known[0] is block else block_slots(block))

    return set_slots


def over_cap(path: str, items: int, cap: int) -> EncodingError:
    """The error the view's encoding raises for a list holding more items than its cap."""
    return EncodingError(f"view field {path} holds {items} items, more than its cap {cap}")


def naming_vocabulary_errors(game_id: str, write: StateEncoder) -> StateEncoder:
    """`write`, with a value outside its vocabulary (a KeyError of a slot table) raised as an EncodingError."""

    def encode(state: GameState, seat: Seat, out: dict[int, float]) -> None:
        try:
            write(state, seat, out)
        except KeyError as error:  # the view's encoding names the field
            raise EncodingError(f"{game_id}: a value of seat {seat}'s view is outside its vocabulary: {error}") from None

    return encode


def check_cap(game_id: str, path: str, items: int, cap: int) -> None:
    """EncodingError (as the view's encoding raises) when a list holds more items than its cap."""
    if items > cap:
        raise over_cap(path, items, cap)


class Recent:
    """The part last handed out at each place, with the state it came from, compared before any key is made.

    Most parts are as they were one step before; comparing the state's own lists with copies of them is
    cheaper than making (and hashing) a key of tuples. `current` is a tuple of the state's values (lists
    and dicts as they are); on a change the caller makes the part (or finds it in a `Memory`) and calls `keep`.
    The copies go as deep as lists and dicts go, or, with `nested=False`, one level (for values whose
    items are replaced, never changed in place: quicker to copy).
    """

    def __init__(self, places: int, nested: bool = True) -> None:
        self.seen: list[tuple[Any, Block] | None] = [None] * places
        self.nested = nested

    def get(self, place: int, current: tuple[Any, ...]) -> Block | None:
        """The part last kept at `place` if it came from a state equal to `current`, else None."""
        entry = self.seen[place]
        if entry is not None and entry[0] == current:
            return entry[1]
        return None

    def keep(self, place: int, current: tuple[Any, ...], part: Block) -> Block:
        """Remember `part` at `place`, with a copy of `current` (its lists and dicts copied)."""
        copy = _copied if self.nested else _copy
        self.seen[place] = (tuple([copy(value) if isinstance(value, (list, dict)) else value for value in current]), part)
        return part


def _copy(value: list[Any] | dict[Any, Any]) -> list[Any] | dict[Any, Any]:
    return value.copy()


def _copied(value: Any) -> Any:  # noqa: ANN401
    """A copy of a state's value as deep as its lists and dicts go (tuples and scalars are kept as they are)."""
    if isinstance(value, list):
        if value and isinstance(value[0], (list, dict)):
            return [_copied(item) for item in value]
        return list(value)
    if isinstance(value, dict):
        for item in value.values():
            if isinstance(item, (list, dict)):
                return {key: _copied(item) for key, item in value.items()}
        return value.copy()
    return value


# Memory is a subclass of the wire's Blocks, a Python class: it lives in its own module, which a compiled build of
# this one leaves as Python (a compiled class cannot derive from it)
from sdk.envs.state_encoders.memory import MEMORY_SIZE, Memory  # noqa: E402
