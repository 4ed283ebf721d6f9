"""Fuji 99 final ranking (spec §6): the winner first, then position, then fewer turns taken."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import GameResult
from referee.ranking import competition_ranks


def final_result(positions: Sequence[int], turns_taken: Sequence[int], winner: int | None, goal: int) -> GameResult:
    """Ranks and scores: the winner scores the goal and ranks 1; others by position, then fewer turns."""
    scores = tuple(float(goal if seat == winner else position) for seat, position in enumerate(positions))
    keys = [
        (seat == winner, scores[seat], -turns_taken[seat])
        for seat in range(len(positions))
    ]
    details = {"winner": winner} if winner is not None else {"winner": None}
    return GameResult(competition_ranks(keys), scores, details)
