"""Underground Dice observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

What a seat may see follows referee/games/underground_dice/views.py exactly: the parent's set dice only
to the parent while they are hidden (its HIDDEN_DICE_PHASES), a hand's genuine/counterfeit split only to
its owner under the counterfeit rule once dealt, and the pot's counterfeits only to the pot's owner
(never while a stake's make-up is being chosen). Slot numbers come from the view encoding, by field path.

A step changes a few of the state's values, so each seat's vector is kept for the state it was last
written for and only the fields whose values changed are written again (a value is compared with the one
last written by identity: the engine replaces its scalars and tuples, and its small lists are compared
item by item); the vector handed out is a copy. `encode` hands the kept vector to `Slots` as one block
(which `ViewEncoding.vector` copies); `observation_vector` hands out the copy itself, for `Table.encode`.
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
from sdk.envs.state_encoders.parts import block_taker, over_cap

_E: Final = game_encoding("underground_dice").view

# Every constant below is `Final`: a compiled build keeps it in C instead of a lookup in the module's globals.
_SEAT: Final = _E.start("seat")
_PHASE: Final = _E.one_hot("phase")
_PARENT: Final = _E.start("parent")
_CHILD: Final = _E.start("child")
_COMPLETED: Final = _E.start("completed_parent_turns")
_COMPLETED_CAP: Final = _E.cap("completed_parent_turns")
_TURN: Final = _E.start("parent_turn_number")
_PINS: Final = _E.start("unused_pins")
_SHIGORO: Final = _E.start("unused_shigoro")
_USED: Final = _E.start("used_dice")
_USED_CAP: Final = _E.cap("used_dice")
#: per used die: (presence slot, die type -> slot, face slot)
_USED_ITEMS: Final = tuple(
    (
        _E.start("used_dice[]") + i * _E.stride("used_dice"),
        _E.one_hot("used_dice[].type", shift=i * _E.stride("used_dice")),
        _E.start("used_dice[].face") + i * _E.stride("used_dice"),
    )
    for i in range(_USED_CAP)
)
_HANDS: Final = _E.start("hands")
#: per hand (its owner's seat): (presence slot, bills slot, genuine slot, counterfeit slot)
_HAND_ITEMS: Final = tuple(
    tuple(_E.start(path) + owner * _E.stride("hands") for path in ("hands[]", "hands[].bills", "hands[].genuine", "hands[].counterfeit"))
    for owner in range(_E.cap("hands"))
)
_BILLS0: Final = _HAND_ITEMS[0][1]
_BILLS1: Final = _HAND_ITEMS[1][1]
_POT: Final = _E.start("pot")
_ANNOUNCED: Final = _E.start("announced_dice")
_STAKE: Final = _E.start("stake")
_GUESS: Final = _E.start("guess")
_REVEALED: Final = _E.start("revealed_total")
_HIT: Final = _E.start("hit")
_SET_PINS: Final = _E.start("set_pins")
_SET_FACES: Final = _E.one_hot("set_faces")
_POT_FAKES: Final = _E.start("pot_fakes")
_TRANSFER: Final = _E.start("transfer")
_GIVER: Final = _E.start("transfer.giver")
_RECEIVER: Final = _E.start("transfer.receiver")
_AMOUNT: Final = _E.start("transfer.amount")
_FROM_STAKE: Final = _E.start("transfer.from_stake")
_BANKRUPT: Final = _E.start("bankrupt")
_COUNTERFEIT: Final = _E.start("counterfeit_rule")
_UNTIL: Final = _E.start("until_bankruptcy")
_STAKE_CAP: Final = _E.start("stake_cap")
_MAX_TURNS: Final = _E.start("max_parent_turns")
_STAKE_FAKES: Final = STAKE_FAKES
_HIDDEN_DICE_PHASES: Final = HIDDEN_DICE_PHASES

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
_seen: Final[dict[int, _Seen]] = {}
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
    """Bring `seen`'s vector up to date with `state`, field by field where a value changed.

    The state's fields are read from its `__dict__` (the engine keeps them there, and a clone copies it): one
    dict lookup each costs half of an attribute read from compiled code."""
    fields: dict[str, Any] = state.__dict__
    out = seen.out
    last = seen.last
    phase = fields["phase"]
    if phase is not last[_L_PHASE]:
        _one_hot(out, _PHASE, last[_L_PHASE], phase)
        last[_L_PHASE] = phase
    parent = fields["parent"]
    if parent is not last[_L_PARENT]:
        if parent is None:
            _optional(out, _PARENT, None)
            _optional(out, _CHILD, None)
        else:
            _optional(out, _PARENT, parent)
            _optional(out, _CHILD, 1 - parent)
        last[_L_PARENT] = parent
    completed = fields["completed"]
    if completed != last[_L_COMPLETED]:
        if len(completed) > _COMPLETED_CAP:
            raise over_cap("completed_parent_turns", len(completed), _COMPLETED_CAP)
        out[_COMPLETED] = len(completed)
        for i in range(_COMPLETED_CAP):
            out[_COMPLETED + 1 + i] = completed[i] if i < len(completed) else 0
        last[_L_COMPLETED] = completed.copy()
    value: object = fields["turn_number"]
    if value is not last[_L_TURN]:
        out[_TURN] = value
        last[_L_TURN] = value
    value = fields["p"]
    if value is not last[_L_PINS]:
        out[_PINS] = value
        last[_L_PINS] = value
    value = fields["q"]
    if value is not last[_L_SHIGORO]:
        out[_SHIGORO] = value
        last[_L_SHIGORO] = value
    used = fields["used_dice"]
    if used is not last[_L_USED]:
        _write_used(out, used, last[_L_USED])
        last[_L_USED] = used
    genuine: list[int] = fields["genuine"]
    fakes: list[int] = fields["fakes"]
    bills = genuine[0] + fakes[0]
    other = genuine[1] + fakes[1]
    if phase == _STAKE_FAKES and parent is not None:  # the stake, in the pot already, is still the child's split
        if parent == 0:
            other -= fields["stake"] or 0
        else:
            bills -= fields["stake"] or 0
    if bills != last[_L_BILLS0]:
        out[_BILLS0] = bills
        last[_L_BILLS0] = bills
    if other != last[_L_BILLS1]:
        out[_BILLS1] = other
        last[_L_BILLS1] = other
    counterfeit = fields["counterfeit"]
    if counterfeit and fields["dealt_fakes"][seat] is not None:
        value, split = genuine[seat], fakes[seat]
    else:
        value = split = None
    if value != last[_L_GENUINE] or split != last[_L_FAKES]:
        _, _, genuine_slot, fakes_slot = _HAND_ITEMS[seat]
        _optional(out, genuine_slot, genuine[seat] if split is not None else None)
        _optional(out, fakes_slot, fakes[seat] if split is not None else None)
        last[_L_GENUINE] = value
        last[_L_FAKES] = split
    pot = fields["pot"]
    if pot is not last[_L_POT]:
        out[_POT] = pot
        last[_L_POT] = pot
    announced = fields["announced"]
    if announced is not last[_L_ANNOUNCED]:
        _optional(out, _ANNOUNCED, announced)
        last[_L_ANNOUNCED] = announced
    stake = fields["stake"]
    if stake is not last[_L_STAKE]:
        _optional(out, _STAKE, stake)
        last[_L_STAKE] = stake
    guess = fields["guess"]
    if guess is not last[_L_GUESS]:
        _optional(out, _GUESS, guess)
        last[_L_GUESS] = guess
    revealed, hit = fields["revealed_total"], fields["hit"]
    if revealed is not last[_L_REVEALED] or hit is not last[_L_HIT]:
        _optional(out, _REVEALED, revealed)
        _optional(out, _HIT, None if revealed is None else int(bool(hit)))
        last[_L_REVEALED] = revealed
        last[_L_HIT] = hit
    if seat == parent and phase in _HIDDEN_DICE_PHASES:
        pins, faces = fields["pins_set"], fields["faces_set"]
    else:
        pins = faces = None
    if pins is not last[_L_SET_PINS]:
        _optional(out, _SET_PINS, pins)
        last[_L_SET_PINS] = pins
    if faces is not last[_L_SET_FACES]:
        _one_hot(out, _SET_FACES, last[_L_SET_FACES], faces)
        last[_L_SET_FACES] = faces
    pot_fakes = (
        fields["pot_fakes"] if counterfeit and seat == fields["pot_owner"] and pot > 0 and phase != _STAKE_FAKES else None
    )
    if pot_fakes != last[_L_POT_FAKES]:
        _optional(out, _POT_FAKES, pot_fakes)
        last[_L_POT_FAKES] = pot_fakes
    giver, receiver, amount, from_stake = fields["giver"], fields["receiver"], fields["amount"], fields["from_stake"]
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
    bankrupt = fields["bankrupt"]
    if bankrupt is not last[_L_BANKRUPT]:
        _optional(out, _BANKRUPT, bankrupt)
        last[_L_BANKRUPT] = bankrupt


def _write_used(out: Any, used: tuple[tuple[str, int], ...], before: object) -> None:  # noqa: ANN401 - a memoryview
    """The used dice: each die that differs from the one written before at its place written again (the old
    type's slot cleared), the items no longer used cleared. Dice are only ever added at the end of the tuple
    (or all taken away), so a change usually writes the new dice alone."""
    if len(used) > _USED_CAP:
        raise over_cap("used_dice", len(used), _USED_CAP)
    old: tuple[tuple[str, int], ...] = before if isinstance(before, tuple) else ()
    out[_USED] = len(used)
    for i, die in enumerate(used):
        kept = old[i] if i < len(old) else None
        if kept is not None and (kept is die or kept == die):
            continue
        kind, face = die
        present, kinds, face_slot = _USED_ITEMS[i]
        if kept is not None:
            out[kinds[kept[0]]] = 0.0
        out[present] = 1.0
        out[kinds[kind]] = 1.0
        out[face_slot] = face
    for i in range(len(used), len(old)):
        present, kinds, face_slot = _USED_ITEMS[i]
        out[kinds[old[i][0]]] = 0.0
        out[present] = 0.0
        out[face_slot] = 0.0


#: the kept vector each seat was handed last (found by identity before `_seen`'s lookup by the state's id)
_recent: Final[list[_Seen | None]] = [None, None]


def _kept(state: UndergroundDiceState, seat: Seat) -> _Seen:
    """`seat`'s kept vector for `state`, brought up to date with it."""
    recent = 0 <= seat < 2
    seen = _recent[seat] if recent else None
    if seen is None or seen.state() is not state:
        key = id(state) * 2 + seat
        seen = _seen.get(key)
        if seen is None or seen.state() is not state:
            if len(_seen) >= _SEEN_SIZE:
                _seen.clear()
            seen = _seen[key] = _Seen(state, seat)
        if recent:
            _recent[seat] = seen
    try:
        _write(state, seat, seen)
    except KeyError as error:  # the view's encoding names the field
        _forget(state, seat)  # half written: the next observation starts afresh
        raise EncodingError(f"underground_dice: a value of seat {seat}'s view is outside its vocabulary: {error}") from None
    except BaseException:
        _forget(state, seat)
        raise
    return seen


def _forget(state: UndergroundDiceState, seat: Seat) -> None:
    """Drop `seat`'s kept vector for `state` (a write failed half way)."""
    _seen.pop(id(state) * 2 + seat, None)
    if 0 <= seat < 2:
        _recent[seat] = None


def encode(state: UndergroundDiceState, seat: Seat, slots: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding, with only the secrets that seat may see: the whole vector as one
    block (the seat's kept vector, brought up to date where the state changed)."""
    block_taker(slots)((0, _kept(state, seat).values))  # kept: `Slots` blocks are copied into the vector, never handed out


def observation_vector(state: UndergroundDiceState, seat: Seat) -> np.ndarray:
    """`seat`'s observation vector, new: what `ViewEncoding.vector` makes of `encode`'s slots (a copy of the kept
    vector), without the slots in between (`Table.encode` calls it where the encoder's module has one)."""
    vector: np.ndarray = _kept(state, seat).values.copy()
    return vector
