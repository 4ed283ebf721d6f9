"""Elo ratings: a multiplayer result counts as pairwise results between all seats (K / (players - 1))."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

import elo

INITIAL_RATING = 1500.0
K_FACTOR = 32.0
BETA = 200.0  # elo's scale: 2 * beta = 400 rating points for 10:1 odds


def pairwise_scores(ranks: Sequence[int]) -> list[list[tuple[float, int]]]:
    """For each seat, its (score, other seat) against every other seat: 1 win, 0.5 draw, 0 loss by rank."""
    series: list[list[tuple[float, int]]] = []
    for seat, rank in enumerate(ranks):
        row = []
        for other, other_rank in enumerate(ranks):
            if other == seat:
                continue
            score = elo.WIN if rank < other_rank else elo.DRAW if rank == other_rank else elo.LOSS
            row.append((score, other))
        series.append(row)
    return series


def rate_match(
    before: Sequence[float], ranks: Sequence[int], k_factor: float = K_FACTOR
) -> list[float]:
    """Ratings after one match, seat by seat, from the ratings before it and the seats' ranks.

    Every seat is rated against every other seat's rating before the match, with the K-factor
    divided by (players - 1) so a multiplayer game weighs as much as one two-player game.
    """
    if len(before) != len(ranks):
        raise ValueError(f"{len(before)} ratings for {len(ranks)} ranks")
    players = len(ranks)
    if players < 2:
        return [float(rating) for rating in before]
    env = elo.Elo(k_factor=k_factor / (players - 1), rating_class=float, initial=INITIAL_RATING, beta=BETA)
    after = []
    for seat, row in enumerate(pairwise_scores(ranks)):
        series = [(score, float(before[other])) for score, other in row]
        after.append(float(env.rate(float(before[seat]), series)))
    return after


@dataclass
class RatingTable:
    """Ratings of a set of players (bot ids or names), updated one match at a time in a fixed order."""

    k_factor: float = K_FACTOR
    initial: float = INITIAL_RATING
    ratings: dict[Hashable, float] = field(default_factory=dict)
    games: dict[Hashable, int] = field(default_factory=dict)

    def rating(self, player: Hashable) -> float:
        """The current rating of `player` (the initial rating if it has not played)."""
        return self.ratings.get(player, self.initial)

    def apply(self, players: Sequence[Hashable], ranks: Sequence[int]) -> tuple[list[float], list[float]]:
        """Rate one match (players in seat order); returns (before, after) per seat.

        A player sitting in several seats of one match (self-play) is rated once per seat from the
        same starting rating, and keeps the mean of its seats' changes.
        """
        before = [self.rating(player) for player in players]
        after = rate_match(before, ranks, self.k_factor)
        deltas: dict[Hashable, list[float]] = {}
        for player, old, new in zip(players, before, after):
            deltas.setdefault(player, []).append(new - old)
        for player, changes in deltas.items():
            self.ratings[player] = self.rating(player) + sum(changes) / len(changes)
            self.games[player] = self.games.get(player, 0) + 1
        return before, after


@dataclass(frozen=True)
class RatingDecision:
    """Whether a finished match changes ratings, and with which ranks.

    `ranks` are the ranks the ratings use: the referee's, except that seats which faulted (were
    replaced by the fallback) share the last place, since their order among themselves is the
    fallback's play, not theirs. `reason` says why a match is not rated (None when it is).
    """

    ranks: tuple[int, ...]
    reason: str | None

    @property
    def rated(self) -> bool:
        return self.reason is None


def rating_decision(ranks: Sequence[int], replaced: Sequence[bool], void: bool = False) -> RatingDecision:
    """Decide how a finished match is rated from the referee's ranks and which seats faulted.

    A void match is never rated. A match where two or more seats faulted and at most one seat
    played clean is decided only by faults: it changes no rating. Otherwise every clean seat keeps
    its rank and the faulted seats share the last place.
    """
    if len(ranks) != len(replaced):
        raise ValueError(f"{len(ranks)} ranks for {len(replaced)} seat flags")
    if void:
        return RatingDecision(tuple(int(rank) for rank in ranks), "void: every seat faulted before the first decision")
    faulted = [seat for seat, out in enumerate(replaced) if out]
    clean = len(ranks) - len(faulted)
    if len(faulted) >= 2 and clean <= 1:
        seats = ", ".join(str(seat) for seat in faulted)
        return RatingDecision(tuple(int(rank) for rank in ranks), f"decided only by faults (seats {seats} faulted)")
    if len(faulted) < 2:
        return RatingDecision(tuple(int(rank) for rank in ranks), None)
    last = clean + 1  # the referee ranks every faulted seat below every clean one
    return RatingDecision(tuple(last if out else int(rank) for rank, out in zip(ranks, replaced)), None)


def replay_ratings(
    matches: Iterable[tuple[Sequence[Hashable], Sequence[int]]],
    k_factor: float = K_FACTOR,
    initial: float = INITIAL_RATING,
) -> RatingTable:
    """Ratings after rating `matches` ((players in seat order, ranks) each) in the given order."""
    table = RatingTable(k_factor=k_factor, initial=initial)
    for players, ranks in matches:
        table.apply(players, ranks)
    return table


def interval_halfwidth(interval: tuple[float, float] | None) -> float | None:
    """Half the width of an interval, the ± shown next to a rating."""
    return None if interval is None else (interval[1] - interval[0]) / 2


def win_shares(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of the pairwise points it could have scored (1 = beat everyone)."""
    if len(ranks) < 2:
        return [1.0 for _ in ranks]
    return [sum(score for score, _ in row) / len(row) for row in pairwise_scores(ranks)]


__all__ = [
    "INITIAL_RATING",
    "K_FACTOR",
    "RatingDecision",
    "RatingTable",
    "interval_halfwidth",
    "pairwise_scores",
    "rate_match",
    "rating_decision",
    "replay_ratings",
    "win_shares",
]

