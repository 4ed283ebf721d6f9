"""Building Fuji 99 positions for tests: set the board by hand, then drive the engine with explicit outcomes.

`begin_turn` is the only way a test starts a turn from a hand-made position: it sets the active
seat and runs the engine's own turn start (movement piece to pos, pending omens activated).
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.fuji99 import GAME
from referee.games.fuji99.state import Fuji99State


def new_state(players: int = 3, **variants: object) -> Fuji99State:
    """A fresh game at seat 0's first D1."""
    return GAME.new_initial_state(GAME.make_config(players, variants))


def give(state: Fuji99State, seat: int, card: str, cubes: int = 0) -> None:
    """Move `card` from the deck into `seat`'s hand with `cubes` clear cubes on it."""
    state.deck.remove(card)
    state.hands[seat].append(card)
    state.cubes[card] = cubes


def begin_turn(state: Fuji99State, seat: int) -> None:
    """Start `seat`'s turn from the position set up by the test (the engine's own turn start)."""
    state.active = seat
    state._start_turn()


def draw(state: Fuji99State, count: int, clear: int, yellow: int, red: int) -> None:
    """D1 `draw:count`, then the referee draws exactly these cubes (clear first, then yellow, then red)."""
    if clear + yellow + red != count:
        raise ValueError("the injected cubes must add up to the count")
    state.apply_decision(state.active, f"draw:{count}")
    for colour, number in (("clear", clear), ("yellow", yellow), ("red", red)):
        for _ in range(number):
            state.apply_chance(colour)


def option_ids(state: Fuji99State) -> list[str]:
    return [option.id for option in state.legal_options(state.active)]


def draw_cards(state: Fuji99State, cards: Iterable[str]) -> None:
    """Inject the next Fuji card draws (the deck's top cards, in order)."""
    for card in cards:
        state.apply_chance(card)


def hand(state: Fuji99State, seat: int) -> list[tuple[str, int]]:
    return [(card, state.cubes[card]) for card in state.hands[seat]]


def red_bust_turn(state: Fuji99State) -> None:
    """The active seat draws 5 with 3 reds: a red bust that changes nothing but the turn."""
    draw(state, 5, 2, 0, 3)
