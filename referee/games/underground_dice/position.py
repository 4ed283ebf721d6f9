"""What an Underground Dice position must satisfy beyond its shape: the bills and dice that exist, each once."""

from __future__ import annotations

from referee.games.underground_dice.state import CHANCE_PHASES, DEAL, OVER, UndergroundDiceState
from referee.position import PositionError

PHASES = ("deal", "first_parent", "set_pins", "set_faces", "stake", "stake_fakes", "guess", "pay_fakes", "accept_or_accuse", "over")


def check(state: UndergroundDiceState) -> None:
    """PositionError for a position that cannot happen: wrong bill counts, counterfeits where there are none,
    more dice than the game has, a seat that is not 0 or 1."""
    data = state.data
    if state.phase not in PHASES:
        raise PositionError(f"position: phase {state.phase!r} is not one of {', '.join(PHASES)}")
    for name in ("genuine", "fakes", "completed", "dealt_fakes"):
        values = getattr(state, name)
        if not isinstance(values, list) or len(values) != 2:
            raise PositionError(f"position: {name} must list 2 seats, not {values!r}")
    counts = {"genuine": state.genuine, "fakes": state.fakes}
    for name, values in counts.items():
        for seat, value in enumerate(values):
            if not isinstance(value, int) or value < 0:
                raise PositionError(f"position: {name}[{seat}] must be a count (0 or more), not {value!r}")
    if state.pot < 0 or not 0 <= state.pot_fakes <= state.pot:
        raise PositionError(f"position: the pot holds {state.pot} bills of which {state.pot_fakes} counterfeit")
    for seat_name in ("parent", "pot_owner", "giver", "receiver", "bankrupt"):
        seat = getattr(state, seat_name)
        if seat is not None and seat not in (0, 1):
            raise PositionError(f"position: {seat_name} must be seat 0 or 1, not {seat!r}")
    if not 0 <= state.p <= data.pin_count or not 0 <= state.q <= data.shigoro_count:
        raise PositionError(
            f"position: {state.p} pin and {state.q} 4-5-6 dice unused, but the game has {data.pin_count} and {data.shigoro_count}"
        )
    held = sum(state.genuine) + sum(state.fakes) + state.pot
    if not state.counterfeit:
        if sum(state.fakes) or state.pot_fakes:
            raise PositionError("position: counterfeit bills without the counterfeit rule")
        if held != data.bills_in_play:
            raise PositionError(f"position: {held} bills in the hands and the pot, but the game has {data.bills_in_play}")
    elif state.phase not in CHANCE_PHASES or state.phase != DEAL:
        fakes = sum(state.fakes) + state.pot_fakes + (state.set_aside_fakes or 0)
        if state.phase != OVER and fakes != data.counterfeit_count:
            raise PositionError(
                f"position: {fakes} counterfeit bills in the hands, the pot and set aside, but the game has {data.counterfeit_count}"
            )
