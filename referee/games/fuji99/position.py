"""What a Fuji 99 position must satisfy beyond its shape: every Fuji card in exactly one place, cubes and track in
range, the facts each phase implies; the deck may be left out (it is the cards placed nowhere else)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.fuji99.data import COLOURS
from referee.games.fuji99.phases import CARDS, CONTINUE_OR_STOP, CUBES, DRAW_COUNT, OVER, PLACE_CUBE, USE_CARDS
from referee.games.fuji99.state import Fuji99State
from referee.position_checks import each_once, in_range, one_of, report, require, seat, seats_long

PHASES = (DRAW_COUNT, CUBES, USE_CARDS, PLACE_CUBE, CONTINUE_OR_STOP, CARDS, OVER)
#: A phase a position may name instead of the engine's: the start of `active`'s turn (the engine begins it).
TURN_START = "turn_start"
CONFIG_FIELDS = {"max_rounds": "max_rounds"}
#: `deck` may be left out: the Fuji cards in no hand, omen area, discard or echo being resolved (kept sorted).
FILLED = ("deck",)
#: The engine's own: the change tokens (made afresh by `derive`).
DERIVED = ("hand_tokens",)


def _places(state: Fuji99State, *, with_deck: bool = True) -> dict[str, list[object]]:
    places: dict[str, list[object]] = {"deck": list(state.deck)} if with_deck else {}
    places.update(discard=list(state.discard), resolving=list(state.resolving))
    for player in range(state.players):
        places[f"hands[{player}]"] = list(state.hands[player])
        places[f"omens[{player}]"] = [entry[0] if isinstance(entry, (list, tuple)) and entry else entry for entry in state.omens[player]]
    return places


def fill(state: Fuji99State, left_out: set[str], given: Mapping[str, Any]) -> None:
    """`deck` when left out: every Fuji card placed nowhere else, sorted (a draw is a chance over the deck)."""
    if "deck" in left_out:
        placed = [card for items in _places(state, with_deck=False).values() for card in items]
        left = list(state.data.deck)
        for card in placed:
            if card in left:
                left.remove(card)
        state.deck = sorted(left)


def derive(state: Fuji99State) -> None:
    """A turn's start named in the position begun as the engine begins one; fresh change tokens."""
    state.renew_tokens()  # the parts were set from the position, not changed by the rules
    if state.phase == TURN_START:
        state.begin_turn()


def check(state: Fuji99State) -> None:
    """Report a Fuji 99 position that cannot happen: a card missing, unknown or in two places (deck, discard, hands,
    omen areas, echoes resolving), cubes on a card not in a hand, a track position, bag or supply out of range, a
    seat that does not exist, a card draw pending without its drawer."""
    data, players = state.data, state.players
    supply = data.supply[players]
    one_of("phase", state.phase, (*PHASES, TURN_START))
    if not all([seats_long(name, getattr(state, name), players) for name in ("pos", "bags", "got", "hands", "omens", "turns_taken")]):
        return
    each_once("card", _places(state), data.deck)
    held = {card for hand in state.hands for card in hand}
    for card, cubes in state.cubes.items():
        if card not in held:
            report(f"cubes[{card!r}]", "cubes lie on cards in hands", f"cubes lie on card {card!r}, which is in no hand")
        in_range(f"cubes[{card!r}]", cubes, 0, 10_000)
    for player in range(players):
        in_range(f"pos[{player}]", state.pos[player], 0, data.goal)
        bag = state.bags[player]
        if seats_long(f"bags[{player}] (clear, yellow, red)", bag, len(COLOURS)):
            for colour, name in enumerate(COLOURS):
                in_range(f"bags[{player}][{colour}] ({name} cubes)", bag[colour], 0, 10_000)
        in_range(f"turns_taken[{player}]", state.turns_taken[player], 0, state.max_rounds)
        require(
            len(state.got[player]) == len(data.yellow_spaces),
            f"got[{player}]",
            "one entry per yellow space",
            f"got[{player}] must list {len(data.yellow_spaces)} yellow spaces, not {state.got[player]!r}",
        )
    if seats_long("yellow_left (on 20, on 50)", state.yellow_left, 2):
        in_range("yellow_left[0]", state.yellow_left[0], 0, supply.yellow_on_20)
        in_range("yellow_left[1]", state.yellow_left[1], 0, supply.yellow_on_50)
    in_range("pagoda", state.pagoda, 0, 10_000)
    in_range("round", state.round, 1, state.max_rounds + 1)
    seat("active", state.active, players)
    seat("drawing", state.drawing, players, none=True)
    seat("winner", state.winner, players, none=True)
    for name in ("m", "red_area", "spent", "available", "to_draw", "draw_count", "to_place"):
        in_range(name, getattr(state, name), 0, 10_000)
    if seats_long("draw (clear, yellow, red)", state.draw, len(COLOURS)):
        for colour, name in enumerate(COLOURS):
            in_range(f"draw[{colour}] ({name} cubes)", state.draw[colour], 0, 10_000)
    for entry in state.stack:
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            report("stack", "(action, seat, card) entries", f"stack entry {entry!r} must be (action, seat, card)")
            continue
        one_of("stack action", entry[0], ("draw", "echo_end"))
        seat("stack seat", entry[1], players)
        if entry[0] == "echo_end" and entry[2] not in state.resolving:
            report("stack", "an echo's end names an echo resolving", f"the stack ends echo {entry[2]!r}, which is not resolving")
    if state.phase == CARDS:
        require(state.drawing is not None, "drawing", "a card draw has its drawer", "phase cards (a Fuji card draw), but drawing is null")
    if state.phase == TURN_START:
        require(not state.stack and not state.resolving, "stack", "a turn starts with nothing pending", "a turn starts with nothing on the stack or resolving")
