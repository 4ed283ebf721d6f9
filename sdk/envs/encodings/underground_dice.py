"""Underground Dice: view vocabularies and caps, and the frozen action list (see docs/games/underground_dice.md)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from sdk.envs.encoding import EncodingSpec

PHASES = ("deal", "first_parent", "set_pins", "set_faces", "stake", "stake_fakes", "guess",
          "pay_fakes", "accept_or_accuse", "over")
#: Every face setting of 0 to 3 of the 4-5-6 dice, as the engine names them ("none", "4", "45", ...).
FACES = ("none",) + tuple(
    "".join(faces) for count in (1, 2, 3) for faces in combinations_with_replacement("456", count)
)
TOTAL_BILLS = 66

SPEC = EncodingSpec(
    vocab={
        "phase": PHASES,
        "used_dice[].type": ("pin", "shigoro"),
        "set_faces": FACES,
    },
    caps={"completed_parent_turns": 2, "used_dice": 6, "hands": 2},
)

ACTIONS: tuple[str, ...] = (
    tuple(f"pins:{n}" for n in range(4))
    + tuple(f"faces:{faces}" for faces in FACES)
    + tuple(f"stake:{n}" for n in range(1, TOTAL_BILLS + 1))
    + tuple(f"guess:{n}" for n in range(1, 22))
    + tuple(f"fakes:{n}" for n in range(7))
    + ("accept", "accuse")
)
