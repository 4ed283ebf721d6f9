"""The DEEP DIVE solo AI as a player can foresee it from the public view (spec 4.5 and 6).

The AI flips one tile a turn at its position (skipping exhausted depths) and keeps anything but a
predator; on a predator it takes the face-up food of that depth it holds fewest of, highest value
first. A player cannot change what its flips bring on average, only which face-up food waits for it
at the depths it will visit, and when the game ends. This module answers the questions a solo
player asks about it: where its next flips fall, what a tile is worth to it, what it would pick
from a depth's face-up food, and the chance of finishing ahead of it after its last flip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from referee.games.deep_dive.data import COLOURS, FOOD, OPEN_WATER, PREDATOR, ROCK, Tile
from referee.games.deep_dive.scoring import AI_OPEN_WATER_POINTS, AI_ROCK_POINTS, ai_score, complete_rows, row_score

Columns = tuple[tuple[int, ...], ...]
TileFace = tuple[str, str | None, int]  # (type, colour, value): what the AI's scoring tells tiles apart by


@dataclass(frozen=True)
class SoloAI:
    """The AI's tableau, position and scoring as the view shows them (`from_view` shares one per tableau and position,
    and the values that depend only on its food columns between those with the same)."""

    columns: Columns
    rocks: int
    open_water: int
    difficulty: str
    position: int
    #: (score, complete rows) after taking a tile, by the tile's (type, colour, value): tiles alike give the same.
    _after: dict[TileFace, tuple[int, int]] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: What its pick is worth, by the (colour, value) of the food offered, in the order offered (food columns only).
    _pick_gains: dict[tuple[tuple[str | None, int], ...], float] = field(default_factory=dict, repr=False, compare=False)
    #: Values a player works out from its food columns (see `table`).
    _tables: dict[tuple[Any, ...], dict[Any, float]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> SoloAI:
        """Read the AI from a solo view's `ai` field."""
        ai = view["ai"]
        columns = tuple(tuple(int(t["value"]) for t in ai.get(colour, [])) for colour in COLOURS)
        return _shared(
            cls,
            columns,
            len(ai.get("rocks", [])),
            len(ai.get("open_water", [])),
            str(view.get("ai_difficulty", "medium")),
            int(ai.get("position", 1)),
        )

    @cached_property
    def now(self) -> tuple[int, int]:
        """(score, complete rows) now."""
        return ai_score(self.columns, self.rocks, self.open_water, self.difficulty), complete_rows(self.columns)

    def with_tile(self, tile: Tile) -> tuple[int, int]:
        """(score, complete rows) after taking `tile`."""
        kind = (tile.type, tile.colour, tile.value)
        after = self._after.get(kind)
        if after is None:
            columns = [list(c) for c in self.columns]
            rocks, water = self.rocks, self.open_water
            if tile.type == FOOD:
                columns[tile.colour_index].append(tile.value)
            elif tile.type == ROCK:
                rocks += 1
            elif tile.type == OPEN_WATER:
                water += 1
            after = self._after[kind] = (ai_score(columns, rocks, water, self.difficulty), complete_rows(columns))
        return after

    def gain(self, tile: Tile) -> float:
        """How much taking `tile` raises its score."""
        if tile.type == FOOD:
            return float(self.with_tile(tile)[0] - self.now[0])
        if tile.type == ROCK:
            return float(AI_ROCK_POINTS[self.difficulty])
        if tile.type == OPEN_WATER:
            return float(AI_OPEN_WATER_POINTS[self.difficulty])
        return 0.0

    def pick(self, food: Iterable[Tile]) -> list[Tile]:
        """The food it may take on a predator (spec 4.5 A3): fewest-held colour, then highest value; ties listed."""
        candidates = [t for t in food if t.type == FOOD]
        if not candidates:
            return []
        fewest = min(len(self.columns[t.colour_index]) for t in candidates)
        candidates = [t for t in candidates if len(self.columns[t.colour_index]) == fewest]
        best = max(t.value for t in candidates)
        return [t for t in candidates if t.value == best]

    def pick_gain(self, food: Sequence[Tile]) -> float:
        """What its predator pick from this food is worth to it (the least of tied colours: the player gives)."""
        key = tuple((t.colour, t.value) for t in food if t.type == FOOD)
        value = self._pick_gains.get(key)
        if value is None:
            value = self._pick_gains[key] = min((self.gain(t) for t in self.pick(food)), default=0.0)
        return value

    def table(self, key: tuple[Any, ...]) -> dict[Any, float]:
        """A table of values worked out from its food columns and difficulty (what its picks are worth), kept for every
        decision that asks with the same `key`, which must name everything else the values depend on."""
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = {}
        return table

    def next_depths(self, face_down: Sequence[int], turns: int) -> list[int]:
        """Depths of its next `turns` flips, the face-down counts staying as they are (0 = no flip left)."""
        depths = []
        position = self.position
        for _ in range(turns):
            depth = position
            for _ in range(5):
                if face_down[depth - 1] > 0:
                    break
                depth = depth % 5 + 1
            else:
                depths.append(0)
                continue
            depths.append(depth)
            position = depth % 5 + 1
        return depths


@lru_cache(maxsize=256)
def _shared(cls: type[SoloAI], columns: Columns, rocks: int, open_water: int, difficulty: str, position: int) -> SoloAI:
    """One AI per tableau and position, so that what it has worked out serves every decision until they change."""
    return cls(columns, rocks, open_water, difficulty, position, *_food_tables(columns, difficulty))


@lru_cache(maxsize=256)
def _food_tables(columns: Columns, difficulty: str) -> tuple[dict[Any, float], dict[Any, dict[Any, float]]]:
    """Pick values and player tables for these food columns: its rocks, open water and position do not change them
    (a food tile's gain is a difference of scores with the same rock and open-water points)."""
    return {}, {}


def win_chance(
    mine: tuple[int, int], ai: SoloAI, depth: int, unseen: Sequence[Tile], available: Sequence[Tile]
) -> float:
    """Chance that `mine` (score, complete rows) is at least the AI's after its flip at `depth` (0 = none).

    Its flip is one of the depth's unseen tiles, each as likely; a predator makes it pick from `available`.
    """
    if depth == 0 or not unseen:
        return 1.0 if mine >= ai.now else 0.0
    pick = ai.pick(available)
    on_predator = min((ai.with_tile(t) for t in pick), default=ai.now)
    won = 0
    for tile in unseen:
        after = on_predator if tile.type == PREDATOR else ai.with_tile(tile)
        won += mine >= after
    return won / len(unseen)


def player_score(columns: Sequence[Sequence[int]]) -> tuple[int, int]:
    """A player's (score, complete rows)."""
    return row_score(columns), complete_rows(columns)
