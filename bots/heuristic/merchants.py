"""Merchants of B99 heuristic: greedy placement on the trend cards of its open dungeons and its reputation cards.

Every shop is valued as: the best dungeon it could score this round (with a thumbs-up bonus), half
the current value of the other open dungeons, attribute sets and magic circles as they would score
now, and the ★ of reputation cards already met. The bot takes the tile, cell and rotation that
maximise that value (DP3-DP5 recompute the same plan from the view's pending answers), scores the
dungeon worth most now (DP6) and returns the reputation card it is least likely to meet (DP2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.merchants.data import ATTRIBUTES, COLOURS, KINDS, MerchantsData, Tile, load_data
from referee.games.merchants.patterns import score_face
from referee.games.merchants.shop import attribute_sets, circle_points, condition_met, legal_targets, magic_circles
from sdk import Bot, OptionInfo, Request

Cell = tuple[int, int]
Placed = tuple[str, int]
ROTATIONS = (0, 90, 180, 270)
THUMB_BONUS = 3.0
FUTURE_WEIGHT = 0.5
STAR_VALUE = 1.5
DISCARD_COST = 2.5


class HeuristicBot(Bot):
    """Greedy on the trend cards of its open dungeons and on its reputation cards."""

    name = "merchants-heuristic"

    def __init__(self) -> None:
        self.data: MerchantsData = load_data()
        #: The last placement plan (tile, target, rotation) and the position it was made for: DP4 and
        #: DP5 of the same placement find the same plan again, so they reuse it instead.
        self._plan: tuple[Any, str, tuple[int, int, str], int] | None = None

    def _plan_key(self, view: Mapping[str, Any]) -> Any:  # noqa: ANN401 - an opaque, hashable position key
        me = self._me(view)
        return (
            view.get("round", 1),
            tuple(sorted(self._shop(view).items())),
            tuple(me.get("unused_chips", [])),
            len(me.get("discards", [])),
            tuple(view.get("reputation_hand", [])),
        )

    def _planned(self, view: Mapping[str, Any], tile: str) -> tuple[tuple[int, int, str], int] | None:
        """The plan made at DP3 for this tile and position, if there is one."""
        if self._plan is None or self._plan[1] != tile or self._plan[0] != self._plan_key(view):
            return None
        return self._plan[2], self._plan[3]

    # ----- reading the view ---------------------------------------------------------------
    def _me(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        return view["seats"][view["seat"]]

    def _shop(self, view: Mapping[str, Any]) -> dict[Cell, Placed]:
        return {(t["row"], t["col"]): (t["tile"], t.get("rotation", 0)) for t in self._me(view).get("shop", [])}

    def _round_cards(self, view: Mapping[str, Any], dungeon: str, number: int) -> list[tuple[str, str, str | None]]:
        for row in view.get("layout", []):
            if row["dungeon"] != dungeon:
                continue
            cards: list[tuple[str, str, str | None]] = [(row["a_card"], row["a_face"], None), (row["b_card"], row["b_face"], None)]
            if number >= 2 and "c_card" in row:
                cards.append((row["c_card"], "", row["c_kind"]))
            if number >= 3 and "d_card" in view:
                cards.append((view["d_card"], "", view["d_kind"]))
            return cards
        return []

    # ----- valuing a shop -----------------------------------------------------------------
    def _dungeon_points(self, view: Mapping[str, Any], tiles: Mapping[Cell, Tile], dungeon: str, number: int) -> tuple[int, bool]:
        points = [score_face(self.data.face(card, face), tiles, kind) for card, face, kind in self._round_cards(view, dungeon, number)]
        return sum(points), bool(points) and all(p >= 1 for p in points)

    def _trend_value(self, view: Mapping[str, Any], tiles: Mapping[Cell, Tile]) -> float:
        number = max(1, view.get("round", 1))
        open_dungeons = list(self._me(view).get("unused_chips", []))
        if not open_dungeons:
            return 0.0
        values = []
        for dungeon in open_dungeons:
            points, thumb = self._dungeon_points(view, tiles, dungeon, number)
            values.append(points + (THUMB_BONUS if thumb else 0.0))
        values.sort(reverse=True)
        return values[0] + FUTURE_WEIGHT * sum(values[1:])

    def _final_value(self, view: Mapping[str, Any], shop: Mapping[Cell, Placed], tiles: Mapping[Cell, Tile], discards: int) -> float:
        circles = magic_circles(shop, self.data)
        value = float(attribute_sets(tiles) * self.data.attribute_set_points + circle_points(circles, self.data))
        value -= DISCARD_COST * discards
        for card in view.get("reputation_hand", []):
            spec = self.data.reputation[card]
            if condition_met(spec.condition, tiles, discards, circles):
                value += STAR_VALUE * spec.stars
        return value

    # ----- placement plan -----------------------------------------------------------------
    def _best_placement(
        self, view: Mapping[str, Any], tiles: Sequence[str], targets: Sequence[tuple[int, int, str]]
    ) -> tuple[str, tuple[int, int, str], int]:
        shop = self._shop(view)
        discards = len(self._me(view).get("discards", []))
        best: tuple[float, str, tuple[int, int, str], int] | None = None
        seen_designs: set[tuple[str, str, str, frozenset[str]]] = set()
        for tile_id in tiles:
            tile = self.data.tiles[tile_id]
            design = (tile.colour, tile.kind, tile.attribute, tile.halves)
            if design in seen_designs:
                continue
            seen_designs.add(design)
            rotations = _distinct_rotations(tile)
            for row, col, mode in targets:
                lost = 1 if mode == "replace" else 0
                trial = dict(shop)
                trial[(row, col)] = (tile_id, 0)
                tiles_now = {cell: self.data.tiles[placed] for cell, (placed, _) in trial.items()}
                trend = self._trend_value(view, tiles_now)
                for rotation in rotations:
                    trial[(row, col)] = (tile_id, rotation)
                    score = trend + self._final_value(view, trial, tiles_now, discards + lost)
                    if best is None or score > best[0]:
                        best = (score, tile_id, (row, col, mode), rotation)
        if best is None:
            raise ValueError("no placement to evaluate")
        return best[1], best[2], best[3]

    # ----- decisions ----------------------------------------------------------------------
    def choose(self, request: Request) -> str | int | OptionInfo:
        options = list(request.options)
        if len(options) == 1:
            return options[0]
        view = request.view
        decision = request.decision
        if decision == "choose_tile":
            shop = self._shop(view)
            tile, target, rotation = self._best_placement(view, [o.payload["tile"] for o in options], legal_targets(shop))
            self._plan = (self._plan_key(view), tile, target, rotation)
            return f"tile:{tile}"
        if decision == "choose_target":
            tile = view["pending_tile"]
            targets = [(o.payload["row"], o.payload["col"], o.payload["mode"]) for o in options]
            planned = self._planned(view, tile)
            if planned is not None and planned[0] in targets:
                row, col, mode = planned[0]
            else:
                _, (row, col, mode), _ = self._best_placement(view, [tile], targets)
            return f"{mode}:{row},{col}"
        if decision == "choose_rotation":
            target = view["pending_target"]
            chosen = (target["row"], target["col"], target["mode"])
            planned = self._planned(view, view["pending_tile"])
            if planned is not None and planned[0] == chosen:
                return f"rotation:{planned[1]}"
            _, _, rotation = self._best_placement(view, [view["pending_tile"]], [chosen])
            return f"rotation:{rotation}"
        if decision == "initial_rotation":
            return "rotation:90"
        if decision == "choose_dungeon":
            return self._choose_dungeon(view, options)
        if decision == "return_reputation":
            return self._return_reputation(view, options)
        return options[0]

    def _choose_dungeon(self, view: Mapping[str, Any], options: Sequence[OptionInfo]) -> OptionInfo:
        tiles = {cell: self.data.tiles[tile] for cell, (tile, _) in self._shop(view).items()}
        number = view.get("round", 1)

        def worth(option: OptionInfo) -> float:
            points, thumb = self._dungeon_points(view, tiles, option.payload["dungeon"], number)
            return points + (THUMB_BONUS if thumb else 0.0)

        return max(options, key=worth)

    def _return_reputation(self, view: Mapping[str, Any], options: Sequence[OptionInfo]) -> OptionInfo:
        shop = self._shop(view)
        tiles = {cell: self.data.tiles[tile] for cell, (tile, _) in shop.items()}
        discards = len(self._me(view).get("discards", []))
        circles = magic_circles(shop, self.data)

        def promise(option: OptionInfo) -> float:
            spec = self.data.reputation[option.payload["card"]]
            return spec.stars * _progress(spec.condition, tiles, discards, circles)

        return min(options, key=promise)


def _distinct_rotations(tile: Tile) -> list[int]:
    """Rotations that give the tile different edges (only magic circles care about rotation)."""
    rotations: list[int] = []
    seen: list[frozenset[str]] = []
    for index, halves in enumerate(tile.rotated_halves):
        if halves not in seen:
            seen.append(halves)
            rotations.append(ROTATIONS[index])
    return rotations


def _progress(condition: Mapping[str, Any], tiles: Mapping[Cell, Tile], discards: int, circles: int) -> float:
    """A rough chance (0..1) that the shop will meet the condition by the end of the game."""
    if condition_met(condition, tiles, discards, circles):
        return 1.0
    kind = condition["type"]
    n = condition.get("n", 1) or 1
    if kind == "no_discards":
        return 0.0
    if kind == "count_at_least":
        what = condition["count"]
        have = sum(1 for t in tiles.values() if (t.colour if "colour" in what else t.kind) == (what.get("colour") or what.get("kind")))
        return min(1.0, have / n) * 0.8
    if kind == "count_one_colour_at_least":
        return max(sum(1 for t in tiles.values() if t.colour == c) for c in COLOURS) / n * 0.8
    if kind == "each_colour_at_least":
        return min(sum(1 for t in tiles.values() if t.colour == c) for c in COLOURS) / n * 0.8
    if kind == "each_attribute_at_least":
        return min(sum(1 for t in tiles.values() if t.attribute == a) for a in ATTRIBUTES) / n * 0.6
    if kind == "all_colour_kind_pairs":
        return len({(t.colour, t.kind) for t in tiles.values()}) / (len(COLOURS) * len(KINDS)) * 0.6
    if kind == "circles_at_least":
        return min(1.0, circles / n) * 0.7
    if kind in ("no_adjacent_same_colour", "full_shop_centre_same_colour", "bbox_corners_same_colour"):
        return 0.15
    return 0.35
