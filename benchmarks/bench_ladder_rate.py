"""The ladder's rate with random bots beside an in-process tournament's, in the same run, and what one
process match costs in CPU beside the same match in-process.

Underground Dice, random bots: the embedded ladder (scheduler, SQLite, local match processes, bot
processes over gRPC) with its Python bots forked from warm parents (the default) and with every bot a
fresh interpreter (`--no-warm`, the way before), and `b99 tournament` with in-process bots, alternated,
so load hits all alike. The second table plays the same seeds three ways in this process: in-process
bots, bot processes started cold, bot processes forked warm (sandbox none), and counts the CPU of the
referee and of the bots.

    python -m benchmarks.bench_ladder_rate [--quick] [--write]

`--write` puts its three sections into docs/benchmarks.md in place of their last version (everything else
in the file is kept); `benchmarks.run` writes them with every other benchmark.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from benchmarks.ladder_bench import ladder_run, tournament_throughput

GAME = "underground_dice"
TARGET_PER_MINUTE = 600
TARGET_RATIO = 0.5
TARGET_PROCESS_CPU = 1.3
TARGET_BOOKKEEPING = 10.0
RANDOM = (sys.executable, "-m", "bots", "random")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def match_cpu(games: int) -> dict[str, tuple[float, float]]:
    """CPU ms a match, (referee, bots), of the same seeds in-process, with cold bot processes and with warm ones."""
    import functools

    from bots.registry import make_bot
    from referee import warm as warm_module
    from referee.match import BotSpec, MatchSpec, run_match
    from referee.warm import WarmPool

    reported: list[float] = []
    ended = warm_module.WarmChild._ended

    def keep_cpu(child: warm_module.WarmChild, code: int) -> None:  # a warm bot's CPU comes from its parent's report
        ended(child, code)
        reported.append(child.cpu_seconds or 0.0)

    warm_module.WarmChild._ended = keep_cpu  # type: ignore[method-assign]
    pool = WarmPool()
    totals = {"in-process": [0.0, 0.0], "cold": [0.0, 0.0], "warm": [0.0, 0.0]}
    try:
        run_match(MatchSpec(GAME, [BotSpec("a", command=RANDOM), BotSpec("b", command=RANDOM)], seed=0, warm_pool=pool.address))
        reported.clear()
        for seed in range(1, games + 1):
            for way in totals:
                if way == "in-process":
                    bots = [BotSpec(name, factory=functools.partial(make_bot, "random")) for name in "ab"]
                else:
                    bots = [BotSpec(name, command=RANDOM) for name in "ab"]
                children, own, before = _children_cpu(), time.process_time(), len(reported)
                run_match(MatchSpec(GAME, bots, seed=seed, warm_pool=pool.address if way == "warm" else None))
                totals[way][0] += time.process_time() - own
                totals[way][1] += (_children_cpu() - children) + sum(reported[before:])
    finally:
        warm_module.WarmChild._ended = ended  # type: ignore[method-assign]
        pool.shutdown()
    return {way: (referee / games * 1000, bots / games * 1000) for way, (referee, bots) in totals.items()}


def bookkeeping_cpu(matches: int) -> dict[str, float]:
    """CPU ms a match of the ladder's bookkeeping on a real SQLite ladder in this process, with reports of real
    in-process matches: the scheduler's (pick a table from its memory, queue the match, read it back once it
    ended) and a match process's (claim, record the result with its ratings and replay, the bots' exit codes;
    a match process plays many matches, so its statements are compiled once, as here)."""
    import functools
    import tempfile

    from bots.registry import make_bot
    from ladder.db import migrate, sqlite_url
    from ladder.matches import claim_match, record_result, record_seat_exits, schedule_match
    import random

    from ladder.matchmaking import pick_table
    from ladder.recompute import StrengthCache
    from ladder.registry import add_bot
    from ladder.scheduler_memory import SchedulerMemory
    from ladder.settings import LadderSettings
    from referee.match import BotSpec, MatchSpec, run_match

    totals = {"schedule": 0.0, "claim": 0.0, "record": 0.0, "exits": 0.0}
    with tempfile.TemporaryDirectory() as home:
        settings = LadderSettings(home=Path(home), db_url=sqlite_url(Path(home) / "ladder.db"))
        migrate(settings.db_url)
        bot_ids = [add_bot(settings, f"r{i}", GAME, command=RANDOM).id for i in range(4)]
        reports = [run_match(MatchSpec(GAME, [BotSpec(name, factory=functools.partial(make_bot, "random")) for name in "ab"],
                                       seed=seed)) for seed in range(5)]
        warm_up = 5
        memory = SchedulerMemory(settings, fits=StrengthCache())
        rng = random.Random(0)
        memory.load()
        ended: list[int] = []
        for k in range(matches + warm_up):
            report = reports[k % len(reports)]
            scheduling = time.process_time()
            memory.ended(ended)  # the previous match, as the executor says it ended
            memory.refresh()
            table = pick_table(memory.candidates(GAME), 2, rng)
            if table is None:
                raise RuntimeError("no table for the bookkeeping benchmark")
            match_id = schedule_match(settings, GAME, table, seed=k, dispatch_lease_seconds=30.0)
            memory.queued(match_id, GAME, table)
            ended = [match_id]
            started = time.process_time()
            job = claim_match(settings, match_id, "bench:0", 60.0)
            claimed = time.process_time()
            if isinstance(job, str):
                raise RuntimeError(f"match {match_id} was not claimed: {job}")
            record_result(settings, job, report, replay=b"{}\n" * 1000, worker="bench:0")
            recorded = time.process_time()
            record_seat_exits(settings, job, report)
            if k >= warm_up:
                totals["schedule"] += started - scheduling
                totals["claim"] += claimed - started
                totals["record"] += recorded - claimed
                totals["exits"] += time.process_time() - recorded
    return {what: cpu / matches * 1000 for what, cpu in totals.items()}


def run(quick: bool = False) -> str:
    """The markdown sections for docs/benchmarks.md."""
    workers = os.cpu_count() or 1
    matches, games, rounds, cpu_games, book_matches = (30, 20, 1, 10, 100) if quick else (120, 100, 2, 30, 300)
    warm: list[tuple[float, float]] = []
    cold: list[tuple[float, float]] = []
    tournament: list[float] = []
    load = [os.getloadavg()[0]]
    for _ in range(rounds):
        warm.append(ladder_run(GAME, matches, workers, warm=True))
        cold.append(ladder_run(GAME, matches, workers, warm=False))
        tournament.append(tournament_throughput(GAME, games, workers, in_process=True))
        load.append(os.getloadavg()[0])
    cpu = match_cpu(cpu_games)
    books = bookkeeping_cpu(book_matches)
    load.append(os.getloadavg()[0])
    tournament_rate = statistics.median(tournament)

    def row(what: str, runs: list[tuple[float, float]]) -> str:
        rate = statistics.median(rate for rate, _ in runs)
        service = statistics.median(service for _, service in runs)
        return f"| {what} | {rate:,.0f} | {rate / tournament_rate:.3f}x | {service:.1f} |"

    base = sum(cpu["in-process"])
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "## Ladder: matches a minute beside an in-process tournament",
        "",
        f"Measured {when} on {platform.machine()} with {workers} cores ({platform.python_implementation()} {platform.python_version()}),",
        f"load average {min(load):.1f}-{max(load):.1f} during the run (the machine was shared).",
        f"{GAME}, random bots, {workers} workers; {rounds} round(s) of {matches} ladder matches each way (after a warm-up) and an",
        f"in-process tournament of {games} games per table, alternated; medians. Service CPU: the ladder service process's own",
        "CPU (scheduler, executor, warm pool) per match; the match processes and bots are not in it.",
        f"Targets: the ladder at least {TARGET_PER_MINUTE} matches a minute and at least {TARGET_RATIO:g}x the tournament.",
        "",
        "| what | matches/min | ratio to the tournament | service CPU ms/match |",
        "|---|---:|---:|---:|",
        row("embedded ladder, warm bot processes (default)", warm),
        row("embedded ladder, `--no-warm` (a fresh interpreter per bot)", cold),
        f"| in-process tournament | {tournament_rate:,.0f} | 1x | |",
        "",
        "## A process match's CPU beside the same match in-process",
        "",
        f"The same {cpu_games} seeds of {GAME} with random bots, each played three ways in turn (sandbox none); CPU ms a match:",
        "the referee's (this process) and the bots' (reaped children; a warm bot's as its warm parent reports it).",
        f"Target: a process match at most {TARGET_PROCESS_CPU:g}x the CPU of the same match in-process.",
        "",
        "| way | referee CPU ms | bots CPU ms | total | ratio to in-process |",
        "|---|---:|---:|---:|---:|",
    ]
    for way, label in (("in-process", "in-process bots"), ("cold", "bot processes, started cold"), ("warm", "bot processes, forked warm")):
        referee, bots = cpu[way]
        lines.append(f"| {label} | {referee:.1f} | {bots:.1f} | {referee + bots:.1f} | {(referee + bots) / base:.1f}x |")
    lines += [
        "",
        "## The ladder's bookkeeping in a match process",
        "",
        f"CPU ms a match of the ladder's database work, {book_matches} matches on a real SQLite ladder (reports of real",
        "in-process matches, one process): the scheduler's (its memory told of the last match's end and checked for",
        "changes, a table picked, the match queued) and a match process's (claiming the match, recording its result:",
        "seats, ratings, compressed replay, worker row; the bots' exit codes once they stopped). A match process plays",
        "many matches, so its statements are compiled once, as here. The service's whole CPU a match (with the",
        f"executor's and the warm pool's threads) is in the first table. Target: the ladder's bookkeeping at most",
        f"{TARGET_BOOKKEEPING:g} ms of CPU a match, counted in both processes.",
        "",
        "| schedule (service) | claim | record | exit codes | total |",
        "|---:|---:|---:|---:|---:|",
        f"| {books['schedule']:.2f} | {books['claim']:.2f} | {books['record']:.2f} | {books['exits']:.2f} | {sum(books.values()):.2f} |",
    ]
    return "\n".join(lines) + "\n"


FIRST_HEADING = "## Ladder: matches a minute beside an in-process tournament"
LAST_HEADING = "## The ladder's bookkeeping in a match process"


def write(sections: str, path: Path) -> None:
    """Put this benchmark's sections into `path` in place of their last version, keeping everything else."""
    text = path.read_text(encoding="utf-8")
    start, last = text.find(FIRST_HEADING), text.find(LAST_HEADING)
    if start < 0 or last < start:
        raise SystemExit(f"{path}: no ladder sections to replace (run benchmarks.run to write them)")
    end = text.find("\n## ", last + len(LAST_HEADING))
    end = len(text) if end < 0 else end + 1
    path.write_text(text[:start] + sections.rstrip() + "\n\n" + text[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", action="store_true", help="write the sections into docs/benchmarks.md")
    args = parser.parse_args()
    sections = run(quick=args.quick)
    print(sections)
    if args.write:
        write(sections, Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md")


if __name__ == "__main__":
    main()
