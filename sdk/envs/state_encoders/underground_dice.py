"""Underground Dice observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

What a seat may see follows referee/games/underground_dice/views.py exactly: the parent's set dice only
to the parent while they are hidden (its HIDDEN_DICE_PHASES), a hand's genuine/counterfeit split only to
its owner under the counterfeit rule once dealt, and the pot's counterfeits only to the pot's owner
(never while a stake's make-up is being chosen). Slot numbers come from the view encoding's layout.
"""

from __future__ import annotations

from referee.engine import Seat
from referee.games.underground_dice.state import STAKE_FAKES, UndergroundDiceState
from referee.games.underground_dice.views import HIDDEN_DICE_PHASES
from sdk.envs.encoding import EncodingError
from sdk.envs.state_encoders.layout import Layout

_L = Layout("underground_dice")

_SEAT, _PHASE, _PARENT, _CHILD = _L.slot("seat"), _L.one_hot("phase"), _L.slot("parent"), _L.slot("child")
_COMPLETED = _L.slot("completed_parent_turns")
_COMPLETED_CAP = _L.cap("completed_parent_turns")
_TURN, _PINS, _SHIGORO = _L.slot("parent_turn_number"), _L.slot("unused_pins"), _L.slot("unused_shigoro")
_USED = _L.slot("used_dice")
_USED_CAP = _L.cap("used_dice")
#: per used die: (presence slot, die type -> slot, face slot)
_USED_ITEMS = tuple(
    (
        _L.slot("used_dice[]") + i * _L.stride("used_dice"),
        _L.one_hot("used_dice[].type", shift=i * _L.stride("used_dice")),
        _L.slot("used_dice[].face") + i * _L.stride("used_dice"),
    )
    for i in range(_USED_CAP)
)
_HANDS = _L.slot("hands")
#: per hand (its owner's seat): (presence slot, bills slot, genuine slot, counterfeit slot)
_HAND_ITEMS = tuple(
    tuple(_L.slot(path) + owner * _L.stride("hands") for path in ("hands[]", "hands[].bills", "hands[].genuine", "hands[].counterfeit"))
    for owner in range(_L.cap("hands"))
)
_POT, _ANNOUNCED, _STAKE, _GUESS = _L.slot("pot"), _L.slot("announced_dice"), _L.slot("stake"), _L.slot("guess")
_REVEALED, _HIT, _SET_PINS, _SET_FACES = _L.slot("revealed_total"), _L.slot("hit"), _L.slot("set_pins"), _L.one_hot("set_faces")
_POT_FAKES = _L.slot("pot_fakes")
_TRANSFER = _L.slot("transfer")
_GIVER, _RECEIVER = _L.slot("transfer.giver"), _L.slot("transfer.receiver")
_AMOUNT, _FROM_STAKE = _L.slot("transfer.amount"), _L.slot("transfer.from_stake")
_BANKRUPT, _COUNTERFEIT, _UNTIL = _L.slot("bankrupt"), _L.slot("counterfeit_rule"), _L.slot("until_bankruptcy")
_STAKE_CAP, _MAX_TURNS = _L.slot("stake_cap"), _L.slot("max_parent_turns")


def encode(state: UndergroundDiceState, seat: Seat, out: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding, with only the secrets that seat may see."""
    phase = state.phase
    out[_SEAT] = 1.0
    out[_SEAT + 1] = seat
    out[_PHASE[phase]] = 1.0
    parent = state.parent
    if parent is not None:
        out[_PARENT] = 1.0
        out[_PARENT + 1] = parent
        out[_CHILD] = 1.0
        out[_CHILD + 1] = 1 - parent
    completed = state.completed
    if len(completed) > _COMPLETED_CAP:
        raise EncodingError(f"view field completed_parent_turns holds {len(completed)} items, more than its cap {_COMPLETED_CAP}")
    out[_COMPLETED] = len(completed)
    for i, count in enumerate(completed, _COMPLETED + 1):
        out[i] = count
    out[_TURN] = state.turn_number
    out[_PINS] = state.p
    out[_SHIGORO] = state.q
    used = state.used_dice
    if len(used) > _USED_CAP:
        raise EncodingError(f"view field used_dice holds {len(used)} items, more than its cap {_USED_CAP}")
    out[_USED] = len(used)
    for i, (kind, face) in enumerate(used):
        present, kinds, face_slot = _USED_ITEMS[i]
        out[present] = 1.0
        out[kinds[kind]] = 1.0
        out[face_slot] = face
    counterfeit = state.counterfeit
    out[_HANDS] = 2
    for owner in (0, 1):
        present, bills, genuine, fakes = _HAND_ITEMS[owner]
        out[present] = 1.0
        out[bills] = state.hand(owner)
        if counterfeit and owner == seat and state.dealt_fakes[owner] is not None:
            out[genuine] = 1.0
            out[genuine + 1] = state.genuine[owner]
            out[fakes] = 1.0
            out[fakes + 1] = state.fakes[owner]
    out[_POT] = state.pot
    if state.announced is not None:
        out[_ANNOUNCED] = 1.0
        out[_ANNOUNCED + 1] = state.announced
    if state.stake is not None:
        out[_STAKE] = 1.0
        out[_STAKE + 1] = state.stake
    if state.guess is not None:
        out[_GUESS] = 1.0
        out[_GUESS + 1] = state.guess
    if state.revealed_total is not None:
        out[_REVEALED] = 1.0
        out[_REVEALED + 1] = state.revealed_total
        out[_HIT] = 1.0
        out[_HIT + 1] = bool(state.hit)
    if seat == parent and phase in HIDDEN_DICE_PHASES:
        if state.pins_set is not None:
            out[_SET_PINS] = 1.0
            out[_SET_PINS + 1] = state.pins_set
        faces = state.faces_set
        if faces is not None and faces != "":
            out[_SET_FACES[faces]] = 1.0
    if counterfeit and seat == state.pot_owner and state.pot > 0 and phase != STAKE_FAKES:
        out[_POT_FAKES] = 1.0
        out[_POT_FAKES + 1] = state.pot_fakes
    if state.giver is not None and state.receiver is not None:
        out[_TRANSFER] = 1.0
        out[_GIVER] = state.giver
        out[_RECEIVER] = state.receiver
        out[_AMOUNT] = state.amount
        out[_FROM_STAKE] = state.from_stake
    if state.bankrupt is not None:
        out[_BANKRUPT] = 1.0
        out[_BANKRUPT + 1] = state.bankrupt
    out[_COUNTERFEIT] = counterfeit
    out[_UNTIL] = state.until_bankruptcy
    if state.stake_cap is not None:
        out[_STAKE_CAP] = 1.0
        out[_STAKE_CAP + 1] = state.stake_cap
    out[_MAX_TURNS] = state.max_parent_turns
