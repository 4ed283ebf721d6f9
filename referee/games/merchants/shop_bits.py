"""A finished shop as bit masks, for final scoring: attribute sets, magic circles and reputation conditions.

`shop.py` states these rules cell by cell (`attribute_sets`, `magic_circles`, `condition_met`); here
the same answers come from a few integer operations on the shop's cells, laid out as in
`bitboard.py` (a row is 16 bits, the empty margin keeps shifts from wrapping). A property test holds
both to the same results on random shops.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.errors import ComponentDataError
from referee.games.merchants.bitboard import MIN_WIDTH, NEAR, Board
from referee.games.merchants.data import ATTRIBUTES, COLOURS, EDGES, KINDS, WEAPONS, MerchantsData
from referee.games.merchants.shop import Cell, Placed

WIDTH = MIN_WIDTH
_EDGE_BIT = {edge: 1 << index for index, edge in enumerate(EDGES)}
_NORTH, _EAST, _SOUTH, _WEST = (_EDGE_BIT[edge] for edge in EDGES)
#: per tile id: (colour index, kind index, attribute index, its edges with a circle half as bits, by rotation // 90)
_TileCodes = dict[str, tuple[int, int, int, tuple[int, ...]]]
_CODES: dict[int, tuple[MerchantsData, _TileCodes]] = {}


def tile_codes(data: MerchantsData) -> _TileCodes:
    """Per tile id: its colour, kind and attribute as indexes into COLOURS, KINDS, ATTRIBUTES, and its circle edges."""
    made = _CODES.get(id(data))
    if made is None or made[0] is not data:
        codes = {
            tile.id: (
                COLOURS.index(tile.colour), KINDS.index(tile.kind), ATTRIBUTES.index(tile.attribute),
                tuple(sum(_EDGE_BIT[edge] for edge in halves) for halves in tile.rotated_halves),
            )
            for tile in data.tiles.values()
        }
        made = _CODES[id(data)] = (data, codes)
    return made[1]


class ShopBits:
    """A shop's cells, and the cells of each colour, kind and attribute and of each edge carrying a circle half."""

    __slots__ = ("shop", "cells", "colours", "kinds", "attributes", "edges")

    def __init__(self, shop: Mapping[Cell, Placed], cells: int, colours: list[int], kinds: list[int],
                 attributes: list[int], edges: list[int]) -> None:
        self.shop = shop
        self.cells = cells
        self.colours = colours
        self.kinds = kinds
        self.attributes = attributes
        #: cells with a circle half on their north, east, south and west edge
        self.edges = edges

    def board(self) -> Board:
        """The shop's bitboard for trend cards (`bitboard.board_of`), from these masks."""
        return Board(
            WIDTH, self.cells,
            {colour: mask for colour, mask in zip(COLOURS, self.colours) if mask},
            {kind: mask for kind, mask in zip(KINDS, self.kinds) if mask},
        )


def shop_bits(shop: Mapping[Cell, Placed], data: MerchantsData) -> ShopBits | None:
    """The masks of a shop of (tile id, rotation); None if a cell lies beyond a game's reach (set up by hand)."""
    codes = tile_codes(data)
    colours = [0, 0, 0]
    kinds = [0, 0, 0, 0]
    attributes = [0, 0, 0]
    north = east = south = west = 0
    for cell, (tile_id, rotation) in shop.items():
        bit = NEAR.get(cell)
        if bit is None:
            return None
        colour, kind, attribute, rotated = codes[tile_id]
        colours[colour] |= bit
        kinds[kind] |= bit
        attributes[attribute] |= bit
        halves = rotated[rotation // 90]
        if halves:
            if halves & _NORTH:
                north |= bit
            if halves & _EAST:
                east |= bit
            if halves & _SOUTH:
                south |= bit
            if halves & _WEST:
                west |= bit
    return ShopBits(shop, colours[0] | colours[1] | colours[2], colours, kinds, attributes, [north, east, south, west])


def attribute_sets_of(bits: ShopBits) -> int:
    """Complete fire + ice + thunder sets."""
    return min(mask.bit_count() for mask in bits.attributes)


def circles_of(bits: ShopBits) -> int:
    """Completed circles: a half on an east edge facing one on a west edge, or on a south edge facing a north one."""
    north, east, south, west = bits.edges
    return (east & west >> 1).bit_count() + (south & north >> WIDTH).bit_count()


def _blocks(mask: int) -> int:
    """Top-left cells of the 2x2 blocks inside `mask`."""
    return mask & mask >> 1 & mask >> WIDTH & mask >> (WIDTH + 1)


def _touching_blocks(mask: int) -> int:
    """Top-left cells of the 2x2 blocks holding at least one cell of `mask`."""
    return mask | mask >> 1 | mask >> WIDTH | mask >> (WIDTH + 1)


def _lines(mask: int, step: int) -> int:
    """First cells of the lines of 4 inside `mask` (step 1: rows, WIDTH: columns)."""
    return mask & mask >> step & mask >> 2 * step & mask >> 3 * step


def _touching_lines(mask: int, step: int) -> int:
    return mask | mask >> step | mask >> 2 * step | mask >> 3 * step


def _any_line(mask: int) -> bool:
    return bool(_lines(mask, 1) or _lines(mask, WIDTH))


def _all_kinds_in(full: int, kinds: list[int], touching: Callable[[int], int]) -> bool:
    """Whether some group (by its first cell in `full`) holds every kind (4 cells, 4 kinds: each once)."""
    for mask in kinds:
        full &= touching(mask)
        if not full:
            return False
    return True


def condition_met_on(condition: Mapping[str, Any], bits: ShopBits, discards: int, circles: int) -> bool:
    """Whether the shop meets a reputation card's condition: `shop.condition_met` on the masks."""
    kind = condition["type"]
    n = condition.get("n", 0)
    if kind == "no_discards":
        return discards == 0
    if kind == "count_at_least":
        what = condition["count"]
        if "colour" in what:
            return bits.colours[COLOURS.index(what["colour"])].bit_count() >= n if what["colour"] in COLOURS else n <= 0
        return bits.kinds[KINDS.index(what["kind"])].bit_count() >= n if what["kind"] in KINDS else n <= 0
    if kind == "each_colour_at_least":
        return all(mask.bit_count() >= n for mask in bits.colours)
    if kind == "count_one_colour_at_least":
        return any(mask.bit_count() >= n for mask in bits.colours)
    if kind == "each_attribute_at_least":
        return all(mask.bit_count() >= n for mask in bits.attributes)
    if kind == "all_colour_kind_pairs":
        return all(colour & kind_mask for colour in bits.colours for kind_mask in bits.kinds)
    if kind == "block2x2_same_colour":
        return any(_blocks(mask) for mask in bits.colours)
    if kind == "block2x2_all_kinds":
        return _all_kinds_in(_blocks(bits.cells), bits.kinds, _touching_blocks)
    if kind == "line4_same_colour":
        return any(_any_line(mask) for mask in bits.colours)
    if kind == "line4_all_kinds":
        return _all_kinds_in(_lines(bits.cells, 1), bits.kinds, lambda mask: _touching_lines(mask, 1)) or _all_kinds_in(
            _lines(bits.cells, WIDTH), bits.kinds, lambda mask: _touching_lines(mask, WIDTH)
        )
    if kind == "line4_same_attribute":
        return any(_any_line(mask) for mask in bits.attributes)
    if kind == "line4_weapons":
        weapons = 0
        for weapon in WEAPONS:
            weapons |= bits.kinds[KINDS.index(weapon)]
        return _any_line(weapons)
    if kind == "circles_at_least":
        return circles >= n
    if kind == "no_adjacent_same_colour":
        return not any(mask & mask >> 1 or mask & mask >> WIDTH for mask in bits.colours)
    shop = bits.shop
    rows = [row for row, _ in shop]
    cols = [col for _, col in shop]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    if kind == "bbox_corners_same_colour":
        corners = {(top, left), (top, right), (bottom, left), (bottom, right)}
        return len(corners) == 4 and _same_colour(bits, corners)
    if kind == "full_shop_centre_same_colour":
        if len(shop) != 16 or bottom - top != 3 or right - left != 3:
            return False
        return _same_colour(bits, {(top + 1, left + 1), (top + 1, left + 2), (top + 2, left + 1), (top + 2, left + 2)})
    raise ComponentDataError(f"merchants: unknown reputation condition {kind!r}")


def _same_colour(bits: ShopBits, cells: set[Cell]) -> bool:
    """Whether every one of `cells` holds a tile, all of one colour."""
    mask = 0
    for cell in cells:
        mask |= NEAR[cell]
    return any(colour & mask == mask for colour in bits.colours)
