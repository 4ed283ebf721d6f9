"""DEEP DIVE component data: the 160 ocean tiles and the per-player-count setup table, validated on load."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from referee.components import load_component_json, require
from referee.engine import ChanceOutcome

PACKAGE = "referee.games.deep_dive"
DATA_FILE = "deep_dive.json"

DEPTHS = (1, 2, 3, 4, 5)
COLOURS = ("pink", "green", "yellow")
FOOD, ROCK, OPEN_WATER, PREDATOR = "food", "rock", "open_water", "predator"
TILE_TYPES = (FOOD, ROCK, OPEN_WATER, PREDATOR)
SETS = ("main", "extra")
PENGUINS_PER_PLAYER = 3
_COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}
# Within a set, ids run: pink, green, yellow food (each by ascending value), rocks, open water, predators.
_TYPE_ORDER = {ROCK: 3, OPEN_WATER: 4, PREDATOR: 5}


@dataclass(frozen=True, slots=True)
class Tile:
    """One ocean tile; `index` is its position in the id-sorted tile table (ids sort like indices)."""

    index: int
    id: str
    depth: int
    set: str
    type: str
    colour: str | None = None
    value: int = 0

    @property
    def colour_index(self) -> int:
        """0, 1, 2 for pink, green, yellow food; -1 for other tiles."""
        return _COLOUR_INDEX[self.colour] if self.colour is not None else -1

    def describe(self) -> str:
        """A human description, e.g. 'D2-10 (yellow 3)' or 'D1-25 (open water)'."""
        if self.type == FOOD:
            return f"{self.id} ({self.colour} {self.value})"
        return f"{self.id} ({self.type.replace('_', ' ')})"

    def to_wire(self) -> dict[str, Any]:
        """The tile as the proto `Tile` message dict."""
        message: dict[str, Any] = {"id": self.id, "depth": self.depth, "type": self.type}
        if self.type == FOOD:
            message["colour"] = self.colour
            message["value"] = self.value
        return message


@dataclass(frozen=True, slots=True)
class Setup:
    """One row of the setup table: which sets are used and how many tiles each depth loses."""

    players: int
    sets: tuple[str, ...]
    removed_per_depth: int
    face_down_per_depth: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeepDiveData:
    """All component data the engine uses; immutable and shared by every state."""

    tiles: tuple[Tile, ...]
    by_id: Mapping[str, Tile]
    setups: Mapping[int, Setup]
    _draws: dict[int, tuple[ChanceOutcome, ...]] = field(default_factory=dict, compare=False, repr=False)

    def draw_outcomes(self, pool: int) -> tuple[ChanceOutcome, ...]:
        """Indexed by tile index: the outcome of drawing that tile from `pool` equally likely tiles."""
        outcomes = self._draws.get(pool)
        if outcomes is None:
            outcomes = self._draws[pool] = tuple(ChanceOutcome(t.id, 1.0 / pool, t.id) for t in self.tiles)
        return outcomes

    def tiles_in_play(self, players: int, depth: int) -> tuple[int, ...]:
        """Indices of the tiles of `depth` in the sets used at this player count (before removals)."""
        sets = self.setups[players].sets
        return tuple(t.index for t in self.tiles if t.depth == depth and t.set in sets)


def _tile_sort_key(tile: Tile) -> tuple[int, int, int, int]:
    kind = tile.colour_index if tile.type == FOOD else _TYPE_ORDER[tile.type]
    return (tile.depth, SETS.index(tile.set), kind, tile.value)


def parse_data(raw: Any, package: str = PACKAGE) -> DeepDiveData:
    """Validate the raw JSON and build the data; ComponentDataError says what is wrong."""
    require(isinstance(raw, dict), package, "top level must be an object")
    raw_tiles = raw.get("tiles")
    require(isinstance(raw_tiles, list) and len(raw_tiles) == 160, package, "'tiles' must list 160 tiles")
    tiles: list[Tile] = []
    for position, entry in enumerate(raw_tiles):
        where = f"tiles[{position}]"
        require(isinstance(entry, dict), package, f"{where} must be an object")
        tile_id, depth, tile_set, kind = entry.get("id"), entry.get("depth"), entry.get("set"), entry.get("type")
        require(isinstance(tile_id, str), package, f"{where}: id must be a string")
        require(depth in DEPTHS, package, f"{tile_id}: depth {depth!r} is not 1-5")
        require(tile_set in SETS, package, f"{tile_id}: set {tile_set!r} is not main or extra")
        require(kind in TILE_TYPES, package, f"{tile_id}: type {kind!r} is unknown")
        colour, value = entry.get("colour"), entry.get("value", 0)
        if kind == FOOD:
            require(colour in COLOURS, package, f"{tile_id}: food colour {colour!r} is unknown")
            require(isinstance(value, int) and value > 0, package, f"{tile_id}: food value {value!r} must be positive")
        else:
            require(colour is None and value == 0, package, f"{tile_id}: a {kind} tile has no colour or value")
        tiles.append(Tile(position, tile_id, depth, tile_set, kind, colour, value))
    for depth in DEPTHS:
        in_depth = [t for t in tiles if t.depth == depth]
        expected_ids = [f"D{depth}-{n:02d}" for n in range(1, len(in_depth) + 1)]
        require([t.id for t in in_depth] == expected_ids, package, f"depth {depth}: ids must run D{depth}-01 upwards")
        require(sorted(in_depth, key=_tile_sort_key) == in_depth, package, f"depth {depth}: tiles out of id order")
    require([t.depth for t in tiles] == sorted(t.depth for t in tiles), package, "tiles must be listed by depth")
    _check_summary(raw.get("depth_summary"), tiles, package)
    setups = _parse_setups(raw.get("setup_by_player_count"), tiles, package)
    return DeepDiveData(tuple(tiles), {t.id: t for t in tiles}, setups)


def _check_summary(summary: Any, tiles: Sequence[Tile], package: str) -> None:
    require(isinstance(summary, list) and len(summary) == 10, package, "'depth_summary' must have 10 rows")
    for row in summary:
        require(isinstance(row, dict), package, "depth_summary rows must be objects")
        group = [t for t in tiles if t.depth == row.get("depth") and t.set == row.get("set")]
        where = f"depth {row.get('depth')} {row.get('set')}"
        require(len(group) == row.get("total"), package, f"{where}: {len(group)} tiles, summary says {row.get('total')}")
        for kind in TILE_TYPES:
            count = sum(1 for t in group if t.type == kind)
            require(count == row.get(kind), package, f"{where}: {count} {kind} tiles, summary says {row.get(kind)}")
        for colour in COLOURS:
            values = sorted(t.value for t in group if t.colour == colour)
            require(values == row.get("food_values_per_colour"), package, f"{where}: {colour} values {values}")


def _parse_setups(rows: Any, tiles: Sequence[Tile], package: str) -> dict[int, Setup]:
    require(isinstance(rows, list), package, "'setup_by_player_count' must be a list")
    setups: dict[int, Setup] = {}
    for row in rows:
        require(isinstance(row, dict), package, "setup rows must be objects")
        players, sets, removed = row.get("players"), row.get("sets"), row.get("remove_per_depth")
        face_down = row.get("face_down_per_depth")
        require(isinstance(players, int) and 1 <= players <= 6, package, f"setup: bad player count {players!r}")
        require(isinstance(sets, list) and sets and all(s in SETS for s in sets), package, f"setup {players}p: bad sets")
        require(isinstance(removed, int) and removed >= 0, package, f"setup {players}p: bad removal count")
        require(isinstance(face_down, list) and len(face_down) == 5, package, f"setup {players}p: need 5 face-down counts")
        for depth, count in zip(DEPTHS, face_down):
            in_play = sum(1 for t in tiles if t.depth == depth and t.set in sets)
            require(count == in_play - removed, package, f"setup {players}p depth {depth}: {count} != {in_play} - {removed}")
        setups[players] = Setup(players, tuple(sets), removed, tuple(face_down))
    require(sorted(setups) == [1, 2, 3, 4, 5, 6], package, "setup table must cover 1 to 6 players")
    return setups


@cache
def load_data() -> DeepDiveData:
    """The validated component data from the JSON beside this module (loaded once)."""
    return parse_data(load_component_json(PACKAGE, DATA_FILE))
