"""The strength table of the reference bots: search and ISMCTS against the heuristic and random bots, every game.

    scripts/strength                                   # every game, written into docs/bots.md
    python -m benchmarks.strength                      # print the table only
    python -m benchmarks.strength --games 200 --iterations 200 --only underground_dice --write docs/bots.md
    python -m benchmarks.strength --only fuji99 --pairings search:heuristic --players 2 4 --seconds 1 --games 60
    python -m benchmarks.strength --only deep_dive --players 1 --solo search --variant ai_difficulty=hard
    python -m benchmarks.strength --only merchants --players 1 --solo search --games 60 --log merchants.jsonl  # resumable
    python -m benchmarks.strength --only magnificent --pairings mcts:heuristic --players 2 --mcts-seconds 1 --games 60

The searching bot (`search`) gets `--seconds` of CPU time per decision (its thread's CPU time, so
a loaded shared machine measures the same bot as an idle one; see bots/search/bot.py) on one core
(no root helpers), with its per-table search unless `--style` forces one; ISMCTS (`mcts`)
`--iterations`, or `--mcts-seconds` of CPU time. The *budget* column says which.

For each game and each player count of 2 and 4 it allows, every pairing of reference bots (A vs
B) plays `--games` games: A holds one seat, rotated through all seats, and B every other seat;
seeds run 0..games-1 (the number of games and of ISMCTS iterations per decision default per game,
see GAME_SETTINGS). A's *score* is its mean pairwise result against the other seats (beating a
seat counts 1, a tie 1/2), so 50% means as strong as B, whatever the player count; the table shows
it with a 95% Wilson interval, the Elo difference that score implies (with the interval mapped the
same way), and how often A ranked first. A game with a solo mode also gets each bot's mean solo
score with a 95% interval. The search runs on a fixed iteration budget so the table does not
depend on the machine's speed. Games run in parallel, in-process (no gRPC): the same requests,
and the same worlds for the search, as over the protocol.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from referee.registry import all_games

SECTION = "## Strength table"
#: (games per pairing, ISMCTS iterations) when not given: long games get fewer of both so the
#: whole table fits in an evening on two cores; every other game gets the default.
DEFAULT_SETTINGS = (200, 200)
GAME_SETTINGS = {"magnificent": (60, 30), "deep_dive": (100, 30), "fuji99": (100, 30), "merchants": (100, 30)}
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Pairing:
    game: str
    players: int
    bot: str
    opponent: str
    variants: tuple[tuple[str, str], ...] = ()

    @property
    def game_label(self) -> str:
        """The game id, with any variant flags (`deep_dive ai_difficulty=hard`)."""
        return " ".join([self.game, *(f"{key}={value}" for key, value in self.variants)])


@dataclass
class PairingResult:
    pairing: Pairing
    games: int
    score: float      # mean pairwise score of `bot` against the other seats
    low: float
    high: float
    firsts: float     # share of games where `bot` ranked first (ties at the top split)
    seconds: float | None  # wall time of the run; None when some games came from a log (the run's time is not theirs)


@dataclass(frozen=True)
class Budget:
    """What the searching bots get per decision: ISMCTS iterations, and CPU seconds for `search`."""

    iterations: int
    seconds: float
    #: The search bot's style on every table (`plain` or `paired`), or None for its per-table default.
    style: str | None = None
    #: CPU seconds per decision for ISMCTS instead of `iterations` (None: iterations).
    mcts_seconds: float | None = None

    def label(self, names: Sequence[str]) -> str:
        parts = []
        if "search" in names:
            parts.append(f"{self.seconds:g} s CPU" + (f" {self.style}" if self.style else ""))
        if "mcts" in names:
            parts.append(f"{self.iterations} iterations" if self.mcts_seconds is None else f"mcts {self.mcts_seconds:g} s CPU")
        return ", ".join(parts) or "—"


def make_bot(name: str, budget: Budget | int, seed: int):  # type: ignore[no-untyped-def]
    if isinstance(budget, int):
        budget = Budget(budget, 1.0)
    iterations = budget.iterations
    if name == "search":
        from bots.search.bot import SearchBot

        # One process, one core: root helpers (B99_SEARCH_WORKERS) stay off whatever the environment says.
        return SearchBot(seconds=budget.seconds, seed=seed, cpu_seconds=True, style=budget.style, workers=1)
    if name == "mcts":
        from bots.ismcts import ISMCTSBot

        if budget.mcts_seconds is not None:
            return ISMCTSBot(seconds=budget.mcts_seconds, cpu_seconds=True, seed=seed)
        return ISMCTSBot(iterations=iterations, seed=seed)
    if name == "random":
        from bots.random_bot import RandomBot

        return RandomBot(seed=seed)
    from bots.registry import make_bot as reference_bot

    return reference_bot(name)


def play_one(pairing: Pairing, seed: int, iterations: Budget | int) -> tuple[float, float, list[float]]:
    """One game: (pairwise score of the bot, its share of first place, every seat's score)."""
    from referee.local import play_local

    seat = seed % pairing.players
    bots = [
        make_bot(pairing.bot if index == seat else pairing.opponent, iterations, seed * 101 + index)
        for index in range(pairing.players)
    ]
    report = play_local(pairing.game, bots, seed=seed, variants=dict(pairing.variants))
    ranks = report.ranks
    others = [ranks[i] for i in range(pairing.players) if i != seat]
    if not others:
        # Solo: "first" is a win against the engine-run AI (rank 1 of 2), if the game has one.
        return 0.0, 1.0 if ranks[seat] == 1 else 0.0, list(report.scores)
    score = sum(1.0 if ranks[seat] < other else 0.5 if ranks[seat] == other else 0.0 for other in others) / len(others)
    top = [i for i, rank in enumerate(ranks) if rank == 1]
    first = (1.0 / len(top)) if seat in top else 0.0
    return score, first, list(report.scores)


def _play_one(arguments: tuple[Pairing, int, Budget]) -> tuple[float, float, list[float]]:
    return play_one(*arguments)


def wilson(mean: float, count: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion observed as `mean` over `count` trials."""
    if count == 0:
        return 0.0, 1.0
    denominator = 1 + Z95**2 / count
    centre = (mean + Z95**2 / (2 * count)) / denominator
    half = Z95 * math.sqrt(mean * (1 - mean) / count + Z95**2 / (4 * count**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """Elo difference implied by an expected score (clipped away from 0 and 1)."""
    clipped = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / clipped - 1.0)


Outcome = tuple[float, float, list[float]]


class GameLog:
    """Every finished game of a measurement, one JSON line each (`--log FILE`): a run stopped midway
    starts again where it was, and the games already played count without being played again."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.done: dict[tuple[str, int], Outcome] = {}
        if path is not None and path.exists():
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    score, first, scores = record["outcome"]
                    self.done[(str(record["table"]), int(record["seed"]))] = (float(score), float(first), [float(s) for s in scores])
                except (ValueError, KeyError, TypeError) as error:
                    raise SystemExit(f"{path}:{number}: not a game of a strength measurement ({error})") from None

    def get(self, table: str, seed: int) -> Outcome | None:
        return self.done.get((table, seed))

    def add(self, table: str, seed: int, outcome: Outcome) -> None:
        self.done[(table, seed)] = outcome
        if self.path is not None:
            with self.path.open("a") as handle:
                handle.write(json.dumps({"table": table, "seed": seed, "outcome": list(outcome)}) + "\n")


def table_key(pairing: Pairing, budget: Budget) -> str:
    """What a logged game belongs to: the game and its flags, players, bots and budget."""
    names = (pairing.bot, pairing.opponent)
    return f"{pairing.game_label} | {pairing.players} | {pairing.bot} vs {pairing.opponent} | {budget.label(names)}"


def play_games(pairing: Pairing, games: int, budget: Budget, pool: ProcessPoolExecutor, log: GameLog, progress: Progress) -> list[Outcome]:
    """Seeds 0..games-1 of a table, taking the logged ones from `log` and logging the others as they end."""
    table = table_key(pairing, budget)
    task = progress.add_task(table, total=games)
    outcomes: dict[int, Outcome] = {}
    pending = {}
    for seed in range(games):
        logged = log.get(table, seed)
        if logged is not None:
            outcomes[seed] = logged
            progress.advance(task)
        else:
            pending[pool.submit(_play_one, (pairing, seed, budget))] = seed
    for future in as_completed(pending):
        seed = pending[future]
        outcomes[seed] = future.result()
        log.add(table, seed, outcomes[seed])
        progress.advance(task)
    return [outcomes[seed] for seed in range(games)]


def run_pairing(pairing: Pairing, games: int, iterations: Budget, pool: ProcessPoolExecutor, log: GameLog,
                progress: Progress) -> tuple[PairingResult, list[list[float]]]:
    began = time.monotonic()
    resumed = any(log.get(table_key(pairing, iterations), seed) is not None for seed in range(games))
    outcomes = play_games(pairing, games, iterations, pool, log, progress)
    scores = [outcome[0] for outcome in outcomes]
    mean = statistics.fmean(scores)
    low, high = wilson(mean, games)
    firsts = statistics.fmean(outcome[1] for outcome in outcomes)
    result = PairingResult(pairing, games, mean, low, high, firsts, None if resumed else time.monotonic() - began)
    return result, [outcome[2] for outcome in outcomes]


def available_bots(game_id: str) -> list[str]:
    from bots.registry import supports

    return [name for name in ("search", "mcts", "heuristic", "random") if supports(name, game_id)]


def pairings_for(
    game_id: str,
    min_players: int,
    max_players: int,
    players_asked: Sequence[int] | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
    variants: tuple[tuple[str, str], ...] = (),
) -> list[Pairing]:
    bots = available_bots(game_id)
    if pairs is None:
        pairs = [(bot, opponent) for index, bot in enumerate(bots) for opponent in bots[index + 1 :]]
    found = []
    for players in players_asked or (2, 4):
        if players < 2 or not min_players <= players <= max_players:
            continue
        for bot, opponent in pairs:
            if bot in bots and opponent in bots:
                found.append(Pairing(game_id, players, bot, opponent, variants))
    return found


def solo_scores(
    game_id: str, bot: str, games: int, iterations: Budget, pool: ProcessPoolExecutor, log: GameLog, progress: Progress,
    variants: tuple[tuple[str, str], ...] = (),
) -> tuple[float, float, float]:
    """Mean solo score with its 95% half-width, and the share of games ranked first (won against an engine-run AI)."""
    pairing = Pairing(game_id, 1, bot, bot, variants)
    outcomes = play_games(pairing, games, iterations, pool, log, progress)
    scores = [outcome[2][0] for outcome in outcomes]
    mean = statistics.fmean(scores)
    half = Z95 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.inf
    return mean, half, statistics.fmean(outcome[1] for outcome in outcomes)


HEADER = "| game | players | bot vs opponent | games | budget | score (95% CI) | Elo (95% CI) | first | minutes | date |"
SOLO_HEADER = "| game | bot | games | budget | score (95% CI) | won vs engine AI (95% CI) | date |"
#: The headers before the budget column named what it holds (rows are converted when merged).
LEGACY_HEADER = "| game | players | bot vs opponent | games | mcts iterations | score (95% CI) | Elo (95% CI) | first | minutes | date |"
LEGACY_SOLO_HEADER = "| game | bot | games | mcts iterations | score (95% CI) | date |"


def measure(args: argparse.Namespace, emit: Callable[[str], None]) -> tuple[list[str], list[str]]:
    """Play every pairing (and solo run) asked for; the table rows of each kind."""
    rows: list[str] = []
    solo_rows: list[str] = []
    today = dt.date.today().isoformat()
    log = GameLog(args.log)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with ProcessPoolExecutor(max_workers=args.workers) as pool, Progress(*columns, console=Console(stderr=True)) as progress:
        for game in all_games():
            if args.only and game.id not in args.only:
                continue
            default_games, default_iterations = GAME_SETTINGS.get(game.id, DEFAULT_SETTINGS)
            games = args.games or default_games
            budget = Budget(args.iterations or default_iterations, args.seconds, args.style, args.mcts_seconds)
            variants = tuple(sorted(tuple(item.split("=", 1)) for item in args.variant))  # type: ignore[misc]
            pairs = [tuple(item.split(":", 1)) for item in args.pairings] if args.pairings else None
            for pairing in pairings_for(game.id, game.min_players, game.max_players, args.players, pairs, variants):  # type: ignore[arg-type]
                result, _ = run_pairing(pairing, games, budget, pool, log, progress)
                label = budget.label((pairing.bot, pairing.opponent))
                minutes = "—" if result.seconds is None else f"{result.seconds / 60:.1f}"
                row = (
                    f"| {pairing.game_label} | {pairing.players} | {pairing.bot} vs {pairing.opponent} | {result.games} | {label} | "
                    f"{100 * result.score:.1f}% ({100 * result.low:.1f}–{100 * result.high:.1f}) | "
                    f"{elo(result.score):+.0f} ({elo(result.low):+.0f} to {elo(result.high):+.0f}) | "
                    f"{100 * result.firsts:.1f}% | {minutes} | {today} |"
                )
                rows.append(row)
                emit(row)
            if game.min_players == 1 and (args.players is None or 1 in args.players):
                game_label = Pairing(game.id, 1, "", "", variants).game_label
                for bot in args.solo if args.solo is not None else available_bots(game.id):
                    if bot not in available_bots(game.id):
                        continue
                    mean, half, won = solo_scores(game.id, bot, games, budget, pool, log, progress, variants)
                    if game.solo_opponent:
                        low, high = wilson(won, games)
                        won_cell = f"{100 * won:.1f}% ({100 * low:.1f}–{100 * high:.1f})"
                    else:
                        won_cell = "—"
                    row = f"| {game_label} | {bot} | {games} | {budget.label((bot,))} | {mean:.2f} ± {half:.2f} | {won_cell} | {today} |"
                    solo_rows.append(row)
                    emit(row)
    return rows, solo_rows


def row_key(row: str, width: int) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in row.strip().strip("|").split("|")[:width])


def merge(old: Sequence[str], new: Sequence[str], width: int) -> list[str]:
    """Rows of `old` not measured again, then the new ones, grouped by game (stable otherwise)."""
    fresh = {row_key(row, width) for row in new}
    merged = [row for row in old if row_key(row, width) not in fresh] + list(new)

    def order(row: str) -> tuple[str, int]:
        game, second = row_key(row, 2)
        return (game, int(second) if second.isdigit() else 0)

    return sorted(merged, key=order)


def existing_rows(text: str, header: str) -> list[str]:
    """The body rows of the table under `header` in `text` (rows under an older header converted)."""
    lines = text.splitlines()
    legacy = {HEADER: LEGACY_HEADER, SOLO_HEADER: LEGACY_SOLO_HEADER}.get(header)
    found = header if header in lines else legacy if legacy in lines else None
    if found is None:
        return []
    rows = []
    for line in lines[lines.index(found) + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line if found == header else _from_legacy(line, solo=header == SOLO_HEADER))
    return rows


def _from_legacy(row: str, solo: bool) -> str:
    """A row made when the budget column held ISMCTS iterations only (and solo rows had no won column)."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    budget_index = 3 if solo else 4
    bots = cells[1] if solo else cells[2]
    cells[budget_index] = f"{cells[budget_index]} iterations" if "mcts" in bots else "—"
    if solo:
        cells.insert(5, "—")
    return "| " + " | ".join(cells) + " |"


def section(rows: Sequence[str], solo_rows: Sequence[str]) -> list[str]:
    lines = [
        SECTION,
        "",
        "Made by `python -m benchmarks.strength --games N [--seconds S] [--iterations I] [--only GAME ...] --write docs/bots.md`",
        "(`scripts/strength` runs it for every game; rows measured again replace the old ones). *Budget*:",
        "ISMCTS (`mcts`) runs a fixed number of iterations per decision (or, `mcts N s CPU`, `--mcts-seconds`);",
        "the searching bot (`search`) thinks for a number of seconds of CPU time per decision (one core; the machine's other load does",
        "not change it, its speed does). *Score*: the first bot's mean pairwise result against the other seats (win 1,",
        "tie 1/2; 50% = equal strength) with its 95% Wilson interval; *Elo*: the rating difference that",
        "score implies; *first*: how often it ranked first (2 players: 50% is even; 4 players, one seat",
        "against three of the opponent: 25% is even); *minutes*: the run's wall time (— when games were",
        "taken from a `--log` file, played by earlier runs). Seats rotate; seeds 0..games-1. A bot a game does",
        "not have yet (its heuristic) is left out until it lands.",
        "",
        HEADER,
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    if solo_rows:
        lines += [
            "",
            "Solo games: mean final score with its 95% interval, and (against an engine-run AI) how often the bot won.",
            "",
            SOLO_HEADER,
            "|---|---|---|---|---|---|---|",
            *solo_rows,
        ]
    return lines


def write_section(path: Path, rows: Sequence[str], solo_rows: Sequence[str]) -> None:
    """Merge the rows into the strength-table section of `path` (or add it), leaving every other section alone."""
    text = path.read_text() if path.exists() else "# Reference bots\n"
    start = text.find(SECTION + "\n")
    end = text.find("\n## ", start + len(SECTION)) if start >= 0 else -1
    old = "" if start < 0 else text[start:end] if end >= 0 else text[start:]
    lines = section(merge(existing_rows(old, HEADER), rows, 3), merge(existing_rows(old, SOLO_HEADER), solo_rows, 2))
    block = "\n".join(lines).rstrip() + "\n"
    if start < 0:
        text = text.rstrip() + "\n\n" + block
    else:
        text = text[:start] + block + ("\n" + text[end + 1 :] if end >= 0 else "")
    path.write_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per pairing and player count (default: per game)")
    parser.add_argument("--iterations", type=int, default=None, help="ISMCTS iterations per decision (default: per game)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per decision for the search bot")
    parser.add_argument("--mcts-seconds", type=float, default=None,
                        help="CPU seconds per decision for ISMCTS, instead of --iterations")
    parser.add_argument("--style", choices=("plain", "paired"), default=None, help="the search bot's style on every table (default: per table)")
    parser.add_argument("--pairings", nargs="*", default=None, help="BOT:OPPONENT pairs (default: every pair)")
    parser.add_argument("--players", type=int, nargs="*", default=None, help="player counts (default: 2 and 4, and solo)")
    parser.add_argument("--solo", nargs="*", default=None, help="bots measured solo (default: every bot)")
    parser.add_argument("--variant", action="append", default=[], help="a game flag KEY=VALUE (repeatable)")
    parser.add_argument("--workers", type=int, default=2, help="games played in parallel")
    parser.add_argument("--only", nargs="*", default=None, help="only these game ids")
    parser.add_argument("--write", type=Path, default=None, help="replace the section in this markdown file")
    parser.add_argument("--log", type=Path, default=None,
                        help="keep every finished game in this JSON-lines file; a run given the same file skips the games it holds")
    args = parser.parse_args(argv)
    rows, solo_rows = measure(args, lambda row: print(row, file=sys.stderr, flush=True))
    print("\n".join(section(rows, solo_rows)))
    if args.write:
        write_section(args.write, rows, solo_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
