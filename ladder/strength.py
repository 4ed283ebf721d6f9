"""Bradley-Terry strengths fitted to a game's whole rated history, with intervals that mean what they say.

Elo (ladder.ratings) is the official, running rating: it moves after every match and, with K = 32,
keeps wandering by tens of points around a bot's true strength however many games it plays. This
module fits all the results at once instead: the maximum a posteriori Bradley-Terry strengths under
a weak normal prior (mean 1500, sd 400 on the Elo scale), where a win of A over B has probability
1 / (1 + 10^((B - A) / 400)). A multiplayer match counts as pairwise results between all its seats
(equal ranks are half a win each), each weighted 2 / players: the pairs of one ranking are not
independent, and this weight makes the intervals' coverage right in simulation for 2 to 4
players (1 / (players - 1), the Elo table's weight, gave 97% coverage for a 90% interval). The
interval is the normal (Laplace) approximation of the posterior: the inverse of the Hessian of the
log posterior at its maximum. A bot's strength and interval are relative to the field's mean
(every bot of the game that played a rated match), which is 1500 by construction: an absolute
level is not something results can tell, and an interval that includes it never shrinks. The simulation (ladder.simulation) checks that the 90% intervals of
the difference of two bots contain the true difference about 90% of the time.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ladder.ratings import INITIAL_RATING

#: Rating points per natural-log unit of odds: 400 points for 10:1.
SCALE = 400.0 / math.log(10.0)
#: The prior's standard deviation on the rating scale: weak, it only matters for a bot with few
#: games or one that won (or lost) every game, whose maximum-likelihood strength is infinite.
PRIOR_SD = 400.0
#: z for a central 90% interval of a normal distribution.
Z90 = 1.6448536269514722
#: The coverage of the intervals the leaderboards show.
INTERVAL_LEVEL = 0.9


def z_for(level: float) -> float:
    """The z of a central `level` interval of a standard normal (0.9 -> 1.645)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"interval level must be between 0 and 1, not {level}")
    if abs(level - 0.9) < 1e-12:
        return Z90
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)


@dataclass
class PairwiseCounts:
    """Weighted pairwise results between players, accumulated one match at a time."""

    index: dict[Hashable, int] = field(default_factory=dict)
    wins: list[list[float]] = field(default_factory=list)  # wins[a][b]: a's points against b
    meetings: list[list[float]] = field(default_factory=list)  # weighted games between a and b
    games: dict[Hashable, int] = field(default_factory=dict)
    matches: int = 0

    def _slot(self, player: Hashable) -> int:
        if player not in self.index:
            self.index[player] = len(self.index)
            for row in self.wins:
                row.append(0.0)
            for row in self.meetings:
                row.append(0.0)
            self.wins.append([0.0] * len(self.index))
            self.meetings.append([0.0] * len(self.index))
        return self.index[player]

    def add(self, players: Sequence[Hashable], ranks: Sequence[int]) -> None:
        """Count one match (players in seat order, ranks: 1 is first, equal ranks draw)."""
        if len(players) != len(ranks):
            raise ValueError(f"{len(players)} players for {len(ranks)} ranks")
        slots = [self._slot(player) for player in players]
        for player in set(players):
            self.games[player] = self.games.get(player, 0) + 1
        self.matches += 1
        if len(players) < 2:
            return
        weight = 2.0 / len(players)
        for i in range(len(players)):
            for j in range(i + 1, len(players)):
                a, b = slots[i], slots[j]
                if a == b:
                    continue  # a bot against itself teaches nothing about its strength
                score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                self.wins[a][b] += weight * score
                self.wins[b][a] += weight * (1.0 - score)
                self.meetings[a][b] += weight
                self.meetings[b][a] += weight


@dataclass
class StrengthFit:
    """Fitted strengths on the Elo scale and their posterior covariance."""

    index: dict[Hashable, int]
    ratings: np.ndarray
    covariance: np.ndarray
    games: dict[Hashable, int]

    def rating(self, player: Hashable) -> float:
        """The fitted strength of `player` (1500 if it never played)."""
        return float(self.ratings[self.index[player]]) if player in self.index else INITIAL_RATING

    def sd(self, player: Hashable) -> float:
        """The posterior standard deviation of `player`'s strength relative to the field's mean (the
        prior's if it never played); it shrinks as the player plays."""
        if player not in self.index:
            return PRIOR_SD
        return math.sqrt(max(0.0, float(self.covariance[self.index[player], self.index[player]])))

    def interval(self, player: Hashable, level: float = 0.9) -> tuple[float, float]:
        """A central `level` interval of `player`'s strength relative to the field's mean (+ 1500)."""
        half = z_for(level) * self.sd(player)
        return self.rating(player) - half, self.rating(player) + half

    def difference(self, a: Hashable, b: Hashable, level: float = 0.9) -> tuple[float, float, float]:
        """The fitted strength of `a` minus `b`, and a central `level` interval of it: (estimate, low, high)."""
        estimate = self.rating(a) - self.rating(b)
        if a in self.index and b in self.index:
            i, j = self.index[a], self.index[b]
            variance = float(self.covariance[i, i] + self.covariance[j, j] - 2 * self.covariance[i, j])
        else:
            variance = self.sd(a) ** 2 + self.sd(b) ** 2
        half = z_for(level) * math.sqrt(max(0.0, variance))
        return estimate, estimate - half, estimate + half

    def better(self, a: Hashable, b: Hashable) -> float:
        """The posterior probability that `a` is stronger than `b` (0.5 when nothing tells them apart)."""
        estimate, low, high = self.difference(a, b, 0.9)
        sd = (high - low) / (2 * Z90)
        if sd <= 0.0:
            return 0.5 if estimate == 0.0 else float(estimate > 0.0)
        from statistics import NormalDist

        return NormalDist().cdf(estimate / sd)

    def intervals(self, level: float = 0.9) -> dict[Hashable, tuple[float, float]]:
        """Every fitted player's central `level` interval."""
        return {player: self.interval(player, level) for player in self.index}


def fit(counts: PairwiseCounts, prior_sd: float = PRIOR_SD, start: np.ndarray | None = None) -> StrengthFit:
    """The maximum a posteriori strengths for `counts` (Newton's method on the log posterior)."""
    size = len(counts.index)
    if size == 0:
        return StrengthFit({}, np.zeros(0), np.zeros((0, 0)), {})
    wins = np.array(counts.wins, dtype=float)
    meetings = np.array(counts.meetings, dtype=float)
    precision = (SCALE / prior_sd) ** 2  # prior precision in natural units
    theta = np.zeros(size)
    if start is not None:
        theta[: min(size, len(start))] = start[:size]
    hessian = np.eye(size)
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        gradient = (wins - meetings * p).sum(axis=1) - precision * theta
        information = meetings * p * (1.0 - p)
        hessian = np.diag(information.sum(axis=1)) - information + precision * np.eye(size)
        step = np.linalg.solve(hessian, gradient)
        theta += step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    diff = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    information = meetings * p * (1.0 - p)
    hessian = np.diag(information.sum(axis=1)) - information + precision * np.eye(size)
    covariance = centered(np.linalg.inv(hessian)) * SCALE**2
    return StrengthFit(dict(counts.index), INITIAL_RATING + SCALE * theta, covariance, dict(counts.games))


def centered(covariance: np.ndarray) -> np.ndarray:
    """The covariance of every strength minus the field's mean strength, P C P with P = I - 11'/n.

    The data say only how bots compare: the level of the whole field is pinned by the prior alone,
    and its uncertainty (prior sd / sqrt(bots)) never shrinks with games. Measured against the
    field's mean (which the fit keeps at 1500 exactly: the prior's pull sums to zero), a bot's
    interval shrinks as it plays, and differences between bots are unchanged (P (e_a - e_b) = e_a - e_b)."""
    size = covariance.shape[0]
    projection = np.eye(size) - np.full((size, size), 1.0 / size)
    return projection @ covariance @ projection


def fit_history(matches: Iterable[tuple[Sequence[Hashable], Sequence[int]]], prior_sd: float = PRIOR_SD) -> StrengthFit:
    """Strengths fitted to `matches` ((players in seat order, ranks) each); the order does not matter."""
    counts = PairwiseCounts()
    for players, ranks in matches:
        counts.add(players, ranks)
    return fit(counts, prior_sd)


class IncrementalFit:
    """Strengths kept current as matches arrive: counts grow, and each refit starts from the last."""

    def __init__(self, prior_sd: float = PRIOR_SD) -> None:
        self.counts = PairwiseCounts()
        self.prior_sd = prior_sd
        self._fit: StrengthFit | None = None
        self._theta: np.ndarray | None = None  # the last fit's strengths, where the next one starts

    def add(self, players: Sequence[Hashable], ranks: Sequence[int]) -> None:
        """Count one more match (the next current() refits)."""
        self.counts.add(players, ranks)
        self._fit = None

    def current(self) -> StrengthFit:
        """The fit of every match added so far."""
        if self._fit is None:
            self._fit = fit(self.counts, self.prior_sd, self._theta)
            self._theta = (self._fit.ratings - INITIAL_RATING) / SCALE
        return self._fit


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation of two equally long sequences (average ranks for ties)."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("spearman needs two sequences of the same length, at least 2")

    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else 0.0


__all__ = ["IncrementalFit", "PairwiseCounts", "StrengthFit", "fit", "fit_history", "spearman", "z_for"]
