"""Shops as bitboards: the cells of each colour and kind as the bits of one integer.

A trend card then scores with a few integer operations over the whole shop instead of cell-by-cell
loops: a pattern's placements are the AND of shifted masks, groups grow by shifting, a template's
coverage is counted in bit-sliced counters. Cell (row, col) is bit `(row - top + PAD) * width +
(col - left + PAD)`; the empty margin of PAD rows and columns round the shop keeps every shift by a
pattern's reach (less than PAD cells) from wrapping one row's cells into another.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

Cell = tuple[int, int]
#: empty rows and columns round a shop: more than any pattern or template reaches (4 cells)
PAD = 4
#: the narrowest board row; wider shops (never in a game) get wider rows
MIN_WIDTH = 16


class TileLike(Protocol):
    @property
    def colour(self) -> str: ...

    @property
    def kind(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Board:
    """A shop as bit masks: every cell, each colour's cells and each kind's cells (absent = no cell)."""

    width: int
    cells: int
    colours: Mapping[str, int]
    kinds: Mapping[str, int]

    def colour(self, colour: str) -> int:
        return self.colours.get(colour, 0)

    def kind(self, kind: str | None) -> int:
        return self.kinds.get(kind, 0) if kind is not None else 0


#: the bit of each cell within 3 rows and columns of (0, 0): every cell a shop in a game can use (it starts at
#: (0, 0) and stays within 4x4), so a game's shop needs no frame of its own
NEAR: dict[Cell, int] = {
    (row, col): 1 << ((row + 3 + PAD) * MIN_WIDTH + col + 3 + PAD) for row in range(-3, 4) for col in range(-3, 4)
}


def board_of(shop: Mapping[Cell, TileLike]) -> Board:
    """The bitboard of a shop (cells mapped to tiles with a colour and a kind)."""
    if shop.keys() <= NEAR.keys():
        return _board(shop, MIN_WIDTH, NEAR)
    rows, cols = zip(*shop)
    top, left = min(rows) - PAD, min(cols) - PAD
    width = max(MIN_WIDTH, max(cols) - left + 1 + PAD)
    return _board(shop, width, {(row, col): 1 << ((row - top) * width + col - left) for row, col in shop})


def _board(shop: Mapping[Cell, TileLike], width: int, bit_of: Mapping[Cell, int]) -> Board:
    colours: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for cell, tile in shop.items():
        bit = bit_of[cell]
        colour, kind = tile.colour, tile.kind
        colours[colour] = colours.get(colour, 0) | bit
        kinds[kind] = kinds.get(kind, 0) | bit
    return Board(width, sum(colours.values()), colours, kinds)


@dataclass(frozen=True, slots=True)
class Shape:
    """A pattern or template under one rotation: its cells (rows and columns from 0), their tokens, and the
    cells' bit offsets from the anchor on a board of MIN_WIDTH bits."""

    cells: tuple[Cell, ...]
    tokens: tuple[str, ...]
    shifts: tuple[int, ...]

    @staticmethod
    def of(entries: Sequence[tuple[int, int, str]]) -> Shape:
        cells = tuple((row, col) for row, col, _ in entries)
        return Shape(cells, tuple(token for _, _, token in entries), offsets(cells, MIN_WIDTH))

    def shifts_on(self, width: int) -> tuple[int, ...]:
        """The cells' bit offsets on a board `width` bits wide."""
        return self.shifts if width == MIN_WIDTH else offsets(self.cells, width)

    def anchors(self, masks: Mapping[str, int], width: int) -> int:
        """Where the shape's anchor can go with each cell on a bit of its token's mask (`masks[token]`)."""
        found = -1
        for token, shift in zip(self.tokens, self.shifts_on(width)):
            found &= masks[token] >> shift
            if not found:
                return 0
        return found


@lru_cache(maxsize=None)
def offsets(cells: tuple[Cell, ...], width: int) -> tuple[int, ...]:
    """Bit offsets of pattern cells (rows and columns from 0) on a board `width` bits wide."""
    return tuple(row * width + col for row, col in cells)


def spread(found: int, shifts: Sequence[int]) -> int:
    """Every cell covered by a pattern placed at each anchor in `found`."""
    covered = 0
    for shift in shifts:
        covered |= found << shift
    return covered


def bits(mask: int) -> Iterator[int]:
    """The positions of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def component_sizes(mask: int, width: int) -> list[int]:
    """Sizes of the orthogonally connected groups of set bits (flood fill by shifting)."""
    sizes = []
    while mask:
        group = mask & -mask
        while True:
            grown = (group | group << 1 | group >> 1 | group << width | group >> width) & mask
            if grown == group:
                break
            group = grown
        sizes.append(group.bit_count())
        mask ^= group
    return sizes


def best_overlap(mask: int, shifts: Sequence[int]) -> int:
    """The most set bits of `mask` one placement of a template (cells at `shifts` from its anchor) covers.

    Counts every anchor at once: bit-sliced counters, `planes[b]` holding bit b of each anchor's count.
    """
    planes: list[int] = []
    for shift in shifts:
        carry = mask >> shift
        for index, plane in enumerate(planes):
            if not carry:
                break
            planes[index], carry = plane ^ carry, plane & carry
        if carry:
            planes.append(carry)
    best = 0
    candidates = -1
    for index in range(len(planes) - 1, -1, -1):
        if candidates & planes[index]:
            candidates &= planes[index]
            best |= 1 << index
    return best


def max_disjoint_masks(instances: Sequence[int]) -> int:
    """The largest number of instances (cell masks) that pairwise share no cell (exact, branching on one cell)."""
    if not instances:
        return 0
    first = instances[0]
    cell = first & -first
    with_cell = [instance for instance in instances if instance & cell]
    without = [instance for instance in instances if not instance & cell]
    best = max_disjoint_masks(without)
    for chosen in with_cell:
        best = max(best, 1 + max_disjoint_masks([instance for instance in without if not instance & chosen]))
    return best
