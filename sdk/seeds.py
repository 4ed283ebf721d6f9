"""Checking a match's chance: the seed revealed at the end is the one committed to at the start."""

from __future__ import annotations

import hmac

from sdk.commitment import seed_commitment
from sdk.types import GameOverInfo, GameStartInfo


def seed_was_committed(start: GameStartInfo, over: GameOverInfo) -> bool:
    """True if the seed in `over` hashes to the commitment in `start`: the game's chance was fixed
    before the first decision (replaying the match with that seed then gives the same outcomes)."""
    if not start.seed_commitment or not over.seed:
        return False
    return hmac.compare_digest(seed_commitment(over.seed, start.match_id), start.seed_commitment)
