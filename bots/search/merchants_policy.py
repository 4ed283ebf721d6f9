"""Merchants of B99's playout policy: the heuristic's own choices for less work.

The heuristic (bots/heuristic/merchants.py) values every tile, target cell and rotation; for one
tile on one cell it values the final shop once per rotation, although only magic circles (and
the reputation conditions that count them) change with rotation. Inside a search, where the
heuristic decides every move of every playout, this policy values what no rotation changes once
per tile and cell, and only circles per rotation. Same arithmetic in the same order, so the same
choices (the suite checks it on many positions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.heuristic.merchants import DISCARD_COST, STAR_VALUE, HeuristicBot
from referee.games.merchants.data import Tile
from referee.games.merchants.shop import attribute_sets, circle_points, condition_met, magic_circles

Cell = tuple[int, int]
#: Reputation conditions whose truth depends on the shop's magic circles (so on rotations).
CIRCLE_CONDITIONS = frozenset({"circles_at_least"})


class FastMerchantsHeuristic(HeuristicBot):
    """The Merchants heuristic with rotation-independent values computed once per tile and cell."""

    name = "merchants-heuristic-fast"

    def __init__(self) -> None:
        super().__init__()
        #: The (view, tiles, discards) the cached values were made for; identity, since the heuristic
        #: builds one tiles mapping per tile and cell and values every rotation against it.
        self._fixed_for: tuple[Mapping[str, Any], Mapping[Cell, Tile], int] | None = None
        self._fixed: tuple[int, list[tuple[Any, bool | None]]] = (0, [])

    def _final_value(self, view: Mapping[str, Any], shop: Mapping[Cell, Any], tiles: Mapping[Cell, Tile], discards: int) -> float:
        made_for = self._fixed_for
        if made_for is None or made_for[0] is not view or made_for[1] is not tiles or made_for[2] != discards:
            cards = []
            for card in view.get("reputation_hand", []):
                spec = self.data.reputation[card]
                met = None if spec.condition["type"] in CIRCLE_CONDITIONS else condition_met(spec.condition, tiles, discards, 0)
                cards.append((spec, met))
            self._fixed_for = (view, tiles, discards)
            self._fixed = (attribute_sets(tiles) * self.data.attribute_set_points, cards)
        set_points, cards = self._fixed
        circles = magic_circles(shop, self.data)
        value = float(set_points + circle_points(circles, self.data))
        value -= DISCARD_COST * discards
        for spec, met in cards:
            if met is None:
                met = condition_met(spec.condition, tiles, discards, circles)
            if met:
                value += STAR_VALUE * spec.stars
        return value
