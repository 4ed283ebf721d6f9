"""Matchmaking: who plays whom next, from each bot's rating and recent games (pure, seeded)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

#: A bot with fewer rated games than this is new: it is picked first until it has them.
BURST_GAMES = 10
#: Rating distance at which an opponent's weight falls to 1/e.
RATING_SPREAD = 200.0
#: Floor of any opponent's weight, so that everyone meets everyone now and then.
MIN_WEIGHT = 0.05


@dataclass(frozen=True)
class Candidate:
    """A bot the matchmaker may seat."""

    bot_id: int
    rating: float
    games: int  # rated games so far
    recent: int  # seats in the game's recent matches, including the ones queued or running


def pick_table(
    candidates: Sequence[Candidate], players: int, rng: random.Random, allow_self_play: bool = False
) -> list[int] | None:
    """Bot ids in seat order for the next match, or None if there are too few bots.

    The anchor is a new bot if there is one (the burst), otherwise the bot with the fewest recent
    games (ties broken at random). The other seats go to bots drawn with weights that fall with
    their rating distance from the anchor. The anchor's seat rotates with its game count, and the
    others are seated in random order.
    """
    pool = list(candidates)
    if not pool or players < 1:
        return None
    if len(pool) < players and not allow_self_play:
        return None
    anchor = min(pool, key=lambda c: (c.games >= BURST_GAMES, c.recent, c.games, rng.random()))
    table = [anchor]
    others = [c for c in pool if c.bot_id != anchor.bot_id]
    while len(table) < players:
        if not others:
            if not allow_self_play:
                return None
            others = list(pool)
        weights = [max(MIN_WEIGHT, math.exp(-abs(c.rating - anchor.rating) / RATING_SPREAD)) for c in others]
        chosen = rng.choices(others, weights=weights)[0]
        table.append(chosen)
        if not allow_self_play:
            others.remove(chosen)
    rest = [c.bot_id for c in table[1:]]
    rng.shuffle(rest)
    anchor_seat = anchor.games % players
    return rest[:anchor_seat] + [anchor.bot_id] + rest[anchor_seat:]
