"""Nothing a bot leaves on the host outlives its match: not after a normal end, not if the referee is killed,
not after a referee that died (the reaper at the next start)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from referee.match import MatchSpec, run_match
from referee.sandbox import cgroups, machine_support
from referee.sandbox.reaper import LEASE_NAME, process_start, reap_orphans
from referee.sandbox.users import allocate_uid, processes_of
from tests.hostile.test_hostile import ROOMY, good_bot, hostile_bot

pytestmark = pytest.mark.skipif(
    not machine_support().available("basic"), reason=f"no basic sandbox here: {machine_support().missing.get('basic')}"
)
LEFT = ("/tmp", "/var/tmp", "/dev/shm")


def leftovers(nonce: str) -> list[str]:
    return [path for path in (*(f"{d}/b99-left-{nonce}" for d in LEFT), f"/tmp/b99-left-{nonce}.pid") if os.path.exists(path)]


def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def lease_owner(directory: Path) -> int | None:
    """The pid of the referee whose lease is in a match directory (other tests' directories come and go beside it)."""
    try:
        return int(json.loads((directory / LEASE_NAME).read_text())["owner"][0])
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_a_basic_bot_leaves_no_file_and_no_daemon_after_its_match(tmp_path: Path) -> None:
    nonce = uuid.uuid4().hex
    report = run_match(MatchSpec("underground_dice", [good_bot("basic"), hostile_bot("daemon", nonce, "play", level="basic")], seed=1, time_control=ROOMY))
    bad = report.seats[1]
    assert "daemon started" in bad.stderr_tail and "wrote /dev/shm" in bad.stderr_tail, bad.stderr_tail
    assert leftovers(nonce) == []
    assert processes_of(bad.sandbox["uid"]) == []


REFEREE = """
import sys
from referee.clock import TimeControl
from referee.match import MatchSpec, run_match
from tests.hostile.test_hostile import good_bot, hostile_bot
control = TimeControl(per_decision_seconds=600.0, bank_seconds=0.0, startup_seconds=30.0)
run_match(MatchSpec("underground_dice", [hostile_bot("daemon", sys.argv[1], "stall", level="basic"), good_bot("basic")], seed=2, time_control=control))
"""


def test_killing_the_referee_kills_the_daemon_and_removes_what_it_left() -> None:
    """The watchdog sees the referee's pipe end with the lease still there, and cleans up at once."""
    nonce = uuid.uuid4().hex
    before = set(Path(tempfile.gettempdir()).glob("b99-*"))
    referee = subprocess.Popen([sys.executable, "-c", REFEREE, nonce], cwd=Path(__file__).parents[2], start_new_session=True)
    try:
        pid_file = Path(f"/tmp/b99-left-{nonce}.pid")
        assert wait_for(lambda: pid_file.exists() and pid_file.read_text().strip(), 60), "the bot never started its daemon"
        daemon = int(pid_file.read_text())
        assert pid_alive(daemon)
        match_dirs = [d for d in set(Path(tempfile.gettempdir()).glob("b99-*")) - before if lease_owner(d) == referee.pid]
        assert len(match_dirs) == 1, "the referee's match directory (with its lease) was not found"
        referee.send_signal(signal.SIGKILL)
        referee.wait(10)
        assert wait_for(lambda: not pid_alive(daemon), 15), "the daemon outlived the referee"
        assert wait_for(lambda: leftovers(nonce) == [], 10), leftovers(nonce)
        assert wait_for(lambda: not any(d.exists() for d in match_dirs), 10), match_dirs
    finally:
        if referee.poll() is None:
            referee.kill()


def test_the_reaper_cleans_up_after_a_referee_that_died(tmp_path: Path) -> None:
    """A lease whose referee is gone (no watchdog either): its bots, cgroups and directory go at the next start."""
    setpriv = machine_support().setpriv
    assert setpriv is not None
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    uid = allocate_uid()
    orphan = subprocess.Popen([setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "600"], start_new_session=True)
    group = cgroups.BotGroups.create(f"b99-seat0-{uid}", 64 * 1024 * 1024, 8)
    group.attach(orphan.pid)
    directory = tmp_path / f"b99-dead-{uuid.uuid4().hex[:6]}"
    directory.mkdir()
    (directory / "arena.sock").write_text("")
    (directory / LEASE_NAME).write_text(
        json.dumps({"owner": [int(dead.stdout), "1"], "directory": str(directory), "uids": [uid], "cgroups": group.paths()})
    )
    alive_lease = tmp_path / "b99-alive-x"
    alive_lease.mkdir()
    (alive_lease / LEASE_NAME).write_text(json.dumps({"owner": [os.getpid(), process_start(os.getpid())], "directory": str(alive_lease), "uids": [], "cgroups": []}))
    cleaned = reap_orphans(str(tmp_path))
    orphan.wait(10)
    assert str(directory) in cleaned and not directory.exists()
    assert alive_lease.exists(), "a live referee's match was touched"
    assert processes_of(uid) == []
    assert all(not Path(path).exists() for path in group.paths())
