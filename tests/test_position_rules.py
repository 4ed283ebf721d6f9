"""Each game refuses an impossible position (counts, a component in two places, unknown ids, values out of range)
and loads every position a real game passes through."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from referee.position import PositionError, load_position, position_json
from referee.position_checks import each_once
from referee.registry import game_ids, get_game
from tests.test_positions import random_states

GAMES = ("deep_dive", "fuji99", "merchants", "magnificent")


@cache
def _mid_game(game_id: str) -> str:
    """A real position from the middle of a random game (as JSON text, so each test corrupts its own copy)."""
    states = random_states(game_id, seed=4, every=0.3)
    middle = next(s for s in states[len(states) // 2 :] if not s.is_terminal())
    return json.dumps(position_json(middle))


def mid_game(game_id: str) -> dict[str, Any]:
    data = json.loads(_mid_game(game_id))
    load_position(copy.deepcopy(data))  # the uncorrupted position is valid
    return data


def _first_nonempty(lists: list[list[Any]]) -> list[Any]:
    return next(items for items in lists if items)


Change = Callable[[dict[str, Any]], None]
CASES: list[tuple[str, str, Change, str]] = [
    # DEEP DIVE: tiles are indices into the data's 160 tiles.
    ("deep_dive", "two places", lambda s: s["discarded"].append(_first_nonempty(s["unseen"])[0]), r"tile D\d-\d\d \(\d+\) is in two places: unseen\[\d\] and discarded"),
    ("deep_dive", "unknown", lambda s: s["discarded"].append(999), r"discarded holds tile 999, which the game does not have"),
    ("deep_dive", "count", lambda s: _first_nonempty(s["unseen"]).pop(), r"tiles in play, but the game has \d+ \(tile D\d-\d\d \(\d+\) is nowhere\)"),
    ("deep_dive", "range", lambda s: s.update(ai_position=7), r"ai_position must be from 1 to 5, not 7"),
    ("deep_dive", "seat", lambda s: s.update(start_player=9), r"start_player must be from 0 to \d, not 9"),
    # Fuji 99: cards are instance ids of the 22-card deck.
    ("fuji99", "two places", lambda s: s["hands"][1].append((s["deck"] or s["discard"])[0]), r"card '[\w-]+' is in two places: (deck|discard) and hands\[1\]"),
    ("fuji99", "unknown", lambda s: s["deck"].append("volcano-9"), r"deck holds card 'volcano-9', which the game does not have"),
    ("fuji99", "count", lambda s: (s["deck"] or s["discard"]).pop(), r"21 cards in play, but the game has 22 \(card '[\w-]+' is nowhere\)"),
    ("fuji99", "range", lambda s: s["pos"].__setitem__(0, 1000), r"pos\[0\] must be from 0 to \d+, not 1000"),
    ("fuji99", "seat", lambda s: s.update(active=9), r"active must be from 0 to \d, not 9"),
    # Merchants of B99: shop tiles and reputation cards by id.
    ("merchants", "two places", lambda s: s["supply"].append(s["supply"][0]), r"tile '\w+' is twice in supply"),
    ("merchants", "unknown", lambda s: s["reputation_deck"].append("REP99"), r"reputation_deck holds reputation card 'REP99', which the game does not have"),
    ("merchants", "count", lambda s: s["supply"].pop(), r"tiles in play, but the game has \d+ \(tile '\w+' is nowhere\)"),
    ("merchants", "card", lambda s: s["c_cards"].update(dragon="C99"), r"c_cards\['dragon'\] holds C card 'C99', which the game does not have"),
    ("merchants", "card twice", lambda s: s["c_cards"].update(castle=s["c_cards"]["dragon"]), r"C card 'C\d' is in two places: c_cards\['dragon'\] and c_cards\['castle'\]"),
    ("merchants", "range", lambda s: s.update(round=7), r"round must be from 0 to 3, not 7"),
    ("merchants", "score", lambda s: s["players_state"][0]["fields"].update(score=10**6), r"players_state\[0\].score must be from"),
    # The Magnificent: posters, trainer tiles and player boards by id.
    ("magnificent", "two places", lambda s: s["poster_discard"].append(s["poster_deck"][0]), r"poster '\w+' is in two places: poster_deck and poster_discard"),
    ("magnificent", "unknown", lambda s: s["trainer_deck"].append("TR99z"), r"trainer_deck holds trainer tile 'TR99z', which the game does not have"),
    ("magnificent", "trainer twice", lambda s: s["removed_trainers"].append(s["trainer_deck"][0]), r"trainer tile '\w+' is in two places: trainer_deck and removed_trainers"),
    ("magnificent", "count", lambda s: s["poster_deck"].pop(), r"posters in play, but the game has \d+ \(poster '\w+' is nowhere\)"),
    ("magnificent", "tent", lambda s: s["tents_left"].append("T00"), r"tent 'T00' is in two places: tents_left and players_state\[3\].tents \(the game has 4\)"),
    ("magnificent", "master twice", lambda s: s["master_deck"].append(s["master_deck"][0]), r"master card '\w+' is twice in master_deck"),
    ("magnificent", "camp tiles", lambda s: s["supply"].update({k: v - 1 for k, v in list(s["supply"].items())[:1]}), r"camp tiles in play, but the game has \d+"),
    ("magnificent", "range", lambda s: s["players_state"][1]["fields"].update(coins=-3), r"players_state\[1\].coins must be from 0 to \d+, not -3"),
    ("magnificent", "seat", lambda s: s.update(start_player=9), r"start_player must be from 0 to \d, not 9"),
]


@pytest.mark.parametrize(("game_id", "kind", "change", "message"), CASES, ids=[f"{g}-{k}" for g, k, _, _ in CASES])
def test_an_impossible_position_is_refused_naming_what_is_wrong(game_id: str, kind: str, change: Change, message: str) -> None:
    data = mid_game(game_id)
    change(data["state"])
    with pytest.raises(PositionError, match=message):
        load_position(data)


CONFIGS: list[tuple[str, int | None, dict[str, Any]]] = [
    *((game_id, None, {}) for game_id in GAMES),
    ("deep_dive", 1, {"ai_difficulty": "hard"}),
    ("deep_dive", 5, {}),
    ("fuji99", 2, {}),
    ("merchants", 1, {}),
    ("merchants", 2, {"floor99": "dragon"}),
    ("merchants", 3, {"first_game": True}),
    ("magnificent", 2, {"side_b": True, "draft_master_cards": True}),
]


@pytest.mark.parametrize(("game_id", "players", "variants"), CONFIGS, ids=[f"{g}-{p}-{'-'.join(v)}" for g, p, v in CONFIGS])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_position_of_a_real_game_loads(game_id: str, players: int | None, variants: dict[str, Any], seed: int) -> None:
    for state in random_states(game_id, seed=seed, every=0.05, players=players, variants=variants):
        load_position(json.loads(json.dumps(position_json(state))))


def test_each_once_counts_copies() -> None:
    each_once("cube", {"bag": ["red", "red"], "board": ["blue"]}, ["red", "red", "blue"])
    with pytest.raises(PositionError, match=r"cube 'red' is in two places: bag and board \(the game has 2\)"):
        each_once("cube", {"bag": ["red", "red"], "board": ["red"]}, ["red", "red", "blue"])
    with pytest.raises(PositionError, match=r"board holds cube \['red'\], which the game does not have"):
        each_once("cube", {"bag": ["red", "red"], "board": [["red"]]}, ["red", "red", "blue"])
    each_once("card", {"deck": ["a"]}, ["a", "b"], every=False)


@pytest.mark.parametrize("game_id", game_ids())
def test_docs_give_every_state_field_of_each_game_one_line(game_id: str) -> None:
    text = (Path(__file__).parent.parent / "docs" / "positions.md").read_text(encoding="utf-8")
    section = text.split(f"(`{game_id}`)\n", 1)[1].split("\n### ", 1)[0]
    documented = re.findall(r"^- `(\w+)` \(", section, flags=re.MULTILINE)
    game = get_game(game_id)
    fields = set(position_json(game.new_initial_state(game.make_config()))["state"])
    assert sorted(documented) == sorted(fields)
