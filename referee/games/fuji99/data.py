"""Fuji 99 component data: the card types, the 22-card deck, the supply per player count and constants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.components import load_component_json, require
from referee.games.fuji99.effects import EFFECTS

PACKAGE = "referee.games.fuji99"
DATA_FILE = "fuji99.json"
TIMINGS = ("use", "instant", "persistent")
COLOURS = ("clear", "yellow", "red")


@dataclass(frozen=True, slots=True)
class CardType:
    """One Fuji card type. `danger` None means X (the clear cubes on the card); `cost` None means unusable."""

    type: str
    name: str
    copies: int
    danger: int | None
    cost: int | None
    cap: int
    timing: str
    effect: str
    params: Mapping[str, Any]
    text: str


@dataclass(frozen=True, slots=True)
class Supply:
    """What one player count puts in play."""

    bag: tuple[int, int, int]
    pagoda: int
    yellow_on_20: int
    yellow_on_50: int


@dataclass(frozen=True, slots=True)
class FujiData:
    """Everything the engine reads from the data file, validated."""

    types: Mapping[str, CardType]
    card_type: Mapping[str, CardType]  # card instance id -> its type
    deck: tuple[str, ...]
    supply: Mapping[int, Supply]
    goal: int
    yellow_spaces: tuple[int, ...]
    min_draw: int
    red_bust_at: int
    danger_bust_at: int
    two_player_rope_spaces: int


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_data(raw: Any, package: str = PACKAGE) -> FujiData:
    """Validate a decoded data file and build FujiData; ComponentDataError says what is wrong."""
    require(isinstance(raw, dict), package, "data file must hold a JSON object")
    for key in ("card_types", "deck", "setup_by_player_count", "constants", "board"):
        require(key in raw, package, f"data file has no {key!r}")
    types: dict[str, CardType] = {}
    require(isinstance(raw["card_types"], list) and raw["card_types"], package, "card_types must be a non-empty list")
    for entry in raw["card_types"]:
        require(isinstance(entry, dict), package, f"card type {entry!r} is not an object")
        type_id = entry.get("type")
        require(isinstance(type_id, str) and type_id != "", package, f"card type without a type id: {entry!r}")
        require(type_id not in types, package, f"card type {type_id!r} appears twice")
        danger = entry.get("danger")
        require(danger == "X" or (_int(danger) and danger >= 0), package, f"{type_id}: danger must be X or >= 0, not {danger!r}")
        cost = entry.get("cost")
        require(cost is None or (_int(cost) and cost >= 0), package, f"{type_id}: cost must be null or >= 0, not {cost!r}")
        cap = entry.get("cap")
        require(_int(cap) and cap >= 0, package, f"{type_id}: cap must be >= 0, not {cap!r}")
        copies = entry.get("copies")
        require(_int(copies) and copies >= 1, package, f"{type_id}: copies must be >= 1, not {copies!r}")
        timing = entry.get("timing")
        require(timing in TIMINGS, package, f"{type_id}: timing must be one of {TIMINGS}, not {timing!r}")
        effect = entry.get("effect")
        require(isinstance(effect, dict) and isinstance(effect.get("kind"), str), package, f"{type_id}: effect needs a kind")
        kind = effect["kind"]
        require(kind in EFFECTS, package, f"{type_id}: effect kind {kind!r} has no effect function")
        handler = EFFECTS[kind]
        params = {key: value for key, value in effect.items() if key != "kind"}
        for name in handler.params:
            require(_int(params.get(name)) and params[name] >= 0, package, f"{type_id}: effect {kind!r} needs an integer {name!r}")
        if timing == "instant":
            require(handler.on_draw is not None, package, f"{type_id}: instant card with a non-instant effect {kind!r}")
            require(cost is None, package, f"{type_id}: an instant card never stays in a hand, so it has no cost")
        else:
            require(handler.on_use is not None, package, f"{type_id}: effect {kind!r} cannot be used")
            require(cost is not None, package, f"{type_id}: a {timing} card needs a cost")
        if timing == "persistent":
            require(handler.move_bonus is not None, package, f"{type_id}: persistent card with effect {kind!r} has no lasting part")
        types[type_id] = CardType(
            type=type_id,
            name=str(entry.get("name", type_id)),
            copies=copies,
            danger=None if danger == "X" else danger,
            cost=cost,
            cap=cap,
            timing=timing,
            effect=kind,
            params=params,
            text=str(entry.get("text", "")),
        )
    deck = raw["deck"]
    require(isinstance(deck, list) and all(isinstance(card, str) for card in deck), package, "deck must be a list of card ids")
    require(len(set(deck)) == len(deck), package, "deck has a card id twice")
    card_type: dict[str, CardType] = {}
    for card in deck:
        type_id, _, number = card.rpartition("-")
        require(type_id in types and number.isdigit(), package, f"deck card {card!r} is not <type>-<n> of a known type")
        card_type[card] = types[type_id]
    for type_id, card_kind in types.items():
        count = sum(1 for kind in card_type.values() if kind.type == type_id)
        require(count == card_kind.copies, package, f"{type_id}: {card_kind.copies} copies declared, {count} in the deck")
    supply: dict[int, Supply] = {}
    setups = raw["setup_by_player_count"]
    require(isinstance(setups, dict) and setups, package, "setup_by_player_count must be an object")
    for players_text, setup in setups.items():
        require(players_text.isdigit(), package, f"player count {players_text!r} is not a number")
        require(isinstance(setup, dict), package, f"setup for {players_text} players is not an object")
        bag = setup.get("bag_each")
        require(isinstance(bag, dict) and all(_int(bag.get(c)) and bag[c] >= 0 for c in COLOURS), package, f"setup {players_text}: bad bag_each")
        numbers = [setup.get(key) for key in ("pagoda_clear", "yellow_on_20", "yellow_on_50")]
        require(all(_int(n) and n >= 0 for n in numbers), package, f"setup {players_text}: bad pagoda or yellow counts")
        supply[int(players_text)] = Supply((bag["clear"], bag["yellow"], bag["red"]), numbers[0], numbers[1], numbers[2])
    constants = raw["constants"]
    board = raw["board"]
    require(isinstance(constants, dict) and isinstance(board, dict), package, "constants and board must be objects")
    needed = ("min_draw", "red_bust_at", "danger_bust_at", "two_player_rope_spaces")
    for key in needed:
        require(_int(constants.get(key)) and constants[key] >= 1, package, f"constant {key!r} must be a positive integer")
    goal = board.get("goal_space")
    require(_int(goal) and goal >= 1, package, "board goal_space must be a positive integer")
    spaces = board.get("yellow_spaces")
    require(isinstance(spaces, list) and all(_int(s) and 0 < s < goal for s in spaces), package, "yellow_spaces must lie on the track")
    require(sorted(spaces) == [20, 50], package, "yellow_spaces must be 20 and 50 (the supply table names them)")
    return FujiData(
        types=types,
        card_type=card_type,
        deck=tuple(deck),
        supply=supply,
        goal=goal,
        yellow_spaces=tuple(sorted(spaces)),
        min_draw=constants["min_draw"],
        red_bust_at=constants["red_bust_at"],
        danger_bust_at=constants["danger_bust_at"],
        two_player_rope_spaces=constants["two_player_rope_spaces"],
    )


@cache
def load_data() -> FujiData:
    """The validated component data beside the engine (loaded once)."""
    return parse_data(load_component_json(PACKAGE, DATA_FILE))
