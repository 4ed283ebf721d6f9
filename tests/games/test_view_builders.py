"""The written-out view builders give exactly the views of their reference field tables (same dicts, same order)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.deep_dive import views as deep_dive_views
from referee.games.fuji99 import views as fuji99_views
from referee.games.magnificent import views as magnificent_views
from referee.lazy_view import ABSENT
from tests.games.view_references import magnificent as magnificent_reference
from tests.test_positions import random_states


def _by_fields(state: Any, seat: int | None, table: dict[str, Any]) -> dict[str, Any]:
    """A view built from the field tables the lazy views read (the reference the fast builders must equal)."""
    view: dict[str, Any] = {}
    if seat is not None:
        view["seat"] = seat
    for name, field in table.items():
        value = field(state)
        if value is not ABSENT:
            view[name] = value
    return view


def _assert_same(built: dict[str, Any], reference: dict[str, Any]) -> None:
    # repr keeps key order and tells True from 1, which == alone would not
    assert repr(built) == repr(reference)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_deep_dive_view_equals_its_field_tables(players: int) -> None:
    for seed in range(3):
        for state in random_states("deep_dive", seed=seed, every=0.2, players=players):
            for seat in [None, *range(players)]:
                _assert_same(
                    deep_dive_views.build_view(state, seat),
                    _by_fields(state, seat, deep_dive_views.TABLE_FIELDS),
                )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_magnificent_view_equals_the_reference_builder(players: int) -> None:
    for seed in range(2):
        for state in random_states("magnificent", seed=seed, every=0.1, players=players):
            for seat in [None, *range(players)]:
                _assert_same(magnificent_views.build_view(state, seat), magnificent_reference.build_view(state, seat))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fuji99_view_equals_its_field_tables(players: int) -> None:
    for seed in range(3):
        for state in random_states("fuji99", seed=seed, every=0.2, players=players):
            for seat in [None, *range(players)]:
                _assert_same(fuji99_views.build_view(state, seat), _by_fields(state, seat, fuji99_views.TABLE_FIELDS))


def test_views_stay_exact_when_their_memories_are_emptied_often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(magnificent_views, "_MEMORY", 2)
    monkeypatch.setattr(deep_dive_views, "_SCORE_MEMORY", 2)
    for state in random_states("magnificent", seed=5, every=0.2, players=3):
        for seat in (None, 0, 1, 2):
            _assert_same(magnificent_views.build_view(state, seat), magnificent_reference.build_view(state, seat))
    for state in random_states("deep_dive", seed=5, every=0.3, players=4):
        for seat in (None, 0, 3):
            _assert_same(deep_dive_views.build_view(state, seat), _by_fields(state, seat, deep_dive_views.TABLE_FIELDS))
