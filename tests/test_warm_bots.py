"""Warm bot processes (referee.warm, sdk.warm): Python bots forked from a pre-started parent play exactly
as fresh ones do, misbehaving ones included, in every seat; the parent holds no gRPC thread; a parent
killed mid-ladder loses no result; shutting down leaves no process.

Real bot processes over real gRPC, a real SQLite ladder; nothing here times anything.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.clock import TimeControl
from referee.faults import FaultKind
from referee.match import BotSpec, MatchReport, MatchSpec, run_match
from referee.warm import WarmPool, warm_target

ROOT = Path(__file__).resolve().parents[1]
GAME = "underground_dice"
RANDOM = (sys.executable, "-m", "bots", "random")
HOSTILE = ROOT / "tests" / "hostile" / "bots"
FAST = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0, tolerance_seconds=0.05)


@pytest.fixture
def pool() -> Iterator[WarmPool]:
    pool = WarmPool()
    try:
        yield pool
    finally:
        pool.shutdown()


def play(pool: WarmPool | None, bots: list[BotSpec], seed: int = 1) -> MatchReport:
    return run_match(MatchSpec(game=GAME, bots=bots, seed=seed, time_control=FAST, warm_pool=pool.address if pool else None))


def children_of(pid: int) -> list[int]:
    """Live processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def gone(pids: list[int], timeout: float = 5.0) -> bool:
    """True once none of `pids` is a live (non-zombie) process."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


def test_only_python_modules_and_scripts_of_this_interpreter_start_warm() -> None:
    assert warm_target([sys.executable, "-m", "bots", "random"]) == ["-m", "bots", "random"]
    assert warm_target([sys.executable, "bot.py", "x"]) == ["bot.py", "x"]
    assert warm_target([sys.executable, "-c", "pass"]) is None
    assert warm_target(["/bin/sh", "bot.py"]) is None
    assert warm_target(["node", "bot.js"]) is None


def test_warm_bots_play_from_parents_that_hold_one_thread_and_no_channel(pool: WarmPool) -> None:
    first = play(pool, [BotSpec("a", command=RANDOM), BotSpec("b", command=RANDOM)], seed=1)
    parents = pool.pids()
    second = play(pool, [BotSpec("a", command=RANDOM), BotSpec("b", command=RANDOM)], seed=2)
    for report in (first, second):
        assert report.status == "complete" and sorted(report.ranks) == [1, 2]
        assert [seat.faults for seat in report.seats] == [[], []]
        assert [seat.exit_code for seat in report.seats] == [0, 0]
    # one parent per bot (never two seats of a match on one), kept for the next match
    assert len(parents) == 2 and sorted(pool.pids()) == sorted(parents)
    for pid in parents:
        assert os.listdir(f"/proc/{pid}/task") == [str(pid)], "a warm parent must not hold a thread when it forks"
        maps = Path(f"/proc/{pid}/maps").read_text()
        assert "cygrpc" in maps, "grpc is imported before forking"
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        assert sum(link.startswith("socket:") for link in links) == 1, f"only its listener: {links}"


def test_two_seats_of_one_bot_get_two_parents(pool: WarmPool) -> None:
    same = BotSpec("same", command=RANDOM)
    report = play(pool, [same, same])
    assert report.status == "complete" and [seat.faults for seat in report.seats] == [[], []]
    assert len(pool.pids()) == 2


def bot_that(kind: str, tmp_path: Path) -> BotSpec:
    """A misbehaving Python bot (started warm at sandbox level none)."""
    if kind == "exits_at_import":
        script = tmp_path / "exits.py"
        script.write_text("import sys\nprint('leaving at import', file=sys.stderr)\nsys.exit(4)\n")
        return BotSpec("exits", command=(sys.executable, str(script)), cwd=str(tmp_path))
    if kind == "hangs":
        script = tmp_path / "hangs.py"
        script.write_text(
            "import time\nfrom sdk.bot import Bot\nfrom sdk.run import run\n\n\nclass Hangs(Bot):\n"
            "    def choose(self, request):\n        time.sleep(3600)\n\n\nrun(Hangs())\n"
        )
        return BotSpec("hangs", command=(sys.executable, str(script)), cwd=str(tmp_path))
    if kind == "floods":
        return BotSpec("floods", command=(sys.executable, str(HOSTILE / "message_flood.py")), cwd=str(HOSTILE))
    return BotSpec(kind, command=(sys.executable, "-m", "tests.bots.misbehaving", kind), cwd=str(ROOT))


#: (A bot that crashes after a few good answers may see the game end first: crash_first is the crash that always comes.)
#: A message flood is cut as a flood, or seen first as answers to requests never sent (whichever the referee reads first).
EXPECTED = {
    "crash_first": {FaultKind.CRASH},
    "hangs": {FaultKind.TIMEOUT},
    "exits_at_import": {FaultKind.STARTUP},
    "floods": {FaultKind.FLOOD, FaultKind.PROTOCOL_ERROR},
}


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_a_misbehaving_warm_bot_is_faulted_as_a_fresh_one_would_be(pool: WarmPool, tmp_path: Path, kind: str, seat: int) -> None:
    bots = [BotSpec("good", command=RANDOM)]
    bots.insert(seat, bot_that(kind, tmp_path))
    report = play(pool, bots, seed=seat)
    bad, good = report.seats[seat], report.seats[1 - seat]
    assert bad.replaced and bad.faults and bad.faults[0].kind in EXPECTED[kind], bad.faults
    assert good.faults == [] and good.rank == 1 and not good.replaced
    if kind == "exits_at_import":
        assert bad.exit_code == 4 and "leaving at import" in bad.stderr_tail
    if kind == "crash_first":
        assert bad.exit_code == 3
    assert pool.pids(), "the warm parents outlive a misbehaving child"


def test_warm_and_cold_bots_report_the_same_faults(pool: WarmPool, tmp_path: Path) -> None:
    bots = [bot_that("crash_first", tmp_path), bot_that("exits_at_import", tmp_path)]
    warm, cold = play(pool, bots, seed=3), play(None, bots, seed=3)
    for hot, fresh in zip(warm.seats, cold.seats):
        assert [f.kind for f in hot.faults] == [f.kind for f in fresh.faults]
        assert hot.exit_code == fresh.exit_code
        assert hot.stderr_tail.strip().splitlines()[-1:] == fresh.stderr_tail.strip().splitlines()[-1:]


def test_a_bot_dies_with_its_warm_parent_and_the_pool_starts_another(pool: WarmPool) -> None:
    slow = BotSpec("slow", command=(sys.executable, str(ROOT / "tests" / "ladder" / "slow_bot.py")), env={"B99_SLOW_SECONDS": "0.3"})
    from referee import warm

    warm.LOST_PARENTS.clear()
    reports: list[MatchReport] = []
    match = threading.Thread(target=lambda: reports.append(play(pool, [slow, BotSpec("good", command=RANDOM)])))
    match.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(children_of(pid) for pid in pool.pids()):
        time.sleep(0.05)
    parents = pool.pids()
    bots = [child for pid in parents for child in children_of(pid)]
    assert bots, "the bots run as children of their warm parents"
    for pid in parents:
        os.kill(pid, signal.SIGKILL)
    match.join(60)
    assert reports and reports[0].status in ("complete", "void")
    assert warm.LOST_PARENTS, "the match knows its bots' parent went away (the ladder voids such a match)"
    assert gone(bots), "children die with their warm parent"
    again = play(pool, [BotSpec("a", command=RANDOM), BotSpec("b", command=RANDOM)])
    assert again.status == "complete" and [seat.faults for seat in again.seats] == [[], []]


def test_shutdown_leaves_no_process(tmp_path: Path) -> None:
    pool = WarmPool()
    play(pool, [BotSpec("a", command=RANDOM), BotSpec("b", command=RANDOM)])
    parents = pool.pids()
    assert parents
    pool.shutdown()
    assert gone(parents)
    assert not Path(pool.directory).exists()


def test_a_ladder_loses_no_result_when_warm_parents_are_killed(tmp_path: Path) -> None:
    from sqlmodel import select

    from ladder.db import migrate, read_session, sqlite_url
    from ladder.executors import LocalExecutor
    from ladder.models import Match, MatchStatus
    from ladder.registry import add_bot
    from ladder.service import Ladder, SchedulerOptions
    from ladder.settings import LadderSettings

    settings = LadderSettings(home=tmp_path, db_url=sqlite_url(tmp_path / "ladder.db"))
    migrate(settings.db_url)
    slow = [sys.executable, str(ROOT / "tests" / "ladder" / "slow_bot.py")]
    for name in ("s0", "s1", "s2"):
        add_bot(settings, name, GAME, command=slow)
    executor = LocalExecutor(2)
    assert executor.warm is not None
    ladder = Ladder(settings, executor, SchedulerOptions(concurrency=2, seed=0, max_matches=6, tick_seconds=0.05))
    runner = threading.Thread(target=lambda: ladder.run(until_idle=True))
    runner.start()
    killed: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            for pid in executor.warm.pids():
                if children_of(pid):
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            time.sleep(0.05)
        assert killed, "a warm parent with a bot running mid-match"
        runner.join(180)
        assert not runner.is_alive()
        with read_session(settings.db_url) as session:
            matches = session.exec(select(Match)).all()
        assert len(matches) == 6 and all(match.status == MatchStatus.DONE for match in matches), [
            (match.id, match.status, match.attempts) for match in matches
        ]
        assert any(match.attempts > 1 for match in matches), "the match whose bot lost its parent was played again"
        parents = executor.warm.pids()
    finally:
        ladder.stop()
        runner.join(30)
        executor.shutdown(timeout=30)
    assert gone(parents + killed)


def test_warm_processes_can_be_turned_off() -> None:
    from click.testing import CliRunner

    from ladder.executors import LocalExecutor
    from referee.cli import main

    executor = LocalExecutor(1, warm=False)
    try:
        assert executor.warm is None
    finally:
        executor.shutdown(timeout=1)
    assert "--no-warm" in CliRunner().invoke(main, ["ladder", "serve", "--help"]).output


def test_a_bot_that_sets_a_python_start_up_variable_starts_cold(pool: WarmPool) -> None:
    seeded = BotSpec("hashed", command=RANDOM, env={"PYTHONHASHSEED": "7"})
    report = play(pool, [seeded, BotSpec("b", command=RANDOM)])
    assert report.status == "complete" and [seat.faults for seat in report.seats] == [[], []]
    assert len(pool.pids()) == 1, "only the other bot has a warm parent"


def test_a_pool_killed_before_cleaning_up_leaves_no_directory_behind(tmp_path: Path) -> None:
    import subprocess

    code = "import os, sys; from referee.warm import WarmPool; pool = WarmPool(); print(pool.directory, flush=True); os._exit(9)"
    directory = Path(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False).stdout.strip())
    assert directory.is_dir()
    pool = WarmPool()
    try:
        assert not directory.exists(), "the next pool removes a dead pool's directory"
    finally:
        pool.shutdown()
