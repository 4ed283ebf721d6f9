"""Underground Dice observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

What a seat may see follows referee/games/underground_dice/views.py exactly: the parent's set dice only
to the parent while they are hidden (its HIDDEN_DICE_PHASES), a hand's genuine/counterfeit split only to
its owner under the counterfeit rule once dealt, and the pot's counterfeits only to the pot's owner
(never while a stake's make-up is being chosen). Slot numbers come from the view encoding, by field path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.engine import Seat
from referee.games.underground_dice.state import STAKE_FAKES, UndergroundDiceState
from referee.games.underground_dice.views import HIDDEN_DICE_PHASES
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import block_taker, naming_vocabulary_errors, over_cap

_E = game_encoding("underground_dice").view

_SEAT, _PHASE, _PARENT, _CHILD = _E.start("seat"), _E.one_hot("phase"), _E.start("parent"), _E.start("child")
_COMPLETED = _E.start("completed_parent_turns")
_COMPLETED_CAP = _E.cap("completed_parent_turns")
_TURN, _PINS, _SHIGORO = _E.start("parent_turn_number"), _E.start("unused_pins"), _E.start("unused_shigoro")
_USED = _E.start("used_dice")
_USED_CAP = _E.cap("used_dice")
#: per used die: (presence slot, die type -> slot, face slot)
_USED_ITEMS = tuple(
    (
        _E.start("used_dice[]") + i * _E.stride("used_dice"),
        _E.one_hot("used_dice[].type", shift=i * _E.stride("used_dice")),
        _E.start("used_dice[].face") + i * _E.stride("used_dice"),
    )
    for i in range(_USED_CAP)
)
_HANDS = _E.start("hands")
#: per hand (its owner's seat): (presence slot, bills slot, genuine slot, counterfeit slot)
_HAND_ITEMS = tuple(
    tuple(_E.start(path) + owner * _E.stride("hands") for path in ("hands[]", "hands[].bills", "hands[].genuine", "hands[].counterfeit"))
    for owner in range(_E.cap("hands"))
)
_POT, _ANNOUNCED, _STAKE, _GUESS = _E.start("pot"), _E.start("announced_dice"), _E.start("stake"), _E.start("guess")
_REVEALED, _HIT, _SET_PINS, _SET_FACES = _E.start("revealed_total"), _E.start("hit"), _E.start("set_pins"), _E.one_hot("set_faces")
_POT_FAKES = _E.start("pot_fakes")
_TRANSFER = _E.start("transfer")
_GIVER, _RECEIVER = _E.start("transfer.giver"), _E.start("transfer.receiver")
_AMOUNT, _FROM_STAKE = _E.start("transfer.amount"), _E.start("transfer.from_stake")
_BANKRUPT, _COUNTERFEIT, _UNTIL = _E.start("bankrupt"), _E.start("counterfeit_rule"), _E.start("until_bankruptcy")
_STAKE_CAP, _MAX_TURNS = _E.start("stake_cap"), _E.start("max_parent_turns")


def _encode(state: UndergroundDiceState, seat: Seat, slots: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding, with only the secrets that seat may see: the whole vector as one
    block (a small vector: its few dozen slots set in a float32 array, copied in one go)."""
    values: Any = np.zeros(_E.size, np.float32)  # Any: numpy's stubs do not declare its buffer
    out: Any = memoryview(values)  # float32 slots
    phase = state.phase
    out[_SEAT] = 1.0
    out[_SEAT + 1] = float(seat)
    out[_PHASE[phase]] = 1.0
    parent = state.parent
    if parent is not None:
        out[_PARENT] = 1.0
        out[_PARENT + 1] = float(parent)
        out[_CHILD] = 1.0
        out[_CHILD + 1] = float(1 - parent)
    completed = state.completed
    if len(completed) > _COMPLETED_CAP:
        raise over_cap("completed_parent_turns", len(completed), _COMPLETED_CAP)
    out[_COMPLETED] = float(len(completed))
    for i, count in enumerate(completed, _COMPLETED + 1):
        out[i] = float(count)
    out[_TURN] = float(state.turn_number)
    out[_PINS] = float(state.p)
    out[_SHIGORO] = float(state.q)
    used = state.used_dice
    if len(used) > _USED_CAP:
        raise over_cap("used_dice", len(used), _USED_CAP)
    out[_USED] = float(len(used))
    for i, (kind, face) in enumerate(used):
        present, kinds, face_slot = _USED_ITEMS[i]
        out[present] = 1.0
        out[kinds[kind]] = 1.0
        out[face_slot] = float(face)
    counterfeit = state.counterfeit
    out[_HANDS] = 2.0
    for owner in (0, 1):
        present, bills, genuine, fakes = _HAND_ITEMS[owner]
        out[present] = 1.0
        out[bills] = float(state.hand(owner))
        if counterfeit and owner == seat and state.dealt_fakes[owner] is not None:
            out[genuine] = 1.0
            out[genuine + 1] = float(state.genuine[owner])
            out[fakes] = 1.0
            out[fakes + 1] = float(state.fakes[owner])
    out[_POT] = float(state.pot)
    if state.announced is not None:
        out[_ANNOUNCED] = 1.0
        out[_ANNOUNCED + 1] = float(state.announced)
    if state.stake is not None:
        out[_STAKE] = 1.0
        out[_STAKE + 1] = float(state.stake)
    if state.guess is not None:
        out[_GUESS] = 1.0
        out[_GUESS + 1] = float(state.guess)
    if state.revealed_total is not None:
        out[_REVEALED] = 1.0
        out[_REVEALED + 1] = float(state.revealed_total)
        out[_HIT] = 1.0
        out[_HIT + 1] = float(bool(state.hit))
    if seat == parent and phase in HIDDEN_DICE_PHASES:
        if state.pins_set is not None:
            out[_SET_PINS] = 1.0
            out[_SET_PINS + 1] = float(state.pins_set)
        faces = state.faces_set
        if faces is not None and faces != "":
            out[_SET_FACES[faces]] = 1.0
    if counterfeit and seat == state.pot_owner and state.pot > 0 and phase != STAKE_FAKES:
        out[_POT_FAKES] = 1.0
        out[_POT_FAKES + 1] = float(state.pot_fakes)
    if state.giver is not None and state.receiver is not None:
        out[_TRANSFER] = 1.0
        out[_GIVER] = float(state.giver)
        out[_RECEIVER] = float(state.receiver)
        out[_AMOUNT] = float(state.amount)
        out[_FROM_STAKE] = float(state.from_stake)
    if state.bankrupt is not None:
        out[_BANKRUPT] = 1.0
        out[_BANKRUPT + 1] = float(state.bankrupt)
    out[_COUNTERFEIT] = float(counterfeit)
    out[_UNTIL] = float(state.until_bankruptcy)
    if state.stake_cap is not None:
        out[_STAKE_CAP] = 1.0
        out[_STAKE_CAP + 1] = float(state.stake_cap)
    out[_MAX_TURNS] = float(state.max_parent_turns)
    block_taker(slots)((0, values))


encode = naming_vocabulary_errors('underground_dice', _encode)  # type: ignore[arg-type]
