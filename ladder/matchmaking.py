"""Matchmaking: who plays whom next, from each bot's strength, its uncertainty and its recent games
(pure, seeded).

The pairings that teach the ratings the most come first: the anchor is the bot whose strength is
least known (new bots first, then the widest interval, discounted by how much it played lately so
that games stay fair), and its opponents are drawn with weights that grow with how undecided the
game between them is (p(1 - p) of the fitted strengths: near ratings) and with how little is known
of them. The simulation (ladder.simulation, benchmarks/rating_accuracy.py) measures the result."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

#: A bot with fewer rated games than this is new: it is picked first until it has them.
BURST_GAMES = 10
#: Floor of any opponent's weight, so that everyone meets everyone now and then.
MIN_WEIGHT = 0.05
#: The uncertainty of a bot that has not played (the strength fit's prior, rating points).
PRIOR_SD = 400.0


@dataclass(frozen=True)
class Candidate:
    """A bot the matchmaker may seat."""

    bot_id: int
    rating: float  # Elo
    games: int  # rated games so far
    recent: int  # seats in the game's recent matches, including the ones queued or running
    strength: float | None = None  # the Bradley-Terry fit's estimate (None: use the Elo rating)
    sd: float | None = None  # its posterior standard deviation (None: unknown, as wide as the prior)

    @property
    def estimate(self) -> float:
        """The best estimate of the bot's strength on the rating scale."""
        return self.rating if self.strength is None else self.strength

    @property
    def spread(self) -> float:
        """How uncertain that estimate is (rating points)."""
        return PRIOR_SD if self.sd is None else self.sd


def win_probability(a: float, b: float) -> float:
    """The chance that strength `a` beats strength `b` (400 points: 10 to 1)."""
    return 1.0 / (1.0 + 10.0 ** ((b - a) / 400.0))


def opponent_weight(anchor: Candidate, other: Candidate) -> float:
    """How much a game between `anchor` and `other` would teach: how undecided it is (4 p (1 - p),
    1 for equal strengths) times how uncertain `other` is relative to the prior, never below MIN_WEIGHT."""
    p = win_probability(anchor.estimate, other.estimate)
    return max(MIN_WEIGHT, 4.0 * p * (1.0 - p) * min(1.0, 0.25 + other.spread / PRIOR_SD))


def pick_table(
    candidates: Sequence[Candidate], players: int, rng: random.Random, allow_self_play: bool = False
) -> list[int] | None:
    """Bot ids in seat order for the next match, or None if there are too few bots.

    The anchor is a new bot if there is one (the burst), otherwise the bot with the widest
    interval per recent game (ties broken at random). The other seats go to bots drawn with
    `opponent_weight`, scaled down for bots seated often in recent matches. The anchor's seat rotates with its game count, and the others are seated
    in random order.
    """
    pool = list(candidates)
    if not pool or players < 1:
        return None
    if len(pool) < players and not allow_self_play:
        return None
    mean_recent = sum(c.recent for c in pool) / len(pool)
    anchor = min(
        pool,
        key=lambda c: (c.games >= BURST_GAMES, -c.spread * (mean_recent + 1) / (c.recent + 1), c.games, rng.random()),
    )
    table = [anchor]
    others = [c for c in pool if c.bot_id != anchor.bot_id]
    while len(table) < players:
        if not others:
            if not allow_self_play:
                return None
            others = list(pool)
        # Fewest games first for the other seats too: a bot already seated often recently is drawn less.
        weights = [opponent_weight(anchor, c) * (mean_recent + 1) / (c.recent + 1) for c in others]
        chosen = rng.choices(others, weights=weights)[0]
        table.append(chosen)
        if not allow_self_play:
            others.remove(chosen)
    rest = [c.bot_id for c in table[1:]]
    rng.shuffle(rest)
    anchor_seat = anchor.games % players
    return rest[:anchor_seat] + [anchor.bot_id] + rest[anchor_seat:]
