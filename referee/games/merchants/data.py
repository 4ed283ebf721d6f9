"""Merchants of B99 component data: loaded once from merchants.json and validated (ComponentDataError)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.components import load_component_json, require
from referee.errors import ComponentDataError
from referee.games.merchants.patterns import CompiledFace, compile_face

PACKAGE = "referee.games.merchants"
DATA_FILE = "merchants.json"
EDGES = ("N", "E", "S", "W")
COLOURS = ("red", "blue", "yellow")
KINDS = ("sword", "staff", "shield", "armor")
WEAPONS = ("sword", "staff")
ATTRIBUTES = ("fire", "ice", "thunder")
DUNGEONS = ("dragon", "castle", "swamp")
CONDITION_TYPES = (
    "no_discards", "count_at_least", "each_colour_at_least", "all_colour_kind_pairs",
    "block2x2_same_colour", "block2x2_all_kinds", "line4_same_colour", "line4_all_kinds",
    "bbox_corners_same_colour", "circles_at_least", "each_attribute_at_least",
    "no_adjacent_same_colour", "line4_same_attribute", "line4_weapons",
    "full_shop_centre_same_colour", "count_one_colour_at_least",
)


@dataclass(frozen=True, slots=True)
class Tile:
    """One coloured equipment tile: colour, kind, attribute and the edges carrying a magic-circle half at rotation 0."""

    id: str
    colour: str
    kind: str
    attribute: str
    halves: frozenset[str]
    #: halves after rotation 0, 90, 180, 270 (index = rotation // 90)
    rotated_halves: tuple[frozenset[str], ...]


@dataclass(frozen=True, slots=True)
class ABCard:
    id: str
    dungeon: str
    first_game: str | None
    faces: Mapping[str, CompiledFace]


@dataclass(frozen=True, slots=True)
class KindCard:
    """A C or D trend card: one face scored with the kind of the grey tile lying on it."""

    id: str
    first_game: bool
    face: CompiledFace


@dataclass(frozen=True, slots=True)
class ReputationCard:
    id: str
    name: str
    condition: Mapping[str, Any]
    stars: int
    hearts: int


@dataclass(frozen=True, slots=True)
class MerchantsData:
    """Every component and table the engine reads."""

    tiles: Mapping[str, Tile]
    tile_ids: tuple[str, ...]
    grey_kinds: Mapping[str, str]
    ab_cards: Mapping[str, ABCard]
    floor99_cards: Mapping[str, ABCard]
    c_cards: Mapping[str, KindCard]
    d_cards: Mapping[str, KindCard]
    reputation: Mapping[str, ReputationCard]
    first_game_layout: Mapping[str, Mapping[str, str]]
    circle_points: tuple[int, ...]
    attribute_set_points: int
    thumb_stars_front: int
    thumb_points_back: Mapping[int, int]
    discard_star_penalty: int
    star_rank_points: Mapping[int, tuple[int, ...]]
    solo_star_points: tuple[tuple[int | None, int], ...]
    solo_titles: tuple[tuple[int | None, str, str], ...]

    def ab_cards_of(self, dungeon: str) -> tuple[str, ...]:
        return tuple(card.id for card in self.ab_cards.values() if card.dungeon == dungeon)

    def floor99_of(self, dungeon: str) -> str:
        return next(card.id for card in self.floor99_cards.values() if card.dungeon == dungeon)

    def face(self, card_id: str, face: str) -> CompiledFace:
        """The face shown by a layout card (AB or 99F card and face A/B, or a C/D card with face '')."""
        if card_id in self.ab_cards:
            return self.ab_cards[card_id].faces[face]
        if card_id in self.floor99_cards:
            return self.floor99_cards[card_id].faces[face]
        if card_id in self.c_cards:
            return self.c_cards[card_id].face
        return self.d_cards[card_id].face


def _rotations(halves: frozenset[str]) -> tuple[frozenset[str], ...]:
    return tuple(
        frozenset(EDGES[(EDGES.index(edge) + quarter) % 4] for edge in halves) for quarter in range(4)
    )


def _list(raw: Mapping[str, Any], key: str) -> list[Any]:
    value = raw.get(key)
    require(isinstance(value, list), PACKAGE, f"{key!r} must be a list")
    return value


def parse_data(raw: Mapping[str, Any]) -> MerchantsData:
    """Validate a parsed merchants.json and build the engine's data; ComponentDataError on any flaw."""
    try:
        return _parse(raw)
    except ComponentDataError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ComponentDataError(f"{PACKAGE}: malformed component data ({type(error).__name__}: {error})") from None


def _parse(raw: Mapping[str, Any]) -> MerchantsData:
    tiles: dict[str, Tile] = {}
    for entry in _list(raw, "tiles"):
        tile_id = entry["id"]
        require(tile_id not in tiles, PACKAGE, f"duplicate tile {tile_id}")
        require(entry["colour"] in COLOURS, PACKAGE, f"tile {tile_id}: colour {entry['colour']!r}")
        require(entry["kind"] in KINDS, PACKAGE, f"tile {tile_id}: kind {entry['kind']!r}")
        require(entry["attribute"] in ATTRIBUTES, PACKAGE, f"tile {tile_id}: attribute {entry['attribute']!r}")
        halves = entry["halves"]
        require(
            isinstance(halves, list) and len(halves) <= 2 and len(set(halves)) == len(halves) and set(halves) <= set(EDGES),
            PACKAGE, f"tile {tile_id}: halves {halves!r}",
        )
        frozen = frozenset(halves)
        tiles[tile_id] = Tile(tile_id, entry["colour"], entry["kind"], entry["attribute"], frozen, _rotations(frozen))
    require(len(tiles) == 72, PACKAGE, f"72 coloured tiles expected, found {len(tiles)}")
    for colour in COLOURS:
        count = sum(1 for tile in tiles.values() if tile.colour == colour)
        require(count == 24, PACKAGE, f"24 {colour} tiles expected, found {count}")

    grey = {entry["id"]: entry["kind"] for entry in _list(raw, "grey_tiles")}
    require(sorted(grey.values()) == sorted(KINDS), PACKAGE, f"grey tiles must show each kind once, not {grey}")

    def ab(entry: Mapping[str, Any]) -> ABCard:
        require(entry["dungeon"] in DUNGEONS, PACKAGE, f"card {entry['id']}: dungeon {entry['dungeon']!r}")
        faces = {side: compile_face(entry["id"], side, entry[side]) for side in ("A", "B")}
        for face in faces.values():
            require(not face.uses_kind, PACKAGE, f"card {entry['id']}: AB faces have no kind K")
        return ABCard(entry["id"], entry["dungeon"], entry.get("first_game"), faces)

    ab_cards = {entry["id"]: ab(entry) for entry in _list(raw, "ab_cards")}
    for dungeon in DUNGEONS:
        count = sum(1 for card in ab_cards.values() if card.dungeon == dungeon)
        require(count == 4, PACKAGE, f"4 AB cards expected for {dungeon}, found {count}")
    floor99 = {entry["id"]: ab(entry) for entry in _list(raw, "floor99_cards")}
    require(sorted(card.dungeon for card in floor99.values()) == sorted(DUNGEONS), PACKAGE, "one 99F card per dungeon")

    def kind_card(entry: Mapping[str, Any]) -> KindCard:
        return KindCard(entry["id"], bool(entry.get("first_game", False)), compile_face(entry["id"], "", entry["face"]))

    c_cards = {entry["id"]: kind_card(entry) for entry in _list(raw, "c_cards")}
    d_cards = {entry["id"]: kind_card(entry) for entry in _list(raw, "d_cards")}
    require(len(c_cards) == 6 and len(d_cards) == 6, PACKAGE, "6 C cards and 6 D cards expected")
    require(sum(card.first_game for card in d_cards.values()) >= 1, PACKAGE, "a first-game D card is needed")

    reputation: dict[str, ReputationCard] = {}
    for entry in _list(raw, "reputation_cards"):
        condition = entry["condition"]
        require(condition.get("type") in CONDITION_TYPES, PACKAGE, f"{entry['id']}: condition {condition!r}")
        reputation[entry["id"]] = ReputationCard(entry["id"], entry["name"], condition, int(entry["stars"]), int(entry["hearts"]))
    require(len(reputation) == 22, PACKAGE, f"22 reputation cards expected, found {len(reputation)}")
    hearts = [card.hearts for card in reputation.values()]
    require(len(set(hearts)) == len(hearts), PACKAGE, "reputation hearts must be unique")

    layout = raw["first_game_ab_layout"]
    for dungeon in DUNGEONS:
        for slot in ("A", "B"):
            card = layout[dungeon][slot]
            require(card in ab_cards and ab_cards[card].dungeon == dungeon, PACKAGE, f"first-game {dungeon} {slot}: {card!r}")

    circles = tuple(int(points) for points in _list(raw, "magic_circle_points"))
    require(len(circles) >= 2 and list(circles) == sorted(circles), PACKAGE, "magic circle points must rise")
    ranks = {int(n): tuple(int(p) for p in points) for n, points in raw["star_rank_points"].items()}
    require(all(len(points) == n for n, points in ranks.items()) and set(ranks) == {2, 3, 4}, PACKAGE, "star rank points")
    solo_stars = tuple((row["min_stars"], int(row["points"])) for row in _list(raw, "solo_star_points"))
    titles = tuple((row["min_score"], row["rank"], row["title"]) for row in _list(raw, "solo_titles"))
    require(solo_stars[-1][0] is None and titles[-1][0] is None, PACKAGE, "solo tables must end with a catch-all row")
    return MerchantsData(
        tiles=tiles,
        tile_ids=tuple(sorted(tiles)),
        grey_kinds=grey,
        ab_cards=ab_cards,
        floor99_cards=floor99,
        c_cards=c_cards,
        d_cards=d_cards,
        reputation=reputation,
        first_game_layout=layout,
        circle_points=circles,
        attribute_set_points=int(raw["attribute_set_points"]),
        thumb_stars_front=int(raw["thumb_stars_front"]),
        thumb_points_back={int(r): int(p) for r, p in raw["thumb_points_back"].items()},
        discard_star_penalty=int(raw["discard_star_penalty"]),
        star_rank_points=ranks,
        solo_star_points=solo_stars,
        solo_titles=titles,
    )


@cache
def load_data() -> MerchantsData:
    """The validated component data beside the engine (loaded once, shared by every state)."""
    return parse_data(load_component_json(PACKAGE, DATA_FILE))
