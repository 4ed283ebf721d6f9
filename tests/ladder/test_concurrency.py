"""Judgements that hold when results land at the same instant on several workers (PostgreSQL, one
process per worker, released together by a barrier)."""

from __future__ import annotations

import multiprocessing
import random
from pathlib import Path

from ladder.matches import claim_match, record_result, schedule_match
from ladder.models import BotStatus, MatchKind
from ladder.registry import add_bot, get_bot
from ladder.settings import LadderSettings
from ladder.simulation import SYNTHETIC_COMMAND, synthetic_report
from ladder.validation import VALIDATION_GAMES, reference_bot
from tests.ladder.conftest import GAME, PostgresCluster

#: Bots validated at once, each with VALIDATION_GAMES results recorded in the same instant.
BOTS = 4


def _record_when_released(url: str, home: str, match_id: int, barrier: multiprocessing.synchronize.Barrier,
                          void: bool = False) -> None:
    """One worker: claim the match, wait for the others, then record a clean result (with `void`,
    a void one: every seat crashed before the first decision)."""
    from dataclasses import replace

    from referee.faults import Fault
    from referee.match import VOID

    settings = LadderSettings(home=Path(home), db_url=url)
    job = claim_match(settings, match_id, f"racer:{match_id}", 60.0)
    if isinstance(job, str):
        raise RuntimeError(f"match {match_id} could not be claimed: {job}")
    report = synthetic_report(job, {seat.bot_id: 1500.0 for seat in job.seats}, random.Random(match_id))
    if void:
        seats = [replace(seat, faults=[Fault("crash", "exited before its first decision")], replaced=True) for seat in report.seats]
        report = replace(report, seats=seats, status=VOID, void_reason="every seat faulted before the first decision")
    barrier.wait(30)
    if not record_result(settings, job, report):
        raise RuntimeError(f"match {match_id}: the result was not recorded")


def test_validation_results_recorded_at_once_admit_the_bot(postgres: PostgresCluster, tmp_path: Path) -> None:
    """Measured: a bot whose two validation games finished on two workers within milliseconds stayed
    `validating` for good in 5 of 10 trials (each transaction counted only its own game). Every
    bot's validation results, recorded at the same instant from one process each, admit it."""
    settings = LadderSettings(home=tmp_path / "ladder", db_url=postgres.new_database())
    from ladder.db import migrate

    migrate(settings.db_url)
    reference = reference_bot(settings, GAME)
    bots = [add_bot(settings, f"racer{i}", GAME, command=list(SYNTHETIC_COMMAND), validate=True) for i in range(BOTS)]
    match_ids = [
        schedule_match(settings, GAME, [bot.id or 0, reference] if game % 2 == 0 else [reference, bot.id or 0],
                       seed=game, kind=MatchKind.VALIDATION)
        for bot in bots for game in range(VALIDATION_GAMES)
    ]
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(match_ids))
    workers = [context.Process(target=_record_when_released, args=(settings.db_url, str(settings.home), match_id, barrier))
               for match_id in match_ids]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert [worker.exitcode for worker in workers] == [0] * len(workers)
    assert [get_bot(settings, bot.id or 0).status for bot in bots] == [BotStatus.ACTIVE] * BOTS


def test_faults_recorded_at_once_pause_the_bot(postgres: PostgresCluster, tmp_path: Path) -> None:
    """Pausing counts a bot's recent faults under its row lock too: PAUSE_FAULTS void matches (which
    take no rating lock) recorded at the same instant pause both bots."""
    from ladder.db import migrate
    from ladder.matches import PAUSE_FAULTS

    settings = LadderSettings(home=tmp_path / "ladder", db_url=postgres.new_database())
    migrate(settings.db_url)
    bots = [add_bot(settings, f"crasher{i}", GAME, command=list(SYNTHETIC_COMMAND)).id or 0 for i in range(2)]
    match_ids = [schedule_match(settings, GAME, bots, seed=game) for game in range(PAUSE_FAULTS)]
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(match_ids))
    workers = [context.Process(target=_record_when_released, args=(settings.db_url, str(settings.home), match_id, barrier, True))
               for match_id in match_ids]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert [worker.exitcode for worker in workers] == [0] * len(workers)
    assert [get_bot(settings, bot).status for bot in bots] == [BotStatus.PAUSED] * 2
