"""Determinization: a full Underground Dice state consistent with everything one seat knows.

A seat does not know (a) the parent's chosen pins and faces before the reveal, if it is the child, and
(b) under the counterfeit rule, the opponent's genuine/counterfeit split, the make-up of an opponent's
group still on the table, and the set-aside bills. Every change of a hand's make-up after the deal is
a group whose f became public (accepted), or the child's own stake coming back (no change), so the
opponent's split at any time is its dealt count plus publicly known flows. The dealt count is drawn
from the deal's conditional distribution given the seat's own hand, restricted to counts that make
every publicly revealed group possible (the giver held at least f counterfeits and A - f genuine).
"""

from __future__ import annotations

import random
from math import comb
from typing import TYPE_CHECKING

from referee.engine import Seat
from referee.errors import RuleError

if TYPE_CHECKING:
    from referee.games.underground_dice.state import UndergroundDiceState


def determinize(state: UndergroundDiceState, seat: Seat, rng: random.Random) -> UndergroundDiceState:
    """A clone of `state` with what `seat` cannot know redrawn (see the module docstring)."""
    world = state.clone()
    if world.is_terminal():
        return world
    if seat == world.child:
        _resample_parent_dice(world, rng)
    if world.counterfeit:
        _resample_opponent_split(world, seat, rng)
    return world


def _resample_parent_dice(world: UndergroundDiceState, rng: random.Random) -> None:
    """Redraw the parent's hidden pins (and faces, once chosen) uniformly among choices that fit p, q and k."""
    phase = world.phase
    if phase == "set_faces":
        pins = [a for a in range(world.p + 1) if a > 0 or world.q > 0]
        world.pins_set = rng.choice(pins)
    elif phase in ("stake", "stake_fakes", "guess"):
        k = world.announced or 0
        choices = [
            (a, option.name)
            for a in range(min(world.p, k) + 1)
            for option in world.data.face_options
            if option.dice == k - a and option.dice <= world.q
        ]
        world.pins_set, world.faces_set = rng.choice(choices)


def _resample_opponent_split(world: UndergroundDiceState, seat: Seat, rng: random.Random) -> None:
    data = world.data
    opponent = 1 - seat
    mine = world.dealt_fakes[seat]
    theirs = world.dealt_fakes[opponent]
    if theirs is None:
        return  # not dealt yet: still a chance node
    hand = data.bills_per_player
    if mine is None:
        # Only the opponent (P0) is dealt so far: its hand came from the full shuffled box.
        candidates = list(range(min(data.counterfeit_count, hand) + 1))
        weights = [comb(data.counterfeit_count, z) * comb(data.bills_total - data.counterfeit_count, hand - z) for z in candidates]
    else:
        left = data.bills_total - hand
        left_fakes = data.counterfeit_count - mine
        candidates = []
        weights = []
        for z in range(min(left_fakes, hand) + 1):
            weight = comb(left_fakes, z) * comb(left - left_fakes, hand - z)
            if weight and _consistent(world, opponent, z):
                candidates.append(z)
                weights.append(weight)
    dealt = rng.choices(candidates, weights)[0]
    genuine, fakes = _split_now(world, opponent, dealt)
    world.dealt_fakes[opponent] = dealt
    if mine is not None:
        world.set_aside_fakes = data.counterfeit_count - mine - dealt
    # An opponent's group on the table (stake or payment) whose f this seat has not seen.
    if world.pot_owner == opponent and world.pot > 0 and world.phase != "stake_fakes":
        amount = world.pot
        low, high = max(0, amount - genuine), min(amount, fakes)
        group_fakes = rng.randint(low, high)
        world.pot_fakes = group_fakes
        genuine -= amount - group_fakes
        fakes -= group_fakes
    world.genuine[opponent] = genuine
    world.fakes[opponent] = fakes


def _walk(world: UndergroundDiceState, owner: Seat, dealt: int) -> tuple[int, int] | None:
    """`owner`'s (genuine, counterfeit) now, counting a group of its own on the table; None if impossible."""
    genuine, fakes = world.data.bills_per_player - dealt, dealt
    for giver, receiver, amount, group_fakes, accepted in world.revealed_groups:
        if giver == owner:
            if fakes < group_fakes or genuine < amount - group_fakes:
                return None
            if accepted:
                fakes -= group_fakes
                genuine -= amount - group_fakes
        elif receiver == owner and accepted:
            fakes += group_fakes
            genuine += amount - group_fakes
    return genuine, fakes


def _consistent(world: UndergroundDiceState, owner: Seat, dealt: int) -> bool:
    return _walk(world, owner, dealt) is not None


def _split_now(world: UndergroundDiceState, owner: Seat, dealt: int) -> tuple[int, int]:
    split = _walk(world, owner, dealt)
    if split is None:
        # The true dealt count is always consistent, so only a corrupted state gets here.
        raise RuleError(f"underground_dice: dealt count {dealt} contradicts the revealed groups")
    return split
