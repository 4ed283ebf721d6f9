"""What a Fuji 99 position must satisfy beyond its shape: every Fuji card in exactly one place, cubes and track in range."""

from __future__ import annotations

from referee.games.fuji99.data import COLOURS
from referee.games.fuji99.phases import CARDS, CONTINUE_OR_STOP, CUBES, DRAW_COUNT, OVER, PLACE_CUBE, USE_CARDS
from referee.games.fuji99.state import Fuji99State
from referee.position import PositionError
from referee.position_checks import each_once, in_range, one_of, seat, seats_long

PHASES = (DRAW_COUNT, CUBES, USE_CARDS, PLACE_CUBE, CONTINUE_OR_STOP, CARDS, OVER)


def check(state: Fuji99State) -> None:
    """PositionError for a Fuji 99 position that cannot happen: a card missing, unknown or in two places (deck,
    discard, hands, omen areas, echoes resolving), cubes on a card not in a hand, a track position, bag or supply
    out of range, a seat that does not exist."""
    data, players = state.data, state.players
    supply = data.supply[players]
    one_of("phase", state.phase, PHASES)
    for name in ("pos", "bags", "got", "hands", "omens", "turns_taken"):
        seats_long(name, getattr(state, name), players)
    places: dict[str, list[object]] = {"deck": list(state.deck), "discard": list(state.discard), "resolving": list(state.resolving)}
    for player in range(players):
        places[f"hands[{player}]"] = list(state.hands[player])
        places[f"omens[{player}]"] = [entry[0] if isinstance(entry, (list, tuple)) and entry else entry for entry in state.omens[player]]
    each_once("card", places, data.deck)
    held = {card for hand in state.hands for card in hand}
    for card, cubes in state.cubes.items():
        if card not in held:
            raise PositionError(f"position: cubes lie on card {card!r}, which is in no hand")
        in_range(f"cubes[{card!r}]", cubes, 0, 10_000)
    for player in range(players):
        in_range(f"pos[{player}]", state.pos[player], 0, data.goal)
        bag = state.bags[player]
        seats_long(f"bags[{player}] (clear, yellow, red)", bag, len(COLOURS))
        for colour, name in enumerate(COLOURS):
            in_range(f"bags[{player}][{colour}] ({name} cubes)", bag[colour], 0, 10_000)
        in_range(f"turns_taken[{player}]", state.turns_taken[player], 0, state.max_rounds)
        if len(state.got[player]) != len(data.yellow_spaces):
            raise PositionError(f"position: got[{player}] must list {len(data.yellow_spaces)} yellow spaces, not {state.got[player]!r}")
    seats_long("yellow_left (on 20, on 50)", state.yellow_left, 2)
    in_range("yellow_left[0]", state.yellow_left[0], 0, supply.yellow_on_20)
    in_range("yellow_left[1]", state.yellow_left[1], 0, supply.yellow_on_50)
    in_range("pagoda", state.pagoda, 0, 10_000)
    in_range("round", state.round, 1, state.max_rounds + 1)
    seat("active", state.active, players)
    seat("drawing", state.drawing, players, none=True)
    seat("winner", state.winner, players, none=True)
    for name in ("m", "red_area", "spent", "available", "to_draw", "draw_count", "to_place"):
        in_range(name, getattr(state, name), 0, 10_000)
    seats_long("draw (clear, yellow, red)", state.draw, len(COLOURS))
    for colour, name in enumerate(COLOURS):
        in_range(f"draw[{colour}] ({name} cubes)", state.draw[colour], 0, 10_000)
    for entry in state.stack:
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            raise PositionError(f"position: stack entry {entry!r} must be (action, seat, card)")
        one_of("stack action", entry[0], ("draw", "echo_end"))
        seat("stack seat", entry[1], players)
        if entry[0] == "echo_end" and entry[2] not in state.resolving:
            raise PositionError(f"position: the stack ends echo {entry[2]!r}, which is not resolving")
