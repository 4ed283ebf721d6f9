"""The seed commitment published at a match's start (shared by the referee and the SDK, which
installs without the referee)."""

from __future__ import annotations

import hashlib


def seed_commitment(seed: int, match_id: str) -> str:
    """The hash published at a match's start: binds the match to its seed without revealing it.

    The match id salts it, so one seed used in two matches gives two unrelated commitments.
    """
    return hashlib.sha256(f"b99-seed-commitment/1:{match_id}:{seed}".encode()).hexdigest()
