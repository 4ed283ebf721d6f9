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


def _register_at_once(settings: LadderSettings, monkeypatch, registrations: list[dict]) -> list[object]:  # type: ignore[no-untyped-def]
    """Run `registrations` (add_bot's keyword arguments) in threads that all check the name before any
    inserts it; returns each one's bot or error."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import ladder.registry
    import ladder.versions

    barrier = threading.Barrier(len(registrations))
    checked = threading.local()
    original = ladder.registry.name_taken

    def name_taken_then_wait(session, name):  # type: ignore[no-untyped-def]
        taken = original(session, name)
        if not getattr(checked, "done", False):
            checked.done = True
            barrier.wait(30)  # every registration has seen the name free
        return taken

    monkeypatch.setattr(ladder.registry, "name_taken", name_taken_then_wait)
    monkeypatch.setattr(ladder.versions, "name_taken", name_taken_then_wait)

    def attempt(arguments: dict) -> object:  # type: ignore[type-arg]
        try:
            return add_bot(settings, **arguments)
        except Exception as error:  # noqa: BLE001 - the outcome is what is checked
            return error

    with ThreadPoolExecutor(len(registrations)) as pool:
        return list(pool.map(attempt, registrations))


def test_the_same_new_name_registered_at_once_gets_a_one_line_refusal(postgres: PostgresCluster, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Measured: two accounts submitting the same new name at the same instant got a database error
    (the name's unique constraint) instead of the refusal a later submission gets. Now the loser is
    refused in one line, a second submission of the same account becomes version 2, and an operator's
    second `add-bot` of a name is refused as taken."""
    from ladder.accounts import register
    from ladder.db import migrate
    from ladder.registry import LadderError

    settings = LadderSettings(home=tmp_path / "ladder", db_url=postgres.new_database())
    migrate(settings.db_url)
    settings.home.mkdir(parents=True, exist_ok=True)
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    ann, _ = register(settings, "ann")
    bob, _ = register(settings, "bob")
    command = list(SYNTHETIC_COMMAND)

    outcomes = _register_at_once(settings, monkeypatch, [
        dict(name="dup", game=GAME, command=command, account_id=ann.id, versioned=True, validate=True),
        dict(name="dup", game=GAME, command=command, account_id=bob.id, versioned=True, validate=True),
    ])
    errors = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], LadderError), outcomes
    assert str(errors[0]) == "the name 'dup' belongs to another account"
    assert get_bot(settings, "dup").version == "1"

    outcomes = _register_at_once(settings, monkeypatch, [
        dict(name="twice", game=GAME, command=command, account_id=ann.id, versioned=True, validate=True),
        dict(name="twice", game=GAME, command=command, account_id=ann.id, versioned=True, validate=True),
    ])
    assert sorted((bot.name, bot.version) for bot in outcomes) == [("twice", "1"), ("twice@2", "2")]  # type: ignore[attr-defined]

    outcomes = _register_at_once(settings, monkeypatch, [dict(name="plain", game=GAME, command=command)] * 2)
    errors = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert len(errors) == 1 and str(errors[0]) == "a bot named 'plain' already exists", outcomes
