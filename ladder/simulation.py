"""Synthetic bots of known strength, played through the ladder's own matchmaker and ratings.

A synthetic result stands in for the referee: each seat's performance is its true strength plus
Gumbel noise, and the seats rank by performance (the Plackett-Luce model; with two players a win
has probability 1 / (1 + 10^((b - a) / 400)), exactly the Elo and Bradley-Terry model). Two ways
to drive it:

- `LadderSimulation`: the real ladder (`ladder.service.Ladder`: candidates, `pick_table`,
  `schedule_match`, `claim_match`, `record_result` with its Elo transaction, the strength fit) on
  a real database, with `SyntheticExecutor` in place of the process pool;
- `simulate`: the same pure functions (`pick_table`, `RatingTable`, `IncrementalFit`) without the
  database, fast enough for the hundreds of runs a coverage measurement needs.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ladder.matchmaking import Candidate, pick_table
from ladder.ratings import INITIAL_RATING, RatingTable, rating_decision
from ladder.settings import LadderSettings
from ladder.strength import SCALE, IncrementalFit, StrengthFit, spearman

#: Matches that count as recent for the matchmaker (as ladder.service.RECENT_MATCHES).
RECENT_WINDOW = 200
#: The command registered for a synthetic bot (it is never run: the synthetic executor plays).
SYNTHETIC_COMMAND = ("synthetic",)


def synthetic_ranks(strengths: Sequence[float], rng: random.Random) -> list[int]:
    """Ranks (1 = first) of seats with these true strengths: strength plus Gumbel noise, best first."""
    performance = [strength / SCALE - math.log(-math.log(1.0 - rng.random())) for strength in strengths]
    order = sorted(range(len(strengths)), key=lambda seat: -performance[seat])
    ranks = [0] * len(strengths)
    for place, seat in enumerate(order, 1):
        ranks[seat] = place
    return ranks


def synthetic_report(job: Any, strengths: dict[int, float], rng: random.Random) -> Any:
    """A referee MatchReport for a claimed job, its ranks drawn from the seats' true strengths."""
    from referee.match import MatchReport, SeatReport

    ranks = synthetic_ranks([strengths[seat.bot_id] for seat in job.seats], rng)
    return MatchReport(
        match_id=job.uid,
        game=job.game,
        config={"game": job.game, "players": job.players, "variants": dict(job.variants)},
        seed=job.seed,
        ranks=ranks,
        scores=[float(len(ranks) - rank) for rank in ranks],
        seats=[SeatReport(seat=seat.seat, name=seat.name, rank=rank, score=float(len(ranks) - rank))
               for seat, rank in zip(job.seats, ranks)],
        decisions=0,
        duration_seconds=0.0,
        replay_path=None,
    )


class SyntheticExecutor:
    """An executor that plays each match at once with a synthetic result, through claim and record."""

    name = "synthetic"

    def __init__(self, strengths: dict[int, float], seed: int = 0) -> None:
        self.strengths = strengths
        self.rng = random.Random(seed)
        self.played = 0

    def submit(self, settings: LadderSettings, match_id: int) -> None:
        from ladder.matches import claim_match, record_result

        job = claim_match(settings, match_id, "synthetic", 60.0)
        if isinstance(job, str):
            return
        if record_result(settings, job, synthetic_report(job, self.strengths, self.rng)):
            self.played += 1

    def shutdown(self) -> None:
        pass


@dataclass
class Outcome:
    """Where a simulated ladder ended: true strengths, Elo, the strength fit, games per bot."""

    truth: dict[Any, float]
    elo: dict[Any, float]
    fit: StrengthFit
    games: dict[Any, int]
    matches: int
    checkpoints: dict[int, tuple[float, float]] = field(default_factory=dict)  # matches -> (Elo, fit) Spearman
    #: matches -> (Elo ratings, strength fit, games per bot) at each checkpoint
    snapshots: dict[int, tuple[dict[Any, float], StrengthFit, dict[Any, int]]] = field(default_factory=dict)

    def spearman_elo(self) -> float:
        """Spearman between the Elo ratings and the true strengths."""
        players = list(self.truth)
        return spearman([self.elo[p] for p in players], [self.truth[p] for p in players])

    def spearman_fit(self) -> float:
        """Spearman between the fitted strengths and the true strengths."""
        players = list(self.truth)
        return spearman([self.fit.rating(p) for p in players], [self.truth[p] for p in players])

    def covered_bots(self, level: float = 0.9) -> tuple[int, int]:
        """(bots whose `level` interval, the one the leaderboard shows, contains the truth, bots that played)."""
        return bots_covered(self.fit, self.truth, level)

    def covered(self, level: float = 0.9) -> tuple[int, int]:
        """(pairs whose `level` interval of the difference contains the true difference, pairs)."""
        return pairs_covered(self.fit, self.truth, level)


def bots_covered(fit: StrengthFit, truth: dict[Any, float], level: float = 0.9) -> tuple[int, int]:
    """(bots whose `level` interval, the one the leaderboard shows, contains the bot's true strength
    relative to the true mean of the bots that played, plus 1500; bots that played)."""
    players = [player for player in truth if player in fit.index]
    if not players:
        return 0, 0
    mean = sum(truth[p] for p in players) / len(players)
    hits = 0
    for player in players:
        low, high = fit.interval(player, level)
        hits += low <= truth[player] - mean + INITIAL_RATING <= high
    return hits, len(players)


def pairs_covered(fit: StrengthFit, truth: dict[Any, float], level: float = 0.9) -> tuple[int, int]:
    """(pairs whose `level` interval of their difference contains the true difference, pairs)."""
    players = list(truth)
    hits = total = 0
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            _, low, high = fit.difference(a, b, level)
            hits += low <= truth[a] - truth[b] <= high
            total += 1
    return hits, total


def intervals_overlap(fit: StrengthFit, a: Any, b: Any, level: float = 0.9) -> bool:
    """Whether the leaderboard's `level` intervals of `a` and `b` overlap (neither is shown better)."""
    low_a, high_a = fit.interval(a, level)
    low_b, high_b = fit.interval(b, level)
    return low_a <= high_b and low_b <= high_a


class LadderSimulation:
    """A real ladder on a real database whose matches are played by SyntheticExecutor."""

    def __init__(self, settings: LadderSettings, game: str, players: int, seed: int = 0) -> None:
        self.settings, self.game, self.players, self.seed = settings, game, players, seed
        self.truth: dict[int, float] = {}

    def add_bots(self, strengths: Sequence[float], prefix: str = "synthetic") -> list[int]:
        """Register one bot per true strength (admitted at once: synthetic bots need no validation)."""
        from ladder.registry import add_bot

        ids = []
        for index, strength in enumerate(strengths):
            bot = add_bot(self.settings, f"{prefix}-{len(self.truth) + index}", self.game, command=list(SYNTHETIC_COMMAND))
            ids.append(bot.id or 0)
        for bot_id, strength in zip(ids, strengths):
            self.truth[bot_id] = float(strength)
        return ids

    def run(self, matches: int, concurrency: int = 4) -> Outcome:
        """Schedule and play `matches` matches through the ladder's loop; the outcome after them."""
        from ladder import queries
        from ladder.recompute import strengths as strength_cache
        from ladder.service import Ladder, SchedulerOptions

        executor = SyntheticExecutor(self.truth, self.seed)
        options = SchedulerOptions(games=[self.game], concurrency=concurrency, seed=self.seed, max_matches=matches,
                                   players={self.game: self.players}, tick_seconds=0.0)
        Ladder(self.settings, executor, options).run(until_idle=True)
        board = queries.leaderboard(self.settings, self.game, with_intervals=False)
        elo = {row.bot_id: row.rating for row in board if row.bot_id in self.truth}
        games = {row.bot_id: row.games for row in board if row.bot_id in self.truth}
        return Outcome(dict(self.truth), elo, strength_cache.fit(self.settings, self.game), games, executor.played)


def simulate(
    truth: Sequence[float],
    matches: int,
    players: int = 2,
    seed: int = 0,
    checkpoints: Sequence[int] = (),
    refit_every: int = 1,
    scheduler: str = "ladder",
) -> Outcome:
    """A ladder without a database: `pick_table` schedules from Elo, games and the strength fit
    (refitted every `refit_every` matches), `RatingTable` rates, `IncrementalFit` fits.

    `scheduler` "random" seats bots uniformly at random instead (a baseline for the benchmark)."""
    if scheduler not in ("ladder", "random"):
        raise ValueError(f"scheduler must be ladder or random, not {scheduler!r}")
    rng = random.Random(seed)
    table = RatingTable()
    incremental = IncrementalFit()
    bots = list(range(len(truth)))
    recent: deque[list[int]] = deque()
    window: Counter[int] = Counter()
    fit = incremental.current()
    scores: dict[int, tuple[float, float]] = {}
    snapshots: dict[int, tuple[dict[Any, float], StrengthFit, dict[Any, int]]] = {}
    for number in range(1, matches + 1):
        if scheduler == "random":
            seating = rng.sample(bots, players)
        else:
            if (number - 1) % refit_every == 0:
                fit = incremental.current()
            candidates = [
                Candidate(
                    bot_id=bot, rating=table.rating(bot), games=table.games.get(bot, 0), recent=window[bot],
                    strength=fit.rating(bot) if bot in fit.index else None, sd=fit.sd(bot) if bot in fit.index else None,
                )
                for bot in bots
            ]
            picked = pick_table(candidates, players, rng)
            if picked is None:
                raise ValueError(f"{len(truth)} bots cannot fill {players} seats")
            seating = picked
        ranks = synthetic_ranks([truth[bot] for bot in seating], rng)
        decision = rating_decision(ranks, [False] * len(ranks))
        table.apply(seating, list(decision.ranks))
        incremental.add(seating, list(decision.ranks))
        recent.append(seating)
        window.update(seating)
        if len(recent) > RECENT_WINDOW:
            window.subtract(recent.popleft())
        if number in checkpoints:
            current = incremental.current()
            scores[number] = (
                spearman([table.rating(b) for b in bots], list(truth)),
                spearman([current.rating(b) for b in bots], list(truth)),
            )
            snapshots[number] = ({bot: table.rating(bot) for bot in bots}, current, dict(table.games))
    return Outcome(
        truth={bot: float(truth[bot]) for bot in bots},
        elo={bot: table.rating(bot) for bot in bots},
        fit=incremental.current(),
        games=dict(table.games),
        matches=matches,
        checkpoints=scores,
        snapshots=snapshots,
    )


def spread_strengths(count: int, low: float = 1100.0, high: float = 1900.0) -> list[float]:
    """`count` true strengths evenly spread from `low` to `high`."""
    if count < 2:
        return [(low + high) / 2] * count
    return [low + (high - low) * i / (count - 1) for i in range(count)]


__all__ = ["LadderSimulation", "bots_covered", "intervals_overlap", "pairs_covered", "Outcome", "SyntheticExecutor", "simulate", "spread_strengths", "synthetic_ranks", "synthetic_report"]
