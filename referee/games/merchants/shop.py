"""A shop's geometry and end-of-game checks: legal target cells, magic circles, attributes, reputation conditions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.errors import ComponentDataError
from referee.games.merchants.data import ATTRIBUTES, COLOURS, KINDS, WEAPONS, MerchantsData, Tile

Cell = tuple[int, int]
#: a placed tile: (tile id, rotation in degrees)
Placed = tuple[str, int]
MAX_SIDE = 4
PLACE = "place"
REPLACE = "replace"


def legal_targets(occupied: Iterable[Cell]) -> list[tuple[int, int, str]]:
    """Every legal target cell (spec 4.1) as (row, col, mode), sorted by (row, col).

    A new tile keeps the shop within MAX_SIDE rows and columns, so only a window of the rows and columns it
    may use is scanned: the shop as bits of a grid with a margin of one all round, and the empty cells
    beside it found with four shifts.
    """
    rows: list[int] = []
    cols: list[int] = []
    for row, col in occupied:
        rows.append(row)
        cols.append(col)
    low_row, high_row, low_col, high_col = min(rows), max(rows), min(cols), max(cols)
    first_row, last_row = high_row - MAX_SIDE + 1, low_row + MAX_SIDE - 1
    first_col, last_col = high_col - MAX_SIDE + 1, low_col + MAX_SIDE - 1
    # cell (row, col) is bit (row - top) * width + col - left
    top, left = min(first_row, low_row) - 1, min(first_col, low_col) - 1
    width = max(last_col, high_col) - left + 2
    shop = 0
    for row, col in zip(rows, cols):
        shop |= 1 << ((row - top) * width + col - left)
    beside = ((shop << 1) | (shop >> 1) | (shop << width) | (shop >> width)) & ~shop
    targets: list[tuple[int, int, str]] = []
    for row in range(first_row, last_row + 1):
        line = (row - top) * width - left
        for col in range(first_col, last_col + 1):
            bit = 1 << (line + col)
            if shop & bit:
                targets.append((row, col, REPLACE))
            elif beside & bit:
                targets.append((row, col, PLACE))
    return targets


def tiles_at(shop: Mapping[Cell, Placed], data: MerchantsData) -> dict[Cell, Tile]:
    """The shop as cells mapped to tile data (what trend cards and reputation conditions read)."""
    return {cell: data.tiles[tile_id] for cell, (tile_id, _) in shop.items()}


def magic_circles(shop: Mapping[Cell, Placed], data: MerchantsData) -> int:
    """Completed circles: adjacent pairs whose shared edge carries a half on both tiles (after rotation)."""
    halves = {cell: data.tiles[tile_id].rotated_halves[rotation // 90] for cell, (tile_id, rotation) in shop.items()}
    count = 0
    for (row, col), mine in halves.items():
        if "E" in mine and "W" in halves.get((row, col + 1), ()):
            count += 1
        if "S" in mine and "N" in halves.get((row + 1, col), ()):
            count += 1
    return count


def circle_points(circles: int, data: MerchantsData) -> int:
    return data.circle_points[min(circles, len(data.circle_points) - 1)]


def attribute_sets(tiles: Mapping[Cell, Tile]) -> int:
    """Complete fire + ice + thunder sets."""
    return min(sum(1 for tile in tiles.values() if tile.attribute == attribute) for attribute in ATTRIBUTES)


def _lines_of_four(tiles: Mapping[Cell, Tile]) -> list[list[Tile]]:
    """Every row or column of 4 adjacent tiles (left to right, top to bottom)."""
    lines = []
    for row, col in tiles:
        if (row, col + 3) in tiles and (row, col + 1) in tiles and (row, col + 2) in tiles:
            lines.append([tiles[(row, col + k)] for k in range(4)])
        if (row + 3, col) in tiles and (row + 1, col) in tiles and (row + 2, col) in tiles:
            lines.append([tiles[(row + k, col)] for k in range(4)])
    return lines


def _blocks(tiles: Mapping[Cell, Tile]) -> list[list[Tile]]:
    """Every 2x2 block of tiles, by its top-left cell."""
    blocks = []
    for row, col in tiles:
        if (row + 1, col + 1) in tiles and (row, col + 1) in tiles and (row + 1, col) in tiles:
            blocks.append([tiles[(row, col)], tiles[(row, col + 1)], tiles[(row + 1, col)], tiles[(row + 1, col + 1)]])
    return blocks


def _count(tiles: Mapping[Cell, Tile], what: Mapping[str, str]) -> int:
    if "colour" in what:
        return sum(1 for tile in tiles.values() if tile.colour == what["colour"])
    return sum(1 for tile in tiles.values() if tile.kind == what["kind"])


def condition_met(condition: Mapping[str, Any], tiles: Mapping[Cell, Tile], discards: int, circles: int) -> bool:
    """Whether the final shop meets a reputation card's condition (types from the component data)."""
    kind = condition["type"]
    n = condition.get("n", 0)
    if kind == "no_discards":
        return discards == 0
    if kind == "count_at_least":
        return _count(tiles, condition["count"]) >= n
    if kind == "each_colour_at_least":
        return all(_count(tiles, {"colour": colour}) >= n for colour in COLOURS)
    if kind == "count_one_colour_at_least":
        return any(_count(tiles, {"colour": colour}) >= n for colour in COLOURS)
    if kind == "each_attribute_at_least":
        return all(sum(1 for t in tiles.values() if t.attribute == attribute) >= n for attribute in ATTRIBUTES)
    if kind == "all_colour_kind_pairs":
        return len({(tile.colour, tile.kind) for tile in tiles.values()}) == len(COLOURS) * len(KINDS)
    if kind == "block2x2_same_colour":
        return any(len({tile.colour for tile in block}) == 1 for block in _blocks(tiles))
    if kind == "block2x2_all_kinds":
        return any(len({tile.kind for tile in block}) == 4 for block in _blocks(tiles))
    if kind == "line4_same_colour":
        return any(len({tile.colour for tile in line}) == 1 for line in _lines_of_four(tiles))
    if kind == "line4_all_kinds":
        return any(len({tile.kind for tile in line}) == 4 for line in _lines_of_four(tiles))
    if kind == "line4_same_attribute":
        return any(len({tile.attribute for tile in line}) == 1 for line in _lines_of_four(tiles))
    if kind == "line4_weapons":
        return any(all(tile.kind in WEAPONS for tile in line) for line in _lines_of_four(tiles))
    if kind == "circles_at_least":
        return circles >= n
    if kind == "no_adjacent_same_colour":
        return not any(
            (near := tiles.get(neighbour)) is not None and near.colour == tile.colour
            for (row, col), tile in tiles.items()
            for neighbour in ((row, col + 1), (row + 1, col))
        )
    rows = [row for row, _ in tiles]
    cols = [col for _, col in tiles]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    if kind == "bbox_corners_same_colour":
        corners = {(top, left), (top, right), (bottom, left), (bottom, right)}
        return len(corners) == 4 and all(c in tiles for c in corners) and len({tiles[c].colour for c in corners}) == 1
    if kind == "full_shop_centre_same_colour":
        if len(tiles) != 16 or bottom - top != 3 or right - left != 3:
            return False
        centre = [(top + 1, left + 1), (top + 1, left + 2), (top + 2, left + 1), (top + 2, left + 2)]
        return len({tiles[cell].colour for cell in centre}) == 1
    raise ComponentDataError(f"merchants: unknown reputation condition {kind!r}")
