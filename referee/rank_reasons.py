"""Why a seat ranks where it does when its score alone does not say it (a bankruptcy, a fallback, a tie-break)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine import Game


def score_order_rank(scores: Sequence[float], seat: int) -> int:
    """The rank the score alone would give: 1 + the number of seats that scored more."""
    return 1 + sum(1 for other in scores if other > scores[seat])


def _own_reason(seat: int, replaced: Sequence[bool], details: Mapping[str, Any]) -> str:
    if replaced[seat]:
        return "replaced by the fallback: ranks below every seat that was not"
    if details.get("bankrupt") == seat:
        cause = details.get("reason")
        return "went bankrupt" + (f" ({str(cause).replace('_', ' ')})" if cause else "") + ": ranks last whatever bills it holds"
    if details.get("winner") == seat:
        return "reached the goal: the winner ranks first"
    return ""


def rank_reasons(
    game: Game, ranks: Sequence[int], scores: Sequence[float], replaced: Sequence[bool], details: Mapping[str, Any]
) -> list[str]:
    """Per seat, why its rank differs from what its score alone gives ('' where the score says it all)."""
    reasons = []
    for seat in range(len(ranks)):
        if ranks[seat] == score_order_rank(scores, seat) and not replaced[seat]:
            reasons.append("")
            continue
        own = _own_reason(seat, replaced, details)
        if own:
            reasons.append(own)
            continue
        above = [other for other in range(len(ranks)) if ranks[other] > ranks[seat] and scores[other] >= scores[seat]]
        causes = [
            f"seat {other}, which {'was ' if replaced[other] else ''}{_own_reason(other, replaced, details).split(':')[0]}"
            for other in above
            if _own_reason(other, replaced, details)
        ]
        if causes:
            reasons.append("ranks above " + ", ".join(causes))
        else:
            reasons.append(f"tie-break: {game.ranking_rule}")
    return reasons
