"""A shop's legal targets (spec 4.1), found with bit shifts, against the rule written out cell by cell."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.merchants.shop import MAX_SIDE, PLACE, REPLACE, Cell, legal_targets


def targets_by_the_rule(cells: set[Cell]) -> list[tuple[int, int, str]]:
    """Every occupied cell may be replaced; an empty cell beside the shop may take a tile; either only if the
    shop then still fits in MAX_SIDE rows and MAX_SIDE columns. Sorted by (row, col)."""
    found = []
    for row in range(min(r for r, _ in cells) - 1, max(r for r, _ in cells) + 2):
        for col in range(min(c for _, c in cells) - 1, max(c for _, c in cells) + 2):
            after = cells | {(row, col)}
            if max(r for r, _ in after) - min(r for r, _ in after) >= MAX_SIDE:
                continue
            if max(c for _, c in after) - min(c for _, c in after) >= MAX_SIDE:
                continue
            if (row, col) in cells:
                found.append((row, col, REPLACE))
            elif {(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)} & cells:
                found.append((row, col, PLACE))
    return found


cells_in_a_shop = st.sets(st.tuples(st.integers(0, MAX_SIDE - 1), st.integers(0, MAX_SIDE - 1)), min_size=1, max_size=16)


@settings(max_examples=400, deadline=None)
@given(cells_in_a_shop, st.integers(-9, 9), st.integers(-9, 9))
def test_targets_follow_the_rule_for_any_shop_anywhere(cells: set[Cell], down: int, right: int) -> None:
    shop = {(row + down, col + right) for row, col in cells}
    assert legal_targets(shop) == targets_by_the_rule(shop)


def test_a_full_shop_can_only_replace() -> None:
    shop = {(row, col) for row in range(MAX_SIDE) for col in range(MAX_SIDE)}
    assert legal_targets(shop) == [(row, col, REPLACE) for row in range(MAX_SIDE) for col in range(MAX_SIDE)]


def test_the_first_tile_can_be_replaced_or_joined_on_four_sides() -> None:
    assert legal_targets({(0, 0)}) == [(-1, 0, PLACE), (0, -1, PLACE), (0, 0, REPLACE), (0, 1, PLACE), (1, 0, PLACE)]
