"""Option objects that depend only on their id (and the card or tile behind it), built once and shared.

Random playouts and searches ask for the same options thousands of times; building each once keeps
`legal_options` cheap. Labels here never depend on the state.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

from referee.engine import Option


@cache
def simple(option_id: str, label: str) -> Option:
    """An option whose payload is only its kind (resolve, end, decline, deck, discard)."""
    return Option(option_id, label, {"kind": option_id})


@cache
def die(colour: str, value: int) -> Option:
    return Option(f"die:{colour}:{value}", f"take die {colour}{value}", {"kind": "die", "colour": colour, "value": value})


@cache
def card(card_id: str) -> Option:
    return Option(f"card:{card_id}", f"place the die on {card_id}", {"kind": "card", "card": card_id})


@cache
def colour(colour_id: str) -> Option:
    return Option(f"colour:{colour_id}", f"use the clear die as {colour_id}", {"kind": "colour", "colour": colour_id})


@cache
def action(action_id: str) -> Option:
    return Option(f"action:{action_id}", action_id.lower(), {"kind": "action", "action": action_id})


@cache
def gem_power(colour_id: str) -> Option:
    return Option(f"gem_power:{colour_id}", f"spend a {colour_id} gem for +2 power", {"kind": "gem_power", "colour": colour_id})


@cache
def master(card_id: str, bonus: str, choice: str = "") -> Option:
    """`master` / `master:-1` / `master:+1` / `master:<colour>` for the card holding this turn's die."""
    payload: dict[str, object] = {"kind": "master", "card": card_id}
    if choice in ("-1", "+1"):
        payload["delta"] = int(choice)
    elif choice:
        payload["colour"] = choice
    suffix = f":{choice}" if choice else ""
    return Option(f"master{suffix}", f"{card_id}: {bonus.lower()}{suffix}", payload)


@cache
def trainer(tile_id: str, name: str, choice: str = "") -> Option:
    """`trainer:<id>`, `trainer:<id>:<colour>` (Painter, Navigator) or `trainer:<id>:<value>` (Dice Tamer)."""
    payload: dict[str, object] = {"kind": "trainer", "trainer": tile_id}
    if choice.isdigit():
        payload["value"] = int(choice)
    elif choice:
        payload["colour"] = choice
    suffix = f":{choice}" if choice else ""
    return Option(f"trainer:{tile_id}{suffix}", f"{name} ({tile_id}){suffix}", payload)


@cache
def level(power: int, tiles: str) -> Option:
    return Option(f"level:{power}", f"build level {power}: {tiles}", {"kind": "level", "level": power})


@cache
def tile(tile_type: str) -> Option:
    return Option(f"tile:{tile_type}", f"place a {tile_type} tile", {"kind": "tile", "tile_type": tile_type})


@cache
def cell(x: int, y: int) -> Option:
    return Option(f"cell:{x},{y}", f"anchor at ({x},{y})", {"kind": "cell", "x": x, "y": y})


@cache
def orient(k: int, cells: tuple[tuple[int, int], ...]) -> Option:
    covered = " ".join(f"({x},{y})" for x, y in cells)
    return Option(f"orient:{k}", f"covering {covered}", {"kind": "orient", "orientation": k})


@cache
def steps(k: int) -> Option:
    return Option(f"steps:{k}", f"move the wagon {k} space{'s' if k > 1 else ''}", {"kind": "steps", "steps": k})


@cache
def space(m: int, shows: int) -> Option:
    return Option(f"space:{m}", f"perform on show space {m} ({shows} show{'s' if shows > 1 else ''})", {"kind": "space", "space": m})


@cache
def pay(colour_id: str) -> Option:
    return Option(f"pay:{colour_id}", f"pay a {colour_id} gem", {"kind": "pay", "colour": colour_id})


@cache
def slot(kind: str, number: int) -> Option:
    """`tent_slot:s`, `slot:s`, `replace:s`."""
    return Option(f"{kind}:{number}", f"{kind.replace('_', ' ')} {number}", {"kind": kind, "slot": number})


@cache
def draft(card_id: str) -> Option:
    return Option(f"draft:{card_id}", f"keep {card_id}", {"kind": "draft", "card": card_id})


@cache
def arrangements(count: int) -> tuple[Option, ...]:
    """PD4 options for `count` remaining posters (taken in slot order): every assignment of distinct slots."""
    options = []
    for slots in permutations(range(1, 6), count):
        text = ",".join(map(str, slots))
        options.append(Option(f"arrange:{text}", f"posters to slots {text}", {"kind": "arrange", "slots": list(slots)}))
    return tuple(options)
