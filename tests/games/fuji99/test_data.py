"""Fuji 99 component data: the shipped file matches the spec, and bad data is refused when loaded."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from referee.components import load_component_json
from referee.errors import ComponentDataError
from referee.games.fuji99.data import PACKAGE, load_data, parse_data


def raw() -> dict[str, Any]:
    return json.loads(resources.files(PACKAGE).joinpath("fuji99.json").read_text(encoding="utf-8"))


def test_shipped_data_matches_the_spec_tables() -> None:
    data = load_data()
    assert len(data.deck) == 22 and len(data.types) == 13
    by_danger: dict[str, int] = {}
    for card in data.deck:
        danger = data.card_type[card].danger
        key = "X" if danger is None else str(danger)
        by_danger[key] = by_danger.get(key, 0) + 1
    assert by_danger == {"1": 6, "2": 6, "3": 5, "4": 3, "X": 2}
    assert [kind.type for kind in data.types.values() if kind.timing == "instant"] == ["echo"]
    assert [kind.type for kind in data.types.values() if kind.timing == "persistent"] == ["lucky_charm"]
    assert {n: (s.pagoda, s.yellow_on_20, s.yellow_on_50) for n, s in data.supply.items()} == {
        2: (52, 2, 2),
        3: (46, 3, 3),
        4: (40, 4, 4),
    }
    assert (data.goal, data.min_draw, data.red_bust_at, data.danger_bust_at) == (99, 5, 3, 7)


def _card(data: dict[str, Any], type_id: str) -> dict[str, Any]:
    return next(entry for entry in data["card_types"] if entry["type"] == type_id)


BREAKAGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "missing deck": lambda d: d.pop("deck"),
    "unknown effect kind": lambda d: _card(d, "lantern")["effect"].update(kind="teleport"),
    "missing effect parameter": lambda d: _card(d, "tunnel")["effect"].pop("spaces"),
    "copies do not match the deck": lambda d: _card(d, "ill_omen").update(copies=4),
    "instant card with a cost": lambda d: _card(d, "echo").update(cost=1),
    "negative danger": lambda d: _card(d, "amulet").update(danger=-1),
    "bad timing": lambda d: _card(d, "amulet").update(timing="sometimes"),
    "persistent card without a lasting part": lambda d: _card(d, "tunnel").update(timing="persistent"),
    "usable card with an instant-only effect": lambda d: _card(d, "lantern")["effect"].update(kind="echo"),
    "deck card of an unknown type": lambda d: d["deck"].append("dragon-1"),
    "duplicate deck card": lambda d: d["deck"].append("echo-1"),
    "duplicate card type": lambda d: d["card_types"].append(copy.deepcopy(d["card_types"][0])),
    "bad bag": lambda d: d["setup_by_player_count"]["3"]["bag_each"].update(red=-1),
    "bad pagoda": lambda d: d["setup_by_player_count"]["2"].update(pagoda_clear="lots"),
    "bad constant": lambda d: d["constants"].update(red_bust_at=0),
    "yellow space off the track": lambda d: d["board"].update(yellow_spaces=[20, 150]),
    "not an object": lambda d: d.clear(),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_bad_data_is_refused(breakage: str) -> None:
    data = raw()
    BREAKAGES[breakage](data)
    with pytest.raises(ComponentDataError):
        parse_data(data)


def test_data_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ComponentDataError):
        parse_data(["echo-1"])


def test_missing_data_file_is_refused() -> None:
    with pytest.raises(ComponentDataError):
        load_component_json(PACKAGE, "no_such_file.json")
