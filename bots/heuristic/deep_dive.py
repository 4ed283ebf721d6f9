"""DEEP DIVE heuristic bot: push-your-luck odds from the unrevealed tiles and row (set) completion.

Each choice is valued as the expected gain of the rest of this dive. A tile's gain is how much it
raises a row potential (complete rows at full value, incomplete rows at half value plus a share of
what completing them would add, a share that shrinks as the end nears). The value of arriving at a
depth is the best of taking a face-up tile there, skipping on, or flipping, a flip being the
average over every unrevealed tile of that depth (each equally likely: face-down and removed
tiles cannot be told apart) of the best follow-up. Only the request is used, plus the public tile data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from referee.games.deep_dive.data import COLOURS, FOOD, OPEN_WATER, PREDATOR, ROCK, Tile, load_data
from referee.games.deep_dive.scoring import ai_score
from sdk import Bot, Request

NO_OPTION = float("-inf")
CAPTURE_COST = 0.3  # a lost penguin this turn; its skip right later is worth a little, the lost turn more
ROCK_VALUE = 2.0  # a later dive started deep


@lru_cache(maxsize=1 << 16)
def _potential(columns: tuple[tuple[int, ...], ...], share: float) -> float:
    """Complete rows at full value, incomplete ones at half plus `share` of the rest (cached: searches repeat them)."""
    total = 0.0
    for row in range(max(len(c) for c in columns)):
        values = [c[row] for c in columns if len(c) > row]
        row_sum = sum(values)
        if len(values) == 3:
            total += row_sum
        else:
            total += row_sum // 2 + share * (row_sum - row_sum // 2) * len(values) / 3
    return total


class _Position:
    """What the bot reads from a view: its columns, captures, and the depths' face-up and unrevealed tiles."""

    def __init__(self, view: Mapping[str, Any], seat: int, tiles: Mapping[str, Tile]) -> None:
        self.tiles = tiles
        board = view["boards"][seat]
        self.columns = [[t["value"] for t in board.get(colour, [])] for colour in COLOURS]
        self.captured_depths = set(board.get("captured_depths", []))
        self.captures = len(board.get("captured_depths", []))
        self.end_triggered = bool(view.get("end_triggered"))
        self.final_round = bool(view.get("final_round"))
        self.depths = {d["depth"]: d for d in view["depths"]}
        if self.final_round:
            self.share, self.rock_value = 0.0, 0.0
        elif self.end_triggered:
            self.share, self.rock_value = 0.2, 0.5
        else:
            self.share, self.rock_value = 0.45, ROCK_VALUE
        self._now = self.potential(self.columns)
        self._gain_cache: dict[str, float] = {}
        self._arrive_cache: dict[int, float] = {}

    def potential(self, columns: Sequence[Sequence[int]]) -> float:
        return _potential(tuple(tuple(column) for column in columns), self.share)

    def gain(self, tile_id: str) -> float:
        """What holding this tile is worth now."""
        if tile_id not in self._gain_cache:
            tile = self.tiles[tile_id]
            if tile.type == FOOD:
                columns = [list(c) for c in self.columns]
                columns[tile.colour_index].append(tile.value)
                value = self.potential(columns) - self._now
            elif tile.type == ROCK:
                value = self.rock_value
            else:
                value = NO_OPTION
            self._gain_cache[tile_id] = value
        return self._gain_cache[tile_id]

    def best_take(self, depths: Sequence[int]) -> float:
        gains = [self.gain(t["id"]) for d in depths for t in self.depths[d]["available"]]
        return max(gains, default=NO_OPTION)

    def can_skip(self, depth: int) -> bool:
        exhausted = self.depths[depth]["face_down"] == 0
        return depth <= 4 and (depth in self.captured_depths or (self.end_triggered and exhausted))

    def flip_value(self, depth: int) -> float:
        """Expected value of flipping at `depth` and playing on well."""
        unseen = self.depths[depth]["unseen"]
        if self.depths[depth]["face_down"] == 0 or not unseen:
            return NO_OPTION
        deeper = self.arrive(depth + 1) if depth < 5 else NO_OPTION
        total = 0.0
        for tile_id in unseen:
            kind = self.tiles[tile_id].type
            if kind == PREDATOR:
                if self.captures == 2:
                    total += max(self.best_take(sorted(self.captured_depths | {depth})), 0.0)
                else:
                    total -= CAPTURE_COST
            elif kind == OPEN_WATER:
                total += max(deeper, 0.0)
            else:
                total += max(self.gain(tile_id), deeper)
        return total / len(unseen)

    def arrive(self, depth: int) -> float:
        """Expected value of the diving penguin reaching `depth` (0 = surfacing empty)."""
        if depth not in self._arrive_cache:
            best = max(
                self.best_take([depth]),
                self.flip_value(depth),
                self.arrive(depth + 1) if self.can_skip(depth) else NO_OPTION,
            )
            self._arrive_cache[depth] = 0.0 if best == NO_OPTION else best
        return self._arrive_cache[depth]


class HeuristicBot(Bot):
    """Maximises the expected gain of each dive; see the module docstring."""

    name = "deep_dive_heuristic"

    def __init__(self) -> None:
        self.tiles = load_data().by_id

    def choose(self, request: Request) -> str:
        view = request.view
        position = _Position(view, request.seat, self.tiles)
        depth = int(view.get("current_depth", 0))
        scores: dict[str, float] = {}
        for option in request.options:
            payload = option.payload
            action = payload.get("action")
            if action == "dive":
                scores[option.id] = position.arrive(1)
            elif action == "rock":
                scores[option.id] = position.arrive(int(payload["depth"])) - position.rock_value
            elif action in ("take", "retreat_take"):
                scores[option.id] = position.gain(payload["tile"])
            elif action == "flip":
                scores[option.id] = position.flip_value(depth)
            elif action == "skip":
                scores[option.id] = position.arrive(depth + 1)
            elif action == "keep":
                scores[option.id] = position.gain(view["just_flipped"]["id"])
            elif action == "dive_on":
                scores[option.id] = position.arrive(depth + 1)
            elif action == "ai_give":
                # tied colours land in the same AI row, so the AI gains alike; keep what we want most
                scores[option.id] = -self._ai_gain(view, payload["tile"]) - position.gain(payload["tile"])
            else:
                scores[option.id] = 0.0
        return max(request.options, key=lambda o: scores[o.id]).id

    def _ai_gain(self, view: Mapping[str, Any], tile_id: str) -> float:
        """How much the solo AI's score rises if it takes this tile."""
        ai = view["ai"]
        difficulty = view.get("ai_difficulty", "medium")
        columns = [[t["value"] for t in ai.get(colour, [])] for colour in COLOURS]
        rocks, water = len(ai.get("rocks", [])), len(ai.get("open_water", []))
        before = ai_score(columns, rocks, water, difficulty)
        tile = self.tiles[tile_id]
        columns[tile.colour_index].append(tile.value)
        return ai_score(columns, rocks, water, difficulty) - before
