"""Properties of the trend-card pattern engine: rotation and translation invariance, one point per tile."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import ComponentDataError
from referee.games.merchants.data import KINDS, Tile
from referee.games.merchants.patterns import (
    Alternative,
    CompiledFace,
    compile_face,
    max_disjoint,
    placements,
    rotate,
    rotated_variants,
    score_face,
    score_face_by_cells,
)
from tests.games.merchants.helpers import DATA, tiles

Cell = tuple[int, int]


def all_faces() -> list[tuple[CompiledFace, str | None]]:
    """Every trend-card face in the data, C and D faces once per kind K."""
    faces: list[tuple[CompiledFace, str | None]] = []
    for card in [*DATA.ab_cards.values(), *DATA.floor99_cards.values()]:
        faces.extend((face, None) for face in card.faces.values())
    for kind_card in [*DATA.c_cards.values(), *DATA.d_cards.values()]:
        faces.extend((kind_card.face, kind) for kind in KINDS)
    return faces


FACES = all_faces()
TILE_IDS = list(DATA.tile_ids)

shops = st.dictionaries(
    st.tuples(st.integers(0, 3), st.integers(0, 3)), st.sampled_from(TILE_IDS), min_size=1, max_size=16
).map(lambda cells: {cell: DATA.tiles[tile] for cell, tile in cells.items()})


def turned(shop: dict[Cell, Tile], quarter: int, shift: Cell = (0, 0)) -> dict[Cell, Tile]:
    return {(rotate(r, c, quarter)[0] + shift[0], rotate(r, c, quarter)[1] + shift[1]): tile for (r, c), tile in shop.items()}


@settings(max_examples=120, deadline=None)
@given(shop=shops, quarter=st.sampled_from([90, 180, 270]), shift=st.tuples(st.integers(-5, 5), st.integers(-5, 5)))
def test_every_face_scores_the_same_on_every_rotation_of_the_shop(shop: dict[Cell, Tile], quarter: int, shift: Cell) -> None:
    other = turned(shop, quarter, shift)
    for face, kind in FACES:
        assert score_face(face, shop, kind) == score_face(face, other, kind), (face.card, face.face, kind)


@settings(max_examples=120, deadline=None)
@given(shop=shops)
def test_no_tile_gives_more_than_one_point_per_card(shop: dict[Cell, Tile]) -> None:
    for face, kind in FACES:
        assert 0 <= score_face(face, shop, kind) <= len(shop), (face.card, face.face, kind)


@settings(max_examples=80, deadline=None)
@given(shop=shops)
def test_per_tile_is_the_union_of_placements_and_per_instance_the_best_disjoint_set(shop: dict[Cell, Tile]) -> None:
    for face, kind in FACES:
        if face.type == "per_tile":
            union = set().union(*placements(face.alternatives[0], shop, kind)) if shop else set()
            assert score_face(face, shop, kind) == len(union)
        if face.type == "per_instance":
            instances = list(placements(face.alternatives[0], shop, kind))
            best = 0
            for size in range(len(instances) + 1):
                for chosen in itertools.combinations(instances, size):
                    cells = [cell for instance in chosen for cell in instance]
                    if len(cells) == len(set(cells)):
                        best = max(best, size)
            assert max_disjoint(sorted(instances, key=sorted)) == best


wide_shops = st.dictionaries(
    st.tuples(st.integers(-6, 6), st.integers(-6, 6)), st.sampled_from(TILE_IDS), min_size=0, max_size=16
).map(lambda cells: {cell: DATA.tiles[tile] for cell, tile in cells.items()})


@settings(max_examples=150, deadline=None)
@given(shop=st.one_of(shops, wide_shops))
def test_the_bitboard_scorer_gives_what_the_cell_by_cell_definition_gives(shop: dict[Cell, Tile]) -> None:
    for face, kind in FACES:
        assert score_face(face, shop, kind) == score_face_by_cells(face, shop, kind), (face.card, face.face, kind)


def test_rotations_are_never_mirrors() -> None:
    hook = rotated_variants([(0, 0, "R"), (1, 0, "R"), (1, 1, "Y")])
    assert len(hook) == 4
    mirror = ((0, 1, "R"), (1, 0, "Y"), (1, 1, "R"))
    assert mirror not in hook
    assert len(rotated_variants([(0, 0, "R"), (0, 1, "R")])) == 2
    assert len(rotated_variants([(0, 0, "#"), (0, 1, "#"), (1, 0, "#"), (1, 1, "#")])) == 1


def test_distinct_kinds_alternatives_need_different_kinds() -> None:
    assortment = DATA.face("SW1", "A")
    # B01 and B03 are both swords; B07 is a staff, B13 a shield, B19 an armor.
    assert score_face(assortment, tiles(["B01 B03"])) == 0
    assert score_face(assortment, tiles(["B01 B07"])) == 2
    assert score_face(assortment, tiles(["B01 B07 B13 B19"])) == 4
    assert score_face(assortment, tiles(["B01 B07 B13 B03"])) == 3


def test_kind_cards_use_the_grey_tile_kind() -> None:
    grid = tiles(["R01 B01", "Y07 R13"])  # swords at (0,0), (0,1)
    pairs = DATA.face("D3", "")
    assert score_face(pairs, grid, "sword") == 2
    assert score_face(pairs, grid, "staff") == 0
    assert score_face(DATA.face("D1", ""), grid, "sword") == 0  # 2 swords - 2
    assert score_face(DATA.face("C3", ""), grid, "staff") == 1


def test_any_colour_largest_groups_per_colour() -> None:
    grand_hall = DATA.face("CA99", "B")
    assert score_face(grand_hall, tiles(["R01 B01 Y01", "B03 Y03 R03"])) == 0
    assert score_face(grand_hall, tiles(["R01 R03 Y01", "B03 B05 B07"])) == 3


@pytest.mark.parametrize(
    ("face", "message"),
    [
        ({"type": "spiral"}, "unknown type"),
        ({"type": "per_tile", "pattern": ["RR", "R"]}, "different widths"),
        ({"type": "per_tile", "pattern": ["RQ"]}, "token"),
        ({"type": "multi", "alternatives": [{"pattern": ["RR"], "points": 3}]}, "1 point per tile"),
        ({"type": "groups", "target": {"colour": "green"}, "min_size": 1, "points_per_group": 1}, "unknown target"),
        ({"type": "groups", "target": {"colour": "red"}, "min_size": 1, "points_per_group": 2}, "1 point per tile"),
        ({"type": "per_instance", "pattern": ["R.R"], "points_per_instance": 3}, "points per instance"),
        ({"type": "region", "template": ["..."], "target": {"colour": "red"}, "threshold": 3}, "no cell"),
    ],
)
def test_bad_faces_are_rejected(face: dict[str, object], message: str) -> None:
    with pytest.raises(ComponentDataError, match=message):
        compile_face("X1", "A", face)


def test_alternative_points_never_exceed_tiles_in_data() -> None:
    for face, _ in FACES:
        for alternative in face.alternatives:
            assert isinstance(alternative, Alternative)
            assert alternative.points <= len(alternative.variants[0])
