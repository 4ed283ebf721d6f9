"""Local tournaments: a round robin (all seatings) between local bots, run through the referee's
run_match on a process pool, rated with the ladder's Elo in schedule order."""

from __future__ import annotations

import contextlib
import itertools
import math
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ladder.ratings import RatingTable, win_shares
from ladder.strength import fit_history


@dataclass(frozen=True)
class TournamentGame:
    """One game of the schedule: which entrants sit where (entrant indices in seat order), which seed."""

    index: int
    seating: tuple[int, ...]
    seed: int


def round_robin(
    entrants: int, players: int, games_per_table: int, seed: int | None, duplicate: bool = False
) -> list[TournamentGame]:
    """Every table of `players` distinct entrants plays `games_per_table` games, cycling through all
    its seatings. With `duplicate`, each seed is played once in every rotation of a seating (so each
    entrant meets the same luck from every seat), rounding the games up to a multiple of `players`.
    With no `seed`, every game's seed is fresh and secret (from the operating system's CSPRNG)."""
    if players < 1:
        raise ValueError("a game needs at least one player")
    if entrants < players:
        raise ValueError(f"{players} players per game need at least {players} bots, not {entrants}")
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    schedule: list[TournamentGame] = []
    for table in itertools.combinations(range(entrants), players):
        seatings = list(itertools.permutations(table))
        if duplicate:
            for round_index in range(math.ceil(games_per_table / players)):
                base = seatings[round_index % len(seatings)]
                game_seed = rng.getrandbits(63)
                for shift in range(players):
                    rotated = base[shift:] + base[:shift]
                    schedule.append(TournamentGame(len(schedule), rotated, game_seed))
        else:
            for game_index in range(games_per_table):
                schedule.append(TournamentGame(len(schedule), seatings[game_index % len(seatings)], rng.getrandbits(63)))
    return schedule


@dataclass
class EntrantStanding:
    """One entrant's line in the final table."""

    entrant: int
    name: str
    rating: float  # Elo, in schedule order (as the ladder rates)
    strength: float | None  # Bradley-Terry fit of every game at once (ladder.strength); None if it never played
    interval: tuple[float, float] | None  # 90% interval of the strength
    games: int
    wins: float  # first places; a first place shared by k seats counts 1/k
    score_share: float  # mean share of pairwise points (1 = beat everyone every game)
    faults: int


@dataclass(frozen=True)
class SeatFaults:
    """The faults of one entrant in one game, with the last of its bot's stderr."""

    game: int
    seat: int
    entrant: int
    name: str
    faults: list[Any]
    stderr_tail: str
    replaced: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "name": self.name,
            "faults": [fault.to_json() for fault in self.faults],
            "stderr_tail": self.stderr_tail,
            "replaced": self.replaced,
        }


def fault_records(names: Sequence[str], games: Sequence[TournamentGame], reports: Sequence[Any]) -> list[SeatFaults]:
    """Every seat that faulted, game by game, with its stderr tail."""
    records = []
    for game, report in zip(games, reports):
        for seat_report in report.seats:
            if seat_report.faults:
                entrant = game.seating[seat_report.seat]
                records.append(
                    SeatFaults(game.index, seat_report.seat, entrant, names[entrant], list(seat_report.faults),
                               seat_report.stderr_tail, seat_report.replaced)
                )
    return records


@dataclass
class TournamentResult:
    """What a tournament produced: every report, in schedule order, and the standings."""

    names: list[str]
    games: list[TournamentGame]
    reports: list[Any]
    standings: list[EntrantStanding] = field(default_factory=list)

    @property
    def faults(self) -> list[SeatFaults]:
        return fault_records(self.names, self.games, self.reports)

    @property
    def void_games(self) -> list[TournamentGame]:
        """Games nobody played (every seat faulted before any decision): not rated."""
        return [game for game, report in zip(self.games, self.reports) if getattr(report, "void", False)]

    def to_json(self) -> dict[str, Any]:
        return {
            "entrants": self.names,
            "standings": [
                {
                    "name": s.name,
                    "rating": s.rating,
                    "strength": s.strength,
                    "interval": list(s.interval) if s.interval else None,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.wins / s.games if s.games else 0.0,
                    "score_share": s.score_share,
                    "faults": s.faults,
                }
                for s in self.standings
            ],
            "matches": [
                {
                    "seating": list(game.seating),
                    "seed": game.seed,
                    "status": getattr(report, "status", "complete"),
                    "ranks": list(report.ranks),
                    "scores": list(report.scores),
                }
                for game, report in zip(self.games, self.reports)
            ],
            "faults": [record.to_json() for record in self.faults],
        }


def standings(names: Sequence[str], games: Sequence[TournamentGame], reports: Sequence[Any]) -> list[EntrantStanding]:
    """Elo (rated in schedule order, so the same seeds give the same table), wins and faults per entrant.

    A void game (nobody played) is not rated and counts as no game played; its faults still count."""
    table = RatingTable()
    played = [0] * len(names)
    wins = [0.0] * len(names)
    shares = [0.0] * len(names)
    faults = [0] * len(names)
    history = []
    for game, report in zip(games, reports):
        if getattr(report, "void", False):
            # Nobody played: no result to rate; the faults still count against each entrant.
            for seat, entrant in enumerate(game.seating):
                faults[entrant] += len(report.seats[seat].faults)
            continue
        ranks = list(report.ranks)
        table.apply(list(game.seating), ranks)
        history.append((list(game.seating), ranks))
        firsts = ranks.count(1)
        for seat, (entrant, share) in enumerate(zip(game.seating, win_shares(ranks))):
            played[entrant] += 1
            shares[entrant] += share
            wins[entrant] += 1.0 / firsts if ranks[seat] == 1 else 0.0
            faults[entrant] += len(report.seats[seat].faults)
    strengths = fit_history(history)
    lines = [
        EntrantStanding(
            entrant=i,
            name=name,
            rating=table.rating(i),
            strength=strengths.rating(i) if played[i] else None,
            interval=strengths.interval(i) if played[i] and len(names) > 1 else None,
            games=played[i],
            wins=wins[i],
            score_share=shares[i] / played[i] if played[i] else 0.0,
            faults=faults[i],
        )
        for i, name in enumerate(names)
    ]
    lines.sort(key=lambda line: -line.rating)
    return lines


def unique_names(names: Sequence[str]) -> list[str]:
    """Entrant names made distinct (random, random#2, ...)."""
    seen: dict[str, int] = {}
    result = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return result


def _play(spec: Any) -> Any:
    from referee.match import run_match

    return run_match(spec)


def run_tournament(
    game: str,
    bots: Sequence[Any],
    *,
    games_per_table: int,
    players: int | None = None,
    seed: int | None = None,
    duplicate: bool = False,
    parallel: int = 1,
    variants: dict[str, Any] | None = None,
    time_control: Any = None,
    replay_dir: Path | None = None,
    on_result: Callable[[TournamentGame, Any], None] | None = None,
    warm: bool = True,
) -> TournamentResult:
    """Play the round robin of `bots` (BotSpecs, one per entrant) and rate it. With `warm`, Python bots at
    sandbox level none fork from warm parents kept for the whole tournament (referee.warm)."""
    with _warm_pool(warm and any(bot.command is not None and bot.sandbox == "none" for bot in bots)) as pool:
        return _run_tournament(game, bots, games_per_table=games_per_table, players=players, seed=seed, duplicate=duplicate,
                               parallel=parallel, variants=variants, time_control=time_control, replay_dir=replay_dir,
                               on_result=on_result, warm_pool=pool.address if pool is not None else None)


@contextlib.contextmanager
def _warm_pool(wanted: bool) -> Iterator[Any]:
    """A warm pool for the tournament's length (None if not wanted); its parents and their children end with it."""
    if not wanted:
        yield None
        return
    from referee.warm import WarmPool

    pool = WarmPool()
    try:
        yield pool
    finally:
        pool.shutdown()


def _run_tournament(
    game: str,
    bots: Sequence[Any],
    *,
    games_per_table: int,
    players: int | None,
    seed: int | None,
    duplicate: bool,
    parallel: int,
    variants: dict[str, Any] | None,
    time_control: Any,
    replay_dir: Path | None,
    on_result: Callable[[TournamentGame, Any], None] | None,
    warm_pool: str | None,
) -> TournamentResult:
    from dataclasses import replace

    from referee.match import MatchSpec, TimeControl
    from referee.registry import get_game

    engine_game = get_game(game)
    count = players or min(max(len(bots), engine_game.min_players), engine_game.max_players)
    engine_game.make_config(count, variants or {})  # ConfigError now, not in every game
    names = unique_names([bot.name for bot in bots])
    entrants = [replace(bot, name=name) for bot, name in zip(bots, names)]
    schedule = round_robin(len(entrants), count, games_per_table, seed, duplicate)
    if replay_dir is not None:
        replay_dir.mkdir(parents=True, exist_ok=True)

    def spec_for(item: TournamentGame) -> Any:
        return MatchSpec(
            game=game,
            bots=[entrants[i] for i in item.seating],
            seed=item.seed,
            variants=dict(variants or {}),
            time_control=time_control or TimeControl(),
            replay_path=str(replay_dir / f"game-{item.index:05d}.jsonl") if replay_dir else None,
            warm_pool=warm_pool,
        )

    reports: list[Any] = [None] * len(schedule)
    if parallel <= 1:
        for item in schedule:
            reports[item.index] = _play(spec_for(item))
            if on_result:
                on_result(item, reports[item.index])
    else:
        with ProcessPoolExecutor(max_workers=parallel, mp_context=multiprocessing.get_context("spawn")) as pool:
            pending: dict[Future[Any], TournamentGame] = {}
            queue = iter(schedule)
            for item in itertools.islice(queue, parallel * 2):
                pending[pool.submit(_play, spec_for(item))] = item
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    item = pending.pop(future)
                    reports[item.index] = future.result()
                    if on_result:
                        on_result(item, reports[item.index])
                    following = next(queue, None)
                    if following is not None:
                        pending[pool.submit(_play, spec_for(following))] = following
    result = TournamentResult(names=names, games=schedule, reports=reports)
    result.standings = standings(names, schedule, reports)
    return result
