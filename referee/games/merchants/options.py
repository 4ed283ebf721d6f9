"""Merchants of B99's options (DP1-DP6): each option made once and shared, a shop's targets cached by its cells.

Every decision of a game offers options made from a handful of values (a rotation, a tile id, a target
cell, a reputation card, a dungeon), so each option is made the first time it is offered and shared
after that. A shop's legal targets depend only on the cells it occupies: they are cached by those cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.engine import Option
from referee.games.merchants.option_cache import MadeOnUse
from referee.games.merchants.shop import PLACE, Cell, legal_targets

ROTATIONS = (0, 90, 180, 270)
#: a legal target: (row, col, mode)
Target = tuple[int, int, str]
#: how many shops' targets are kept before the cache starts afresh
_TARGETS_KEPT = 1 << 16


def _target_option(target: Target) -> Option:
    row, col, mode = target
    verb = "place at" if mode == PLACE else "replace the tile at"
    return Option(f"{mode}:{row},{col}", f"{verb} ({row}, {col})", {"row": row, "col": col, "mode": mode})


_ROTATION: MadeOnUse[int] = MadeOnUse(lambda rotation: Option(f"rotation:{rotation}", f"rotate {rotation}°", {"rotation": rotation}))
_TILE: MadeOnUse[str] = MadeOnUse(lambda tile: Option(f"tile:{tile}", f"take {tile}", {"tile": tile}))
_TARGET: MadeOnUse[Target] = MadeOnUse(_target_option)
_RETURN: MadeOnUse[str] = MadeOnUse(lambda card: Option(f"return:{card}", f"return reputation card {card}", {"card": card}))
_DUNGEON: MadeOnUse[str] = MadeOnUse(lambda dungeon: Option(f"dungeon:{dungeon}", f"score the {dungeon} dungeon", {"dungeon": dungeon}))
#: DP1 and DP5
ROTATION_OPTIONS: tuple[Option, ...] = tuple(_ROTATION[rotation] for rotation in ROTATIONS)
#: the target options of a shop by its cells (only they are kept: a cache entry is two objects the collector tracks)
_BY_CELLS: dict[frozenset[Cell], tuple[Option, ...]] = {}


def tile_options(tiles: Iterable[str]) -> tuple[Option, ...]:
    """DP3: one option per tile of a draft hand, in sorted tile order."""
    return tuple(map(_TILE.__getitem__, sorted(tiles)))


def target_options(cells: Iterable[Cell]) -> tuple[Option, ...]:
    """DP4: one option per legal target of a shop occupying `cells`, sorted by (row, col)."""
    # A frozenset of a shop's cells reuses the hashes its dict keeps: cheaper than any key computed from the cells.
    key = frozenset(cells)
    found = _BY_CELLS.get(key)
    if found is None:
        if len(_BY_CELLS) >= _TARGETS_KEPT:
            _BY_CELLS.clear()
        found = _BY_CELLS[key] = tuple(map(_TARGET.__getitem__, legal_targets(key)))
    return found


def targets(cells: Iterable[Cell]) -> tuple[Target, ...]:
    """The legal targets (row, col, mode) of a shop occupying `cells`, sorted by (row, col)."""
    return tuple((option.payload["row"], option.payload["col"], option.payload["mode"]) for option in target_options(cells))


def return_options(cards: Iterable[str]) -> list[Option]:
    """DP2: one option per reputation card held, in sorted order."""
    return list(map(_RETURN.__getitem__, sorted(cards)))


def dungeon_options(dungeons: Sequence[str]) -> list[Option]:
    """DP6: one option per unused dungeon chip, in the order the seat holds them."""
    return list(map(_DUNGEON.__getitem__, dungeons))

