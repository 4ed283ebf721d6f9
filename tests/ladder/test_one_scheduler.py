"""One scheduler per database, a status that shows workers and unplayable games, and a home that
says which database it uses."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner
from sqlmodel import select

from ladder import queries
from ladder.db import write_session
from ladder.matches import touch_worker
from ladder.models import ServiceInfo, utcnow
from ladder.registry import add_bot
from ladder.scheduler_lease import LEASE_KEY, LEASE_SECONDS, current_holder
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings
from ladder.simulation import SYNTHETIC_COMMAND, SyntheticExecutor
from ladder.status import ladder_status
from referee.cli import main
from tests.ladder.conftest import GAME


def _ladder(settings: LadderSettings, executor: SyntheticExecutor, max_matches: int | None = None) -> Ladder:
    return Ladder(settings, executor, SchedulerOptions(games=[GAME], concurrency=2, seed=1, max_matches=max_matches,
                                                       tick_seconds=0.01))


def test_a_second_scheduler_stands_by(settings: LadderSettings) -> None:
    """Measured: a second `serve` on the same database scheduled too (open matches reached 9 against a
    limit of 8). The second one now schedules nothing while the first holds the lease, and takes
    over when it stops (released), when its lease runs out, or when its process is gone."""
    bots = [add_bot(settings, f"s{i}", GAME, command=list(SYNTHETIC_COMMAND)).id or 0 for i in range(3)]
    executor = SyntheticExecutor({bot: 1500.0 for bot in bots})
    first, second = _ladder(settings, executor), _ladder(settings, executor, max_matches=4)
    assert first.has_lease()
    assert not second.has_lease() and second.standing_by
    holder = current_holder(settings)
    assert holder is not None and holder.name == first.lease.name

    loop = threading.Thread(target=second.run, kwargs={"until_idle": True}, daemon=True)
    loop.start()
    loop.join(1.0)
    assert loop.is_alive() and second.scheduled == 0 and queries.status_counts(settings) == {}

    first.lease.release()  # a clean stop: the standby takes over at its next tick
    loop.join(30)
    assert not loop.is_alive() and second.scheduled == 4
    assert current_holder(settings) is None or current_holder(settings).name != second.lease.name  # released at the end

    # A lease its holder stopped renewing (a host gone) is taken over once it runs out.
    third, fourth = _ladder(settings, executor), _ladder(settings, executor)
    assert third.has_lease() and not fourth.has_lease()
    with write_session(settings.db_url) as session:
        row = session.exec(select(ServiceInfo).where(ServiceInfo.key == LEASE_KEY)).one()
        row.updated_at = utcnow() - timedelta(seconds=LEASE_SECONDS + 1)
        session.add(row)
    fourth.lease._renewed = None
    assert fourth.has_lease()
    third.lease._renewed = None
    assert not third.has_lease()  # it finds the lease taken and stops scheduling

    # A holder that is a process of this host no longer running is replaced at once.
    with write_session(settings.db_url) as session:
        row = session.exec(select(ServiceInfo).where(ServiceInfo.key == LEASE_KEY)).one()
        row.value = f"{holder.name.split(':')[0]}:999999999:dead"
        row.updated_at = utcnow()
        session.add(row)
    fifth = _ladder(settings, executor)
    assert fifth.has_lease()


def test_status_shows_workers_and_games_that_cannot_play(sqlite_settings: LadderSettings) -> None:
    """Measured: "workers seen" listed every forked match process (25 rows after 45 s), and Fuji 99
    (3 players by default) with 2 active bots said nothing anywhere."""
    settings = sqlite_settings
    now = utcnow()
    with write_session(settings.db_url) as session:
        for pid in range(100, 125):
            touch_worker(session, f"hostA:{pid}", None, now, done=True)
        touch_worker(session, "hostA:200", 7, now)
    report = ladder_status(settings)
    assert [(w.name, w.processes, w.matches_done, w.playing) for w in report.workers] == [("hostA (local executor)", 26, 25, (7,))]
    assert report.scheduler is None

    for name in ("f1", "f2"):
        add_bot(settings, name, "fuji99", command=list(SYNTHETIC_COMMAND))
    flagged = ladder_status(settings).unplayable
    assert [(g.game, g.active, g.needs) for g in flagged] == [("fuji99", 2, 3)]
    result = CliRunner().invoke(main, ["ladder", "--home", str(settings.home), "--db", settings.db_url, "status"])
    assert result.exit_code == 0, result.output
    assert "fuji99 needs 3 players per match" in result.output and "scheduler: none running" in result.output
    as_json = CliRunner().invoke(main, ["ladder", "--home", str(settings.home), "--db", settings.db_url, "status", "--json"])
    import json

    assert [w["name"] for w in json.loads(as_json.output)["workers"]] == ["hostA (local executor)"]

    # The scheduler says it in its log, once.
    executor = SyntheticExecutor({})
    ladder = Ladder(settings, executor, SchedulerOptions(games=["fuji99"], tick_seconds=0.0))
    import logging

    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logging.getLogger("ladder.service").addHandler(handler)
    try:
        ladder.schedule()
        ladder.schedule()
    finally:
        logging.getLogger("ladder.service").removeHandler(handler)
    assert [r.getMessage() for r in records if "fuji99 needs 3 players" in r.getMessage()] != []
    assert len([r for r in records if getattr(r, "event", None) == "unplayable"]) == 1


def test_a_new_bot_waits_for_its_validation_games_until_a_scheduler_runs(sqlite_settings: LadderSettings) -> None:
    """Measured: before `serve` ever ran, the leaderboard said a new bot was "playing its validation games"."""
    settings = sqlite_settings
    bot = add_bot(settings, "fresh", GAME, command=list(SYNTHETIC_COMMAND), validate=True)
    assert "no scheduler is running" in queries.status_reasons(settings, GAME)[bot.id or 0]
    ladder = _ladder(settings, SyntheticExecutor({}))
    assert ladder.has_lease()
    assert queries.status_reasons(settings, GAME)[bot.id or 0] == "waits for its validation games"
    ladder.lease.release()


def test_init_with_a_home_says_which_database_and_never_inherits_another(tmp_path: Path) -> None:
    """Measured: `init --home X` used B99_LADDER_DB when it was set and printed only the home."""
    home = tmp_path / "mine"
    elsewhere = "postgresql://ladder:secret@db.example/live"
    refused = CliRunner().invoke(main, ["ladder", "--home", str(home), "init"], env={"B99_LADDER_DB": elsewhere})
    assert refused.exit_code != 0
    assert "B99_LADDER_DB points at postgresql://ladder:***@db.example/live" in refused.output and "secret" not in refused.output
    done = CliRunner().invoke(main, ["ladder", "--home", str(home), "init"], env={"B99_LADDER_DB": None})
    assert done.exit_code == 0, done.output
    assert f"database sqlite:///{home.resolve()}/ladder.db" in done.output.replace("\n", "")
