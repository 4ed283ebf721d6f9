"""Underground Dice scoring (spec section 6): a hand's value in P and the ranks at the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine import GameResult, Seat
from referee.games.underground_dice.data import Components
from referee.ranking import competition_ranks


def hand_value(data: Components, counterfeit: bool, genuine: int, fakes: int) -> int:
    """Hand value in P: genuine bills count +1 bill each, counterfeits their end value each."""
    return genuine * data.bill_value + fakes * (data.counterfeit_value if counterfeit else data.bill_value)


def final_result(scores: Sequence[int], bankrupt: Seat | None, reason: str | None, parent_turns: int) -> GameResult:
    """The result of a game ending now: the bankrupt seat last, otherwise by score (equal scores draw)."""
    if bankrupt is not None:
        ranks = tuple(2 if seat == bankrupt else 1 for seat in (0, 1))
    else:
        ranks = competition_ranks(tuple(scores))
    details: dict[str, Any] = {"parent_turns": parent_turns}
    if bankrupt is not None:
        details.update(bankrupt=bankrupt, reason=reason)
    return GameResult(ranks, tuple(float(s) for s in scores), details)
