"""Final scoring on a shop's masks (shop_bits.py) gives the same answers as the rules stated cell by cell (shop.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.merchants.shop import Cell, Placed, attribute_sets, condition_met, magic_circles, tiles_at
from referee.games.merchants.shop_bits import attribute_sets_of, circles_of, condition_met_on, shop_bits
from tests.games.merchants.helpers import DATA, shop
from tests.games.merchants.test_cards import REP_CASES

TILE_IDS = list(DATA.tile_ids)
CONDITIONS = [card.condition for card in DATA.reputation.values()]

placed = st.tuples(st.sampled_from(TILE_IDS), st.sampled_from([0, 90, 180, 270]))
#: shops of up to 16 tiles within 4 rows and columns, anywhere a game's shop can lie (within 3 cells of (0, 0))
shops = st.tuples(st.integers(-3, 0), st.integers(-3, 0)).flatmap(
    lambda corner: st.dictionaries(
        st.tuples(st.integers(corner[0], corner[0] + 3), st.integers(corner[1], corner[1] + 3)), placed, min_size=1, max_size=16
    )
)


def same_answers(cells: dict[Cell, Placed], discards: int) -> None:
    bits = shop_bits(cells, DATA)
    assert bits is not None
    tiles = tiles_at(cells, DATA)
    circles = magic_circles(cells, DATA)
    assert circles_of(bits) == circles
    assert attribute_sets_of(bits) == attribute_sets(tiles)
    for condition in CONDITIONS:
        for count in (circles, 8):
            assert condition_met_on(condition, bits, discards, count) == condition_met(condition, tiles, discards, count), condition


@settings(max_examples=300, deadline=None)
@given(cells=shops, discards=st.integers(0, 3))
def test_masks_answer_as_the_cell_by_cell_rules_on_random_shops(cells: dict[Cell, Placed], discards: int) -> None:
    same_answers(cells, discards)


@pytest.mark.parametrize(("card", "rows", "discards", "met"), REP_CASES)
def test_masks_meet_each_condition_of_the_cards_examples_as_the_spec_says(card: str, rows: list[str], discards: int, met: bool) -> None:
    cells = shop(rows)
    bits = shop_bits(cells, DATA)
    assert bits is not None
    assert condition_met_on(DATA.reputation[card].condition, bits, discards, circles_of(bits)) is met
    same_answers(cells, discards)


def test_a_shop_beyond_a_games_reach_has_no_masks() -> None:
    assert shop_bits({(0, 0): (TILE_IDS[0], 0), (0, 4): (TILE_IDS[1], 0)}, DATA) is None
