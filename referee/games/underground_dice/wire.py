"""Underground Dice's typed messages (proto/b99/games/underground_dice.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` field by field, in field-number order,
with the secrecy rules of views.py (`shows_*`); tests compare the two on random games of every variant.
"""

from __future__ import annotations

from typing import Final

from b99.games import underground_dice_pb2 as pb

from referee.engine import Seat
from referee.games.underground_dice.state import UndergroundDiceState
from referee.games.underground_dice.views import shows_pot_fakes, shows_set_dice, shows_split
from referee.wire import (
    Blocks,
    GameWire,
    SharedParts,
    key,
    message_field,
    optional_string_field,
    optional_varint_field,
    packed_field,
    string_field,
    varint,
    varint_field,
)

SEAT: Final = key(1, 0)
PHASE: Final = key(2, 2)
PARENT: Final = key(3, 0)
CHILD: Final = key(4, 0)
COMPLETED: Final = key(5, 2)
TURN_NUMBER: Final = key(6, 0)
PINS: Final = key(7, 0)
SHIGORO: Final = key(8, 0)
USED_DICE: Final = key(9, 2)
HANDS: Final = key(10, 2)
POT: Final = key(11, 0)
ANNOUNCED: Final = key(12, 0)
STAKE: Final = key(13, 0)
GUESS: Final = key(14, 0)
REVEALED: Final = key(15, 0)
HIT: Final = key(16, 0)
SET_PINS: Final = key(17, 0)
SET_FACES: Final = key(18, 2)
POT_FAKES: Final = key(19, 0)
TRANSFER: Final = key(20, 2)
BANKRUPT: Final = key(21, 0)
COUNTERFEIT: Final = key(22, 0)
UNTIL_BANKRUPTCY: Final = key(23, 0)
STAKE_CAP: Final = key(24, 0)
MAX_TURNS: Final = key(25, 0)
HAND_BILLS: Final = key(1, 0)
HAND_GENUINE: Final = key(2, 0)
HAND_COUNTERFEIT: Final = key(3, 0)
DIE_TYPE: Final = key(1, 2)
DIE_FACE: Final = key(2, 0)
GIVER: Final = key(1, 0)
RECEIVER: Final = key(2, 0)
AMOUNT: Final = key(3, 0)
FROM_STAKE: Final = key(4, 0)
#: runs of fields kept before the memory is emptied
PARTS_KEPT: Final = 4096


def _hand(state: UndergroundDiceState, owner: Seat, viewer: Seat) -> bytes:
    body = varint_field(HAND_BILLS, state.hand(owner))
    if shows_split(state, owner, viewer):
        body += HAND_GENUINE + varint(state.genuine[owner]) + HAND_COUNTERFEIT + varint(state.fakes[owner])
    return message_field(HANDS, body)


def view_bytes(state: UndergroundDiceState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message); a small view, secrets
    spread through it: nothing is `shared` between seats. Each run of fields is found by the values it shows
    (a few scalars), written when first met."""
    parent = state.parent
    key: tuple[object, ...] = (0, seat, state.phase, parent)
    head = _PARTS.get(key)
    if head is None:
        head = _PARTS.keep(key, _head(state, seat))
    completed = state.completed
    key = (1, completed[0], completed[1], len(completed), state.turn_number, state.p, state.q, state.used_dice)
    turn = _PARTS.get(key)
    if turn is None:
        turn = _PARTS.keep(key, _turn(state))
    split = (state.genuine[seat], state.fakes[seat]) if shows_split(state, seat, seat) else None
    key = (2, seat, state.hand(0), state.hand(1), split)
    hands = _PARTS.get(key)
    if hands is None:
        hands = _PARTS.keep(key, _hand(state, 0, seat) + _hand(state, 1, seat))
    key = (3, state.pot, state.announced, state.stake, state.guess, state.revealed_total, state.hit)
    bets = _PARTS.get(key)
    if bets is None:
        bets = _PARTS.keep(key, _bets(state))
    key = (
        4, state.giver, state.receiver, state.amount, state.from_stake, state.bankrupt, state.counterfeit,
        state.until_bankruptcy, state.stake_cap, state.max_parent_turns,
    )
    tail = _PARTS.get(key)
    if tail is None:
        tail = _PARTS.keep(key, _tail(state))
    if shows_set_dice(state, seat) or shows_pot_fakes(state, seat):
        return b"".join([head, turn, hands, bets, _secrets(state, seat), tail])
    return b"".join([head, turn, hands, bets, tail])


#: runs of View fields already written, by the values they show
_PARTS: Final = Blocks(PARTS_KEPT)


def _head(state: UndergroundDiceState, seat: Seat) -> bytes:
    """View fields 1-4: the viewer's seat, the phase, the parent and the child."""
    parent = state.parent
    parts = [optional_varint_field(SEAT, seat), string_field(PHASE, state.phase)]
    if parent is not None:
        parts.append(PARENT + varint(parent) + CHILD + varint(1 - parent))
    return b"".join(parts)


def _turn(state: UndergroundDiceState) -> bytes:
    """View fields 5-9: completed parent turns, the turn's number, the unused and the used dice."""
    return b"".join(
        [
            packed_field(COMPLETED, state.completed),
            varint_field(TURN_NUMBER, state.turn_number),
            varint_field(PINS, state.p),
            varint_field(SHIGORO, state.q),
            *[message_field(USED_DICE, string_field(DIE_TYPE, kind) + varint_field(DIE_FACE, face)) for kind, face in state.used_dice],
        ]
    )


def _bets(state: UndergroundDiceState) -> bytes:
    """View fields 11-16: the pot, the announced dice, the stake, the guess, the revealed total and the hit."""
    parts = [
        varint_field(POT, state.pot),
        optional_varint_field(ANNOUNCED, state.announced),
        optional_varint_field(STAKE, state.stake),
        optional_varint_field(GUESS, state.guess),
    ]
    if state.revealed_total is not None:
        parts.append(REVEALED + varint(state.revealed_total) + HIT + varint(bool(state.hit)))
    return b"".join(parts)


def _secrets(state: UndergroundDiceState, seat: Seat) -> bytes:
    """View fields 17-19 that the seat may see: the parent's set dice, the pot's counterfeits."""
    parts = []
    if shows_set_dice(state, seat):
        parts.append(optional_varint_field(SET_PINS, state.pins_set))
        parts.append(optional_string_field(SET_FACES, state.faces_set))
    if shows_pot_fakes(state, seat):
        parts.append(optional_varint_field(POT_FAKES, state.pot_fakes))
    return b"".join(parts)


def _tail(state: UndergroundDiceState) -> bytes:
    """View fields 20-25: the transfer in progress, the bankrupt seat and the variants."""
    parts = []
    if state.giver is not None and state.receiver is not None:
        parts.append(
            message_field(
                TRANSFER,
                varint_field(GIVER, state.giver)
                + varint_field(RECEIVER, state.receiver)
                + varint_field(AMOUNT, state.amount)
                + varint_field(FROM_STAKE, state.from_stake),
            )
        )
    parts += [
        optional_varint_field(BANKRUPT, state.bankrupt),
        varint_field(COUNTERFEIT, state.counterfeit),
        varint_field(UNTIL_BANKRUPTCY, state.until_bankruptcy),
        optional_varint_field(STAKE_CAP, state.stake_cap),
        varint_field(MAX_TURNS, state.max_parent_turns),
    ]
    return b"".join(parts)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
