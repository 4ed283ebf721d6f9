"""The Magnificent's component data: loaded from magnificent.json beside this module and validated once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.components import load_component_json, require
from referee.errors import ComponentDataError

PACKAGE = "referee.games.magnificent"
DATA_FILE = "magnificent.json"

COLOURS = ("O", "G", "P", "C")
DIE_COLOURS = ("O", "G", "P")
COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}
TILE_TYPES = ("Os", "Gs", "Ps", "Ol", "Gl", "Pl")
WIDTH = 8
HEIGHT = 7
MASTER_BONUS_KINDS = ("POWER", "DIE_SHIFT", "DIE_FLIP", "COINS", "POINTS", "GEM_ANY", "GEM_ACTING", "POSTER")
SCORING_KINDS = (
    "PER_COMPLETED_POSTER",
    "PER_TENT",
    "PER_FULL_AREA",
    "PER_LARGE_TILE",
    "PER_SMALL_TILE",
    "PER_TILE_SET",
    "PER_MARKER",
    "PER_TRAINER_TILE",
    "PER_GEM",
    "PER_2_COINS",
)
TRAINER_EFFECTS = (
    "POWER",
    "COINS",
    "GEM_ACTING",
    "EXTRA_SMALL_TILE",
    "BUILD_COLOUR",
    "WAGON_COLOUR",
    "EXTRA_SHOW",
    "POINTS_PER_SHOW",
    "POSTER",
    "DIE_SET",
    "POINTS",
)
TIMINGS = ("ANY", "BEFORE", "BUILD", "TRAVEL", "PERFORM")


@dataclass(frozen=True, slots=True)
class Bonus:
    """A camp-square or tent-slot bonus, gained in the order points, coins, gem, marker, poster."""

    points: int = 0
    coins: int = 0
    gem: str | None = None
    marker: int = 0
    poster: int = 0


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to lay a camp tile: orientation k at an anchor, with the grid squares it covers (bit masks)."""

    k: int
    x: int
    y: int
    cells: tuple[tuple[int, int], ...]
    mask: int
    neighbours: int


@dataclass(frozen=True, slots=True)
class TileType:
    id: str
    colour: str
    large: bool
    copies: int
    orientations: Mapping[int, tuple[tuple[int, int], ...]]
    placements: tuple[Placement, ...]
    by_anchor: Mapping[tuple[int, int], tuple[Placement, ...]]


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    start_a: tuple[int, int, tuple[int, int, int, int]]
    start_b: tuple[int, int, tuple[int, int, int, int]]
    bonus_squares: Mapping[int, Bonus]  # square index y*8+x -> bonus


@dataclass(frozen=True, slots=True)
class Tent:
    id: str
    points: int
    coins: int
    extra_gems: int


@dataclass(frozen=True, slots=True)
class Poster:
    id: str
    tiles: tuple[str, ...]
    gems: tuple[int, int, int]  # required O, G, P
    points: int
    coins: int


@dataclass(frozen=True, slots=True)
class MasterCard:
    id: str
    board: str | None
    bonus: str
    bonus_value: int
    scoring: str
    scoring_value: int
    order: int


@dataclass(frozen=True, slots=True)
class TrainerTile:
    id: str
    kind: str
    name: str
    cost: int
    timing: str
    effect: str
    value: int


@dataclass(frozen=True, slots=True)
class ShowSpace:
    space: int
    power: int
    shows: int


@dataclass(frozen=True, slots=True)
class Components:
    """Every component table the engine uses, immutable and shared by all states."""

    dice: Mapping[int, tuple[int, int, int, int]]
    display_pairs: Mapping[int, int]
    starting_trainer_draw: int
    build_levels: tuple[tuple[int, tuple[str, ...]], ...]
    tile_types: Mapping[str, TileType]
    areas: tuple[tuple[str, int, int], ...]  # id, mask, size
    boards: Mapping[str, Board]
    tent_slot_bonus: Mapping[int, Bonus]
    track_spaces: Mapping[str, tuple[str | None, ...]]  # colour -> gem colour per index, None for a tent/poster space
    tent_spaces: tuple[int, ...]
    tents: Mapping[str, Tent]  # the shuffled tents and the printed one
    track_tents: tuple[str, ...]  # the tents shuffled onto the tracks at setup
    printed_tent: str
    starting_posters: tuple[str, ...]
    regular_posters: tuple[str, ...]
    posters: Mapping[str, Poster]
    starting_masters: tuple[str, ...]
    regular_masters: tuple[str, ...]
    masters: Mapping[str, MasterCard]
    trainers: Mapping[str, TrainerTile]
    show_spaces: tuple[ShowSpace, ...]
    penalty: Mapping[int, int]
    coin_transfer: int
    final_master_divisor: int
    final_coins_per_point: int
    final_points_per_area: int


def _code(code: Any, kinds: tuple[str, ...], what: str) -> tuple[str, int]:
    require(isinstance(code, str), PACKAGE, f"{what}: code {code!r} is not a string")
    kind, _, number = code.partition(":")
    require(kind in kinds, PACKAGE, f"{what}: unknown code {code!r}")
    if number:
        require(number.isdigit() and int(number) > 0, PACKAGE, f"{what}: bad number in {code!r}")
        return kind, int(number)
    return kind, 0


def orientation_cells(base: tuple[tuple[int, int], ...], k: int) -> tuple[tuple[int, int], ...]:
    """The normalized cells of orientation k of a base cell set (spec §2.5 orientation rule)."""
    cells = [(-x, y) if k >= 4 else (x, y) for x, y in base]
    for _ in range(k % 4):
        cells = [(-y, x) for x, y in cells]
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return tuple(sorted(((x - min_x, y - min_y) for x, y in cells), key=lambda c: (c[1], c[0])))


def distinct_orientations(base: tuple[tuple[int, int], ...]) -> dict[int, tuple[tuple[int, int], ...]]:
    """Each distinct orientation under the smallest k producing it."""
    seen: dict[tuple[tuple[int, int], ...], int] = {}
    for k in range(8):
        seen.setdefault(orientation_cells(base, k), k)
    return {k: cells for cells, k in seen.items()}


def square_bit(x: int, y: int) -> int:
    return 1 << (y * WIDTH + x)


def _placements(orientations: Mapping[int, tuple[tuple[int, int], ...]]) -> tuple[Placement, ...]:
    """Every in-grid placement, ordered by anchor (y, x) then k."""
    found: list[Placement] = []
    for ay in range(HEIGHT):
        for ax in range(WIDTH):
            for k, cells in sorted(orientations.items()):
                ref_x, ref_y = cells[0]
                covered = tuple((ax + x - ref_x, ay + y - ref_y) for x, y in cells)
                if not all(0 <= x < WIDTH and 0 <= y < HEIGHT for x, y in covered):
                    continue
                mask = 0
                for x, y in covered:
                    mask |= square_bit(x, y)
                neighbours = 0
                for x, y in covered:
                    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                        if 0 <= nx < WIDTH and 0 <= ny < HEIGHT:
                            neighbours |= square_bit(nx, ny)
                found.append(Placement(k, ax, ay, covered, mask, neighbours & ~mask))
    return tuple(found)


def _bonus(raw: Mapping[str, Any], what: str) -> Bonus:
    known = {"points", "coins", "gem", "marker", "poster", "x", "y", "area"}
    require(set(raw) <= known, PACKAGE, f"{what}: unknown bonus fields {sorted(set(raw) - known)}")
    gem = raw.get("gem")
    require(gem is None or gem in COLOURS, PACKAGE, f"{what}: bad gem colour {gem!r}")
    for name in ("points", "coins", "marker", "poster"):
        value = raw.get(name, 0)
        require(isinstance(value, int) and value >= 0, PACKAGE, f"{what}: bad {name} {value!r}")
    return Bonus(raw.get("points", 0), raw.get("coins", 0), gem, raw.get("marker", 0), raw.get("poster", 0))


def _start(raw: Any, what: str) -> tuple[int, int, tuple[int, int, int, int]]:
    require(isinstance(raw, dict) and {"coins", "markers", "gems"} <= set(raw), PACKAGE, f"{what}: incomplete")
    gems = raw["gems"]
    require(isinstance(gems, dict) and set(gems) <= set(COLOURS), PACKAGE, f"{what}: bad gems {gems!r}")
    counts = tuple(int(gems.get(c, 0)) for c in COLOURS)
    require(all(0 <= n <= 3 for n in counts), PACKAGE, f"{what}: gem counts must be 0..3")
    return int(raw["coins"]), int(raw["markers"]), counts  # type: ignore[return-value]


def parse_components(raw: Mapping[str, Any]) -> Components:
    """Validate the raw JSON and build the immutable tables; ComponentDataError names what is wrong."""
    require(isinstance(raw, dict), PACKAGE, "data file is not a JSON object")
    for key in (
        "dice", "main_display_pairs", "starting_trainer_draw", "build_levels", "camp_tile_types", "camp_grid",
        "player_boards", "tent_slots", "travel_tracks", "tents", "posters", "master_cards", "trainer_tiles",
        "performance_track", "payment_penalty_per_missing_coin", "start_player_coin_transfer", "final_scoring",
    ):
        require(key in raw, PACKAGE, f"missing table {key!r}")

    dice: dict[int, tuple[int, int, int, int]] = {}
    for players in range(1, 5):
        row = raw["dice"].get(str(players))
        require(isinstance(row, dict) and set(row) == set(COLOURS), PACKAGE, f"dice for {players} players")
        dice[players] = tuple(int(row[c]) for c in COLOURS)  # type: ignore[assignment]
        require(sum(dice[players]) >= 4 * players + 1, PACKAGE, f"too few dice for {players} players")
    pairs = {int(n): int(d) for n, d in raw["main_display_pairs"].items()}
    require(set(pairs) == {1, 2, 3, 4} and all(d >= 1 for d in pairs.values()), PACKAGE, "main_display_pairs")

    levels: list[tuple[int, tuple[str, ...]]] = []
    for level in raw["build_levels"]:
        tiles = tuple(level["tiles"])
        require(all(t in ("small", "large") for t in tiles) and tiles, PACKAGE, f"build level {level!r}")
        levels.append((int(level["power"]), tiles))
    require([p for p, _ in levels] == sorted({p for p, _ in levels}), PACKAGE, "build levels not ascending")

    tile_types: dict[str, TileType] = {}
    for entry in raw["camp_tile_types"]:
        tile_id = entry["id"]
        require(tile_id in TILE_TYPES, PACKAGE, f"unknown camp tile type {tile_id!r}")
        base = tuple((int(x), int(y)) for x, y in entry["cells"])
        large = entry["size"] == "large"
        require(len(base) == (6 if large else 4), PACKAGE, f"tile {tile_id}: wrong number of cells")
        require(entry["colour"] == tile_id[0], PACKAGE, f"tile {tile_id}: colour mismatch")
        orientations = distinct_orientations(base)
        listed = {int(k): tuple((x, y) for x, y in cells) for k, cells in entry["orientations"].items()}
        require(listed == orientations, PACKAGE, f"tile {tile_id}: listed orientations differ from the rule")
        placements = _placements(orientations)
        by_anchor: dict[tuple[int, int], list[Placement]] = {}
        for placement in placements:
            by_anchor.setdefault((placement.x, placement.y), []).append(placement)
        tile_types[tile_id] = TileType(
            tile_id,
            entry["colour"],
            large,
            int(entry["copies"]),
            orientations,
            placements,
            {anchor: tuple(group) for anchor, group in by_anchor.items()},
        )
    require(set(tile_types) == set(TILE_TYPES), PACKAGE, "camp tile types incomplete")

    grid = raw["camp_grid"]
    require(grid["width"] == WIDTH and grid["height"] == HEIGHT, PACKAGE, "camp grid must be 8x7")
    areas: list[tuple[str, int, int]] = []
    covered = 0
    for area in grid["areas"]:
        mask = 0
        for y in range(area["y0"], area["y1"] + 1):
            for x in range(area["x0"], area["x1"] + 1):
                mask |= square_bit(x, y)
        require(mask & covered == 0, PACKAGE, f"area {area['id']} overlaps another")
        covered |= mask
        size = mask.bit_count()
        require(size == area["squares"], PACKAGE, f"area {area['id']}: size {size} != {area['squares']}")
        areas.append((area["id"], mask, size))
    require(covered == (1 << (WIDTH * HEIGHT)) - 1, PACKAGE, "areas do not cover the grid")

    boards: dict[str, Board] = {}
    for entry in raw["player_boards"]:
        squares: dict[int, Bonus] = {}
        for square in entry["bonus_squares"]:
            x, y = int(square["x"]), int(square["y"])
            require(0 <= x < WIDTH and 0 <= y < HEIGHT, PACKAGE, f"board {entry['id']}: square off the grid")
            index = y * WIDTH + x
            require(index not in squares, PACKAGE, f"board {entry['id']}: duplicate bonus square ({x},{y})")
            area_id = next(a for a, mask, _ in areas if mask & (1 << index))
            require(square.get("area") == area_id, PACKAGE, f"board {entry['id']}: ({x},{y}) is in {area_id}")
            squares[index] = _bonus(square, f"board {entry['id']} square ({x},{y})")
        boards[entry["id"]] = Board(
            entry["id"],
            _start(entry["start_A"], f"board {entry['id']} side A"),
            _start(entry["start_B"], f"board {entry['id']} side B"),
            dict(sorted(squares.items())),
        )
    require(list(boards) == ["I", "II", "III", "IV"], PACKAGE, "player boards must be I, II, III, IV")

    slots = {int(s["slot"]): s for s in raw["tent_slots"]}
    require(set(slots) == {1, 2, 3, 4, 5}, PACKAGE, "tent slots must be 1..5")
    tent_slot_bonus = {s: _bonus(slots[s].get("bonus", {}), f"tent slot {s}") for s in range(2, 6)}

    track_spaces: dict[str, tuple[str | None, ...]] = {}
    tent_spaces: tuple[int, ...] | None = None
    for track in raw["travel_tracks"]:
        spaces = track["spaces"]
        require([s["i"] for s in spaces] == list(range(12)), PACKAGE, f"track {track['colour']} indices")
        gems: list[str | None] = []
        for space in spaces:
            if space["symbol"] == "gem":
                require(space.get("gem") in COLOURS, PACKAGE, f"track {track['colour']}: bad gem")
                gems.append(space["gem"])
            else:
                require(space["symbol"] == "tent_poster", PACKAGE, f"track {track['colour']}: bad symbol")
                gems.append(None)
        here = tuple(i for i, g in enumerate(gems) if g is None)
        require(tent_spaces is None or here == tent_spaces, PACKAGE, "tracks have different tent spaces")
        tent_spaces = here
        track_spaces[track["colour"]] = tuple(gems)
    require(set(track_spaces) == set(DIE_COLOURS), PACKAGE, "need the O, G and P tracks")
    require(tent_spaces is not None, PACKAGE, "no travel tracks")
    assert tent_spaces is not None  # narrowing for the type checker only

    tents = {t["id"]: Tent(t["id"], int(t["points"]), int(t["coins"]), int(t["extra_gems"])) for t in raw["tents"]}
    require(len(tents) >= 3 * len(tent_spaces), PACKAGE, "not enough tents for the tent spaces")
    printed = slots[1].get("printed_tent")
    require(isinstance(printed, dict) and printed.get("id") not in tents, PACKAGE, "tent slot 1 needs a printed tent")
    track_tents = tuple(tents)
    tents[printed["id"]] = Tent(printed["id"], int(printed["points"]), int(printed["coins"]), int(printed["extra_gems"]))

    posters: dict[str, Poster] = {}
    groups: dict[str, list[str]] = {"starting": [], "regular": []}
    for group in ("starting", "regular"):
        for entry in raw["posters"][group]:
            require(all(t in TILE_TYPES for t in entry["tiles"]), PACKAGE, f"poster {entry['id']}: bad tiles")
            require(set(entry["gems"]) <= set(DIE_COLOURS), PACKAGE, f"poster {entry['id']}: bad gem colours")
            require(entry["id"] not in posters, PACKAGE, f"duplicate poster {entry['id']}")
            posters[entry["id"]] = Poster(
                entry["id"],
                tuple(entry["tiles"]),
                tuple(int(entry["gems"].get(c, 0)) for c in DIE_COLOURS),  # type: ignore[arg-type]
                int(entry["points"]),
                int(entry["coins"]),
            )
            groups[group].append(entry["id"])
    require(len(groups["starting"]) >= 4, PACKAGE, "need a starting poster per player")

    masters: dict[str, MasterCard] = {}
    master_groups: dict[str, list[str]] = {"starting": [], "regular": []}
    for group in ("starting", "regular"):
        for entry in raw["master_cards"][group]:
            bonus, bonus_value = _code(entry["bonus"], MASTER_BONUS_KINDS, f"master card {entry['id']}")
            scoring, scoring_value = _code(entry["scoring"], SCORING_KINDS, f"master card {entry['id']}")
            require(entry["id"] not in masters, PACKAGE, f"duplicate master card {entry['id']}")
            board = entry.get("board") if group == "starting" else None
            require(group == "regular" or board in boards, PACKAGE, f"master card {entry['id']}: bad board")
            masters[entry["id"]] = MasterCard(
                entry["id"], board, bonus, bonus_value, scoring, scoring_value, len(masters)
            )
            master_groups[group].append(entry["id"])
    for board_id in boards:
        count = sum(1 for m in masters.values() if m.board == board_id)
        require(count == 4, PACKAGE, f"board {board_id} needs 4 starting master cards, has {count}")

    trainers: dict[str, TrainerTile] = {}
    for entry in raw["trainer_tiles"]:
        effect, value = _code(entry["effect"], TRAINER_EFFECTS, f"trainer tile {entry['id']}")
        require(entry["timing"] in TIMINGS, PACKAGE, f"trainer tile {entry['id']}: bad timing")
        require(int(entry["cost"]) >= 1, PACKAGE, f"trainer tile {entry['id']}: bad cost")
        trainers[entry["id"]] = TrainerTile(
            entry["id"], entry["kind"], entry["name"], int(entry["cost"]), entry["timing"], effect, value
        )

    shows = tuple(
        ShowSpace(int(s["space"]), int(s["power"]), int(s["shows"])) for s in raw["performance_track"]["show_spaces"]
    )
    require([s.space for s in shows] == list(range(1, len(shows) + 1)), PACKAGE, "show spaces must be 1..n")
    require(len(raw["performance_track"]["start_spaces"]) >= 4, PACKAGE, "need 4 start spaces")

    penalty = {int(r): int(p) for r, p in raw["payment_penalty_per_missing_coin"].items()}
    require(set(penalty) == {1, 2, 3}, PACKAGE, "penalty needs rounds 1..3")
    final = raw["final_scoring"]
    return Components(
        dice=dice,
        display_pairs=pairs,
        starting_trainer_draw=int(raw["starting_trainer_draw"]),
        build_levels=tuple(levels),
        tile_types=tile_types,
        areas=tuple(areas),
        boards=boards,
        tent_slot_bonus=tent_slot_bonus,
        track_spaces=track_spaces,
        tent_spaces=tent_spaces,
        tents=tents,
        track_tents=track_tents,
        printed_tent=printed["id"],
        starting_posters=tuple(groups["starting"]),
        regular_posters=tuple(groups["regular"]),
        posters=posters,
        starting_masters=tuple(master_groups["starting"]),
        regular_masters=tuple(master_groups["regular"]),
        masters=masters,
        trainers=trainers,
        show_spaces=shows,
        penalty=penalty,
        coin_transfer=int(raw["start_player_coin_transfer"]["coins"]),
        final_master_divisor=int(final["master_card_divisor"]),
        final_coins_per_point=int(final["coins_per_point"]),
        final_points_per_area=int(final["points_per_full_area"]),
    )


@cache
def components() -> Components:
    """The validated component tables (loaded once)."""
    raw = load_component_json(PACKAGE, DATA_FILE)
    try:
        return parse_components(raw)
    except (KeyError, TypeError, ValueError, AttributeError, StopIteration) as error:
        if isinstance(error, ComponentDataError):
            raise
        raise ComponentDataError(f"{PACKAGE}/{DATA_FILE}: malformed entry ({error!r})") from None
