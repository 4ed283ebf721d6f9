"""What an Underground Dice position must satisfy beyond its shape: the bills and dice that exist, each once, and
the facts each phase implies (the deal done past the deal, a parent past the setup)."""

from __future__ import annotations

from referee.games.underground_dice.state import CHANCE_PHASES, DEAL, FIRST_PARENT, OVER, UndergroundDiceState
from referee.position_checks import in_range, one_of, report, require, seat, seats_long

PHASES = ("deal", "first_parent", "set_pins", "set_faces", "stake", "stake_fakes", "guess", "pay_fakes", "accept_or_accuse", "over")
#: State fields the config fixes (field -> its variant): written in the config only.
CONFIG_FIELDS = {
    "counterfeit": "counterfeit",
    "stake_cap": "stake_cap",
    "until_bankruptcy": "until_bankruptcy",
    "max_parent_turns": "max_parent_turns",
    "first_parent_flag": "first_parent",
}
#: The engine's own: the result, computed from the hands once the game is over.
DERIVED = ("_result",)


def derive(state: UndergroundDiceState) -> None:
    """The result of a finished game, from its hands (never read from a position)."""
    state._result = state.final_result() if state.phase == OVER else None


def check(state: UndergroundDiceState) -> None:
    """Report a position that cannot happen: wrong bill counts, counterfeits where there are none or a deal that
    does not add up, more dice than the game has, a seat that is not 0 or 1, a phase without its parent."""
    data = state.data
    one_of("phase", state.phase, PHASES)
    shaped = all([seats_long(name, getattr(state, name), 2) for name in ("genuine", "fakes", "completed", "dealt_fakes")])
    for name in ("genuine", "fakes", "completed"):
        for index, value in enumerate(getattr(state, name) if shaped else ()):
            in_range(f"{name}[{index}]", value, 0, 10_000)
    in_range("pot", state.pot, 0, data.bills_in_play)
    if isinstance(state.pot, int):
        in_range("pot_fakes", state.pot_fakes, 0, state.pot)
    for name in ("parent", "pot_owner", "giver", "receiver", "bankrupt"):
        seat(name, getattr(state, name), 2, none=True)
    require(
        isinstance(state.p, int) and isinstance(state.q, int) and 0 <= state.p <= data.pin_count and 0 <= state.q <= data.shigoro_count,
        "p, q",
        "dice in the game",
        f"{state.p} pin and {state.q} 4-5-6 dice unused, but the game has {data.pin_count} and {data.shigoro_count}",
    )
    if not shaped:
        return
    held = sum(state.genuine) + sum(state.fakes) + state.pot
    if not state.counterfeit:
        require(not (sum(state.fakes) or state.pot_fakes), "fakes", "no counterfeits without the counterfeit rule", "counterfeit bills without the counterfeit rule")
        require(state.dealt_fakes == [None, None], "dealt_fakes", "no deal without the counterfeit rule", f"dealt_fakes is {state.dealt_fakes}, but the game deals no counterfeits")
        require(held == data.bills_in_play, "genuine", "bills in play", f"{held} bills in the hands and the pot, but the game has {data.bills_in_play}")
    else:
        _check_deal(state)
    if state.phase not in CHANCE_PHASES:
        require(state.parent is not None, "parent", "a parent past the setup", f"phase {state.phase} needs a parent, but parent is null")
        in_range("turn_number", state.turn_number, 1, 10_000)


def _check_deal(state: UndergroundDiceState) -> None:
    """Under the counterfeit rule: the deal is done past the deal phase, and it adds up to the game's counterfeits."""
    data = state.data
    dealt, aside = state.dealt_fakes, state.set_aside_fakes
    for index, fakes in enumerate(dealt):
        if fakes is not None:
            in_range(f"dealt_fakes[{index}]", fakes, 0, min(data.counterfeit_count, data.bills_per_player))
    if state.phase == DEAL:
        require(dealt[1] is None and aside is None, "dealt_fakes", "the deal is under way", f"phase deal, but both hands are dealt ({dealt})")
        if dealt[0] is None:
            require(state.fakes == [0, 0], "fakes", "no counterfeits before the deal", f"counterfeits in hand before the deal ({state.fakes})")
        return
    if None in dealt or aside is None:
        report("dealt_fakes", "the deal is done past it", f"phase {state.phase} comes after the deal, but dealt_fakes is {dealt} and set_aside_fakes {aside}")
        return
    in_range("set_aside_fakes", aside, 0, data.counterfeit_count)
    if sum(dealt) + aside != data.counterfeit_count:
        report("dealt_fakes", "the counterfeits dealt", f"{sum(dealt)} counterfeits dealt and {aside} set aside, but the game has {data.counterfeit_count}")
    fakes = sum(state.fakes) + state.pot_fakes + aside
    if state.phase != OVER and fakes != data.counterfeit_count:
        report("fakes", "the counterfeits in play", f"{fakes} counterfeit bills in the hands, the pot and set aside, but the game has {data.counterfeit_count}")
    if state.phase == FIRST_PARENT:
        require(state.parent is None, "parent", "no parent before it is drawn", f"phase first_parent, but parent is {state.parent}")
