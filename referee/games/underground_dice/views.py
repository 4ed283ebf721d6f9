"""Views of an Underground Dice state, built field by field from what a seat (or a spectator) may know (section 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import Seat

if TYPE_CHECKING:
    from referee.games.underground_dice.state import UndergroundDiceState

#: Phases in which the parent's set dice are chosen (fully or partly) but not revealed.
HIDDEN_DICE_PHASES = frozenset(("set_faces", "stake", "stake_fakes", "guess"))


def build_view(state: UndergroundDiceState, seat: Seat | None) -> dict[str, Any]:
    """The View message of `seat` (None = spectator) as a dict keyed by proto field names."""
    view: dict[str, Any] = {
        "phase": state.phase,
        "completed_parent_turns": list(state.completed),
        "parent_turn_number": state.turn_number,
        "unused_pins": state.p,
        "unused_shigoro": state.q,
        "used_dice": [{"type": kind, "face": face} for kind, face in state.used_dice],
        "hands": [_hand(state, owner, seat) for owner in (0, 1)],
        "pot": state.pot,
        "counterfeit_rule": state.counterfeit,
        "until_bankruptcy": state.until_bankruptcy,
        "max_parent_turns": state.max_parent_turns,
    }
    if seat is not None:
        view["seat"] = seat
    if state.stake_cap is not None:
        view["stake_cap"] = state.stake_cap
    if state.parent is not None:
        view["parent"] = state.parent
        view["child"] = 1 - state.parent
    if state.announced is not None:
        view["announced_dice"] = state.announced
    if state.stake is not None:
        view["stake"] = state.stake
    if state.guess is not None:
        view["guess"] = state.guess
    if state.revealed_total is not None:
        view["revealed_total"] = state.revealed_total
        view["hit"] = bool(state.hit)
    if shows_set_dice(state, seat):
        view["set_pins"] = state.pins_set
        if state.faces_set is not None:
            view["set_faces"] = state.faces_set
    if shows_pot_fakes(state, seat):
        view["pot_fakes"] = state.pot_fakes
    if state.giver is not None and state.receiver is not None:
        transfer: dict[str, Any] = {
            "giver": state.giver,
            "receiver": state.receiver,
            "amount": state.amount,
            "from_stake": state.from_stake,
        }
        view["transfer"] = transfer
    if state.bankrupt is not None:
        view["bankrupt"] = state.bankrupt
    return view


def shows_set_dice(state: UndergroundDiceState, seat: Seat | None) -> bool:
    """The parent sees the dice it set until they are revealed; nobody else does."""
    return seat is not None and seat == state.parent and state.phase in HIDDEN_DICE_PHASES


def shows_pot_fakes(state: UndergroundDiceState, seat: Seat | None) -> bool:
    """Only the owner of the bills on the table knows how many are counterfeit (counterfeit rule)."""
    return (
        seat is not None
        and state.counterfeit
        and seat == state.pot_owner
        and state.pot > 0
        and state.phase != "stake_fakes"
    )


def shows_split(state: UndergroundDiceState, owner: Seat, viewer: Seat | None) -> bool:
    """A hand's genuine/counterfeit split: only for its owner under the counterfeit rule, once dealt."""
    return state.counterfeit and viewer == owner and state.dealt_fakes[owner] is not None


def _hand(state: UndergroundDiceState, owner: Seat, viewer: Seat | None) -> dict[str, Any]:
    """A hand's bill count; its genuine/counterfeit split only for its owner under the counterfeit rule."""
    hand: dict[str, Any] = {"bills": state.hand(owner)}
    if shows_split(state, owner, viewer):
        # During stake_fakes the split still includes the staked bills (the make-up is being chosen).
        hand["genuine"] = state.genuine[owner]
        hand["counterfeit"] = state.fakes[owner]
    return hand
