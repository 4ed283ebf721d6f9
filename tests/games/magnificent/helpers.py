"""State-construction helpers for The Magnificent's tests.

`setup_game` drives the real setup with explicit chance outcomes (the first remaining one unless
named). `begin_turn` then puts a chosen seat at TD1 of a turn after the test has edited the public
state (players' boards, dice, gems, display...) the way a worked example describes; everything
after that point runs through the engine's own decisions and chance nodes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.games.magnificent import GAME
from referee.games.magnificent.data import square_bit
from referee.games.magnificent.model import Player, Turn
from referee.games.magnificent.state import MagnificentState

A, B, C, D = 0, 1, 2, 3


def setup_game(
    players: int = 4,
    start: int = 0,
    chance: Mapping[str, Sequence[str]] | None = None,
    variants: Mapping[str, object] | None = None,
    draft: bool = True,
) -> MagnificentState:
    """Run setup with start player `start`; each chance kind takes the listed outcomes first, then the first one left."""
    state = GAME.new_initial_state(GAME.make_config(players, variants or {}))
    wanted = {kind: list(ids) for kind, ids in (chance or {}).items()}
    while state.is_chance_node() or (draft and state.decision_code() == "SD1"):
        if state.is_chance_node():
            kind = state.chance[0]  # type: ignore[index]
            ids = [o.id for o in state.chance_outcomes()]
            if kind == "start":
                choice = f"seat:{start}"
            elif wanted.get(kind):
                choice = wanted[kind].pop(0)
            else:
                choice = ids[0]
            state.apply_chance(choice)
        else:
            seat = state.deciding_seats()[0]
            state.apply_decision(seat, state.legal_options(seat)[0].id)
        if not draft and state.decision_code() == "SD1":
            break
    return state


def begin_turn(state: MagnificentState, seat: int) -> None:
    """Make `seat` the active player at TD1 (the test has already arranged the state)."""
    state.turn = Turn(seat)
    state.pending = ("TD1", seat)
    state.stack = []
    state._options = {}


def finish_turn(state: MagnificentState) -> None:
    """Play the current turn to its end with the most passive options (the first die, resolve, end, decline...)."""
    passive = ("end", "resolve", "decline", "posters:-", "discard")
    started = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.chance_outcomes()[0].id)
            continue
        code = state.decision_code()
        if code == "TD1" and started or code.startswith(("R", "S")):
            return
        started = True
        options = ids(state)
        choice = next((o for o in options if o in passive), options[0])
        decide(state, choice)


def run_step(state: MagnificentState, *steps: tuple) -> None:
    """Run engine steps directly (for a procedure outside a turn, such as a poster gain or the round end)."""
    state.pending = None
    state._options = {}
    state.stack.extend(reversed(steps))
    state._run()


def ids(state: MagnificentState, seat: int | None = None) -> list[str]:
    """The option ids of `seat` (default: the single deciding seat)."""
    if seat is None:
        (seat,) = state.deciding_seats()
    return [o.id for o in state.legal_options(seat)]


def decide(state: MagnificentState, *option_ids: str) -> None:
    """Apply options one after the other for the single deciding seat."""
    for option_id in option_ids:
        (seat,) = state.deciding_seats()
        state.apply_decision(seat, option_id)


def place(player: Player, tile_type: str, k: int, x: int, y: int) -> None:
    """Put a camp tile straight into a camp (no bonuses), as an example's starting position."""
    from referee.games.magnificent.data import components

    cells = components().tile_types[tile_type].orientations[k]
    ref_x, ref_y = cells[0]
    for cx, cy in cells:
        player.camp |= square_bit(x + cx - ref_x, y + cy - ref_y)
    player.tiles.append((tile_type, k, x, y))


def set_tent(state: MagnificentState, tent: str, colour: str | None = None, index: int | None = None) -> None:
    """Move `tent` onto a track space (or off every track when colour is None), swapping what was there."""
    for track in state.track_tents.values():
        for i, held in enumerate(track):
            if held == tent:
                track[i] = None
    if colour is not None and index is not None:
        state.track_tents[colour][index] = tent
