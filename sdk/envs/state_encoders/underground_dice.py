"""Underground Dice observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

What a seat may see follows referee/games/underground_dice/views.py exactly: the parent's set dice only
to the parent while they are hidden (its HIDDEN_DICE_PHASES), a hand's genuine/counterfeit split only to
its owner under the counterfeit rule once dealt, and the pot's counterfeits only to the pot's owner
(never while a stake's make-up is being chosen). Slot numbers come from the view encoding, by field path.

A step changes a few of the state's values, so each seat's vector is kept for the state it was last
written for and only the fields whose values changed are written again (a value is compared with the one
last written by identity: the engine replaces its scalars and tuples, and its small lists are compared
item by item); the vector handed out is a copy, a block of its own.
"""

from __future__ import annotations

from typing import Any, Final
from weakref import ref

import numpy as np

from referee.engine import Seat
from referee.games.underground_dice.state import STAKE_FAKES, UndergroundDiceState
from referee.games.underground_dice.views import HIDDEN_DICE_PHASES
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import Block, block_slots, over_cap

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

#: where `_Seen.last` keeps each value last written (or `_UNSET`)
_L_PHASE: Final = 0
_L_PARENT: Final = 1
_L_COMPLETED: Final = 2
_L_TURN: Final = 3
_L_PINS: Final = 4
_L_SHIGORO: Final = 5
_L_USED: Final = 6
_L_BILLS0: Final = 7
_L_BILLS1: Final = 8
_L_GENUINE: Final = 9
_L_FAKES: Final = 10
_L_POT: Final = 11
_L_ANNOUNCED: Final = 12
_L_STAKE: Final = 13
_L_GUESS: Final = 14
_L_REVEALED: Final = 15
_L_HIT: Final = 16
_L_SET_PINS: Final = 17
_L_SET_FACES: Final = 18
_L_POT_FAKES: Final = 19
_L_GIVER: Final = 20
_L_RECEIVER: Final = 21
_L_AMOUNT: Final = 22
_L_FROM_STAKE: Final = 23
_L_BANKRUPT: Final = 24
_L_VALUES: Final = 25


class _Unset:
    """No value written yet (every comparison with a state's value differs)."""


_UNSET: Final = _Unset()


class _Seen:
    """A seat's vector as last written for one state (known by a weak reference: keeping finished games alive
    would cost the engine more than the vector saves), with the values it was written from. What never
    changes in a state (its variants, the seat) is written once."""

    def __init__(self, state: UndergroundDiceState, seat: Seat) -> None:
        self.state = ref(state)
        values: Any = np.zeros(_E.size, np.float32)  # Any: numpy's stubs do not declare its buffer
        self.values: Any = values
        self.out: Any = memoryview(values)  # float32 slots
        self.last: list[object] = [_UNSET] * _L_VALUES
        out = self.out
        out[_SEAT] = 1.0
        out[_SEAT + 1] = float(seat)
        out[_HANDS] = 2.0
        for present, _, _, _ in _HAND_ITEMS[:2]:
            out[present] = 1.0
        out[_COUNTERFEIT] = float(state.counterfeit)
        out[_UNTIL] = float(state.until_bankruptcy)
        _optional(out, _STAKE_CAP, state.stake_cap)
        out[_MAX_TURNS] = float(state.max_parent_turns)


#: each (state id, seat)'s vector last written; emptied at _SEEN_SIZE entries (an environment's seats each take one)
_seen: dict[int, _Seen] = {}
_SEEN_SIZE: Final = 64


def _optional(out: Any, slot: int, value: int | None) -> None:  # noqa: ANN401 - a memoryview of float32
    """An optional number: its presence slot, then its value (a memoryview of float32 takes an int as float does)."""
    if value is None:
        out[slot] = 0.0
        out[slot + 1] = 0.0
    else:
        out[slot] = 1.0
        out[slot + 1] = value


def _one_hot(out: Any, slots: dict[str, int], old: object, new: str | None) -> None:  # noqa: ANN401 - a memoryview
    """Move a one-hot field from `old` (a value written before, or not) to `new` (None or "" for none)."""
    if isinstance(old, str) and old != "":
        out[slots[old]] = 0.0
    if new is not None and new != "":
        out[slots[new]] = 1.0


def _write(state: UndergroundDiceState, seat: Seat, seen: _Seen) -> None:
    """Bring `seen`'s vector up to date with `state`, field by field where a value changed."""
    out = seen.out
    last = seen.last
    phase = state.phase
    if phase is not last[_L_PHASE]:
        _one_hot(out, _PHASE, last[_L_PHASE], phase)
        last[_L_PHASE] = phase
    parent = state.parent
    if parent is not last[_L_PARENT]:
        if parent is None:
            _optional(out, _PARENT, None)
            _optional(out, _CHILD, None)
        else:
            _optional(out, _PARENT, parent)
            _optional(out, _CHILD, 1 - parent)
        last[_L_PARENT] = parent
    completed = state.completed
    if completed != last[_L_COMPLETED]:
        if len(completed) > _COMPLETED_CAP:
            raise over_cap("completed_parent_turns", len(completed), _COMPLETED_CAP)
        out[_COMPLETED] = len(completed)
        for i in range(_COMPLETED_CAP):
            out[_COMPLETED + 1 + i] = completed[i] if i < len(completed) else 0
        last[_L_COMPLETED] = completed.copy()
    value: object = state.turn_number
    if value is not last[_L_TURN]:
        out[_TURN] = value
        last[_L_TURN] = value
    value = state.p
    if value is not last[_L_PINS]:
        out[_PINS] = value
        last[_L_PINS] = value
    value = state.q
    if value is not last[_L_SHIGORO]:
        out[_SHIGORO] = value
        last[_L_SHIGORO] = value
    used = state.used_dice
    if used is not last[_L_USED]:
        _write_used(out, used, last[_L_USED])
        last[_L_USED] = used
    genuine, fakes = state.genuine, state.fakes
    bills = genuine[0] + fakes[0]
    other = genuine[1] + fakes[1]
    if phase == STAKE_FAKES and parent is not None:  # the stake, in the pot already, is still the child's split
        if parent == 0:
            other -= state.stake or 0
        else:
            bills -= state.stake or 0
    if bills != last[_L_BILLS0]:
        out[_HAND_ITEMS[0][1]] = bills
        last[_L_BILLS0] = bills
    if other != last[_L_BILLS1]:
        out[_HAND_ITEMS[1][1]] = other
        last[_L_BILLS1] = other
    counterfeit = state.counterfeit
    if counterfeit and state.dealt_fakes[seat] is not None:
        value, split = genuine[seat], fakes[seat]
    else:
        value = split = None
    if value != last[_L_GENUINE] or split != last[_L_FAKES]:
        _, _, genuine_slot, fakes_slot = _HAND_ITEMS[seat]
        _optional(out, genuine_slot, genuine[seat] if split is not None else None)
        _optional(out, fakes_slot, fakes[seat] if split is not None else None)
        last[_L_GENUINE] = value
        last[_L_FAKES] = split
    pot = state.pot
    if pot is not last[_L_POT]:
        out[_POT] = pot
        last[_L_POT] = pot
    announced = state.announced
    if announced is not last[_L_ANNOUNCED]:
        _optional(out, _ANNOUNCED, announced)
        last[_L_ANNOUNCED] = announced
    stake = state.stake
    if stake is not last[_L_STAKE]:
        _optional(out, _STAKE, stake)
        last[_L_STAKE] = stake
    guess = state.guess
    if guess is not last[_L_GUESS]:
        _optional(out, _GUESS, guess)
        last[_L_GUESS] = guess
    revealed, hit = state.revealed_total, state.hit
    if revealed is not last[_L_REVEALED] or hit is not last[_L_HIT]:
        _optional(out, _REVEALED, revealed)
        _optional(out, _HIT, None if revealed is None else int(bool(hit)))
        last[_L_REVEALED] = revealed
        last[_L_HIT] = hit
    if seat == parent and phase in HIDDEN_DICE_PHASES:
        pins, faces = state.pins_set, state.faces_set
    else:
        pins = faces = None
    if pins is not last[_L_SET_PINS]:
        _optional(out, _SET_PINS, pins)
        last[_L_SET_PINS] = pins
    if faces is not last[_L_SET_FACES]:
        _one_hot(out, _SET_FACES, last[_L_SET_FACES], faces)
        last[_L_SET_FACES] = faces
    pot_fakes = state.pot_fakes if counterfeit and seat == state.pot_owner and pot > 0 and phase != STAKE_FAKES else None
    if pot_fakes != last[_L_POT_FAKES]:
        _optional(out, _POT_FAKES, pot_fakes)
        last[_L_POT_FAKES] = pot_fakes
    giver, receiver, amount, from_stake = state.giver, state.receiver, state.amount, state.from_stake
    if (
        giver is not last[_L_GIVER] or receiver is not last[_L_RECEIVER]
        or amount != last[_L_AMOUNT] or from_stake is not last[_L_FROM_STAKE]
    ):
        if giver is not None and receiver is not None:
            out[_TRANSFER] = 1.0
            out[_GIVER] = giver
            out[_RECEIVER] = receiver
            out[_AMOUNT] = amount
            out[_FROM_STAKE] = from_stake
        else:
            for slot in (_TRANSFER, _GIVER, _RECEIVER, _AMOUNT, _FROM_STAKE):
                out[slot] = 0.0
        last[_L_GIVER], last[_L_RECEIVER], last[_L_AMOUNT], last[_L_FROM_STAKE] = giver, receiver, amount, from_stake
    bankrupt = state.bankrupt
    if bankrupt is not last[_L_BANKRUPT]:
        _optional(out, _BANKRUPT, bankrupt)
        last[_L_BANKRUPT] = bankrupt


def _write_used(out: Any, used: tuple[tuple[str, int], ...], before: object) -> None:  # noqa: ANN401 - a memoryview
    """The used dice: each die written again (its type one-hot cleared first), the items no longer used cleared."""
    if len(used) > _USED_CAP:
        raise over_cap("used_dice", len(used), _USED_CAP)
    out[_USED] = len(used)
    for i, (kind, face) in enumerate(used):
        present, kinds, face_slot = _USED_ITEMS[i]
        for slot in kinds.values():
            out[slot] = 0.0
        out[present] = 1.0
        out[kinds[kind]] = 1.0
        out[face_slot] = face
    for i in range(len(used), len(before) if isinstance(before, tuple) else 0):
        present, kinds, face_slot = _USED_ITEMS[i]
        for slot in kinds.values():
            out[slot] = 0.0
        out[present] = 0.0
        out[face_slot] = 0.0


def encode(state: UndergroundDiceState, seat: Seat, slots: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding, with only the secrets that seat may see: the whole vector as one
    block (a copy of the seat's kept vector, brought up to date where the state changed)."""
    key = id(state) * 2 + seat
    seen = _seen.get(key)
    if seen is None or seen.state() is not state:
        if len(_seen) >= _SEEN_SIZE:
            _seen.clear()
        seen = _seen[key] = _Seen(state, seat)
    try:
        _write(state, seat, seen)
    except KeyError as error:  # the view's encoding names the field
        del _seen[key]  # half written: the next observation starts afresh
        raise EncodingError(f"underground_dice: a value of seat {seat}'s view is outside its vocabulary: {error}") from None
    except BaseException:
        del _seen[key]
        raise
    block: Block = (0, seen.values)  # kept: `Slots` blocks are copied into the vector, never handed out
    blocks = getattr(slots, "blocks", None)
    if blocks is not None:
        blocks.append(block)
    else:
        slots.update(block_slots(block))
