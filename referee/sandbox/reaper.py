"""Cleaning up after a referee that died: its bots' processes, cgroups, files and its match directory.

Every match directory (`/tmp/b99-<match>-*`) holds a root-only `lease.json`: the referee's pid and start
time, and the uid and cgroups of every confined bot, written before the bot starts. Two things read it:

- a watchdog process per match (`python -m referee.sandbox.reaper --watch LEASE`, in a session of its
  own), which waits on a pipe from the referee: when the pipe ends and the lease is still there, the
  referee died without cleaning up, so the watchdog kills the bots (a daemonised child included) and
  removes what they left at once;
- `reap_orphans()`, run once when a referee process starts its first match, which does the same for
  every lease whose referee is gone (a watchdog killed with it, a machine that rebooted), and removes
  `b99-seat*` cgroups that no live referee claims.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from referee.sandbox import cgroups, users

LEASE_NAME = "lease.json"
STALE_GROUP_SECONDS = 300.0
#: Where a basic bot can leave files on the host (world-writable directories), removed after its match.
SHARED_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")


def process_start(pid: int) -> str | None:
    """The start time of `pid` (field 22 of /proc/pid/stat), None if no such process or it is dead (a zombie
    not yet reaped): a pid with its start time names one process, even after the pid is reused."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rpartition(b")")[2].split()
    except OSError:
        return None
    if len(fields) < 20 or fields[0] in (b"Z", b"X"):
        return None
    return fields[19].decode()


def alive(owner: Any) -> bool:
    """True if the referee named by a lease's `owner` [pid, start time] still runs."""
    try:
        pid, start = int(owner[0]), str(owner[1])
    except (TypeError, ValueError, IndexError):
        return False
    return process_start(pid) == start


@dataclass
class Lease:
    """One match's record of what it must clean up, kept in its directory while the match runs."""

    path: Path
    uids: list[int] = field(default_factory=list)
    cgroups: list[str] = field(default_factory=list)
    watchdog: subprocess.Popen[bytes] | None = None
    _pipe: int | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def create(cls, directory: Path) -> Lease:
        lease = cls(directory / LEASE_NAME)
        lease._write()
        return lease

    def _write(self) -> None:
        pid = os.getpid()
        data = {"owner": [pid, process_start(pid)], "directory": str(self.path.parent), "uids": self.uids, "cgroups": self.cgroups}
        temporary = self.path.with_name(LEASE_NAME + ".partial")
        temporary.write_text(json.dumps(data))
        os.chmod(temporary, 0o600)
        temporary.replace(self.path)

    def record_bot(self, uid: int, group_paths: list[str]) -> None:
        """Note a bot's uid and cgroups before it starts, and make sure a watchdog stands by."""
        with self._lock:
            self.uids.append(uid)
            self.cgroups.extend(group_paths)
            self._write()
            if self.watchdog is None:
                self._start_watchdog()

    def _start_watchdog(self) -> None:
        read_end, write_end = os.pipe()
        try:
            self.watchdog = subprocess.Popen(
                [sys.executable, "-m", "referee.sandbox.reaper", "--watch", str(self.path)],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": os.pathsep.join(sys.path)},
            )
        except OSError:
            os.close(write_end)
            return  # no watchdog: the reaper at the next start still cleans up
        finally:
            os.close(read_end)
        self._pipe = write_end

    def release(self) -> None:
        """The match cleaned up after itself: drop the lease, then let the watchdog go."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self.watchdog is not None:
            # It finds no lease and leaves by itself; not waited for, so a slow start never delays the match's end.
            self.watchdog.poll()


def remove_files_of(uid: int, roots: tuple[str, ...] = SHARED_WRITABLE) -> list[str]:
    """Delete what `uid` owns in the host's shared writable directories (and one level into world-writable
    subdirectories of them); returns the paths removed."""
    removed: list[str] = []
    for root in roots:
        _remove_owned(Path(root), uid, removed, depth=1)
    return removed


def _remove_owned(directory: Path, uid: int, removed: list[str], depth: int) -> None:
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_uid == uid:
            try:
                if stat.S_ISDIR(info.st_mode):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                removed.append(entry.path)
            except OSError:
                continue
        elif depth > 0 and stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
            _remove_owned(Path(entry.path), uid, removed, depth - 1)


def clean_bot(uid: int) -> None:
    """Kill every process of a bot's uid and remove its files from the host's shared directories."""
    setpriv = shutil.which("setpriv")
    if setpriv is not None:
        users.kill_all_of(uid, setpriv)
    remove_files_of(uid)


def clean_lease(path: Path) -> bool:
    """Clean up everything a lease records if its referee is gone; True if it did."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    if alive(data.get("owner")):
        return False
    for uid in data.get("uids", []):
        clean_bot(int(uid))
    for group in data.get("cgroups", []):
        cgroups.BotGroups.remove_path(Path(group))
    shutil.rmtree(data.get("directory") or path.parent, ignore_errors=True)
    return True


def reap_orphans(temporary: str | None = None) -> list[str]:
    """Clean up after every referee that died: leases in match directories, unclaimed bot cgroups."""
    cleaned = []
    base = Path(temporary or tempfile.gettempdir())
    claimed: set[str] = set()
    for lease in base.glob(f"b99-*/{LEASE_NAME}"):
        if lease.stat().st_uid != 0 and os.geteuid() == 0:
            continue  # only a lease the root referee wrote is trusted
        if clean_lease(lease):
            cleaned.append(str(lease.parent))
        else:
            try:
                claimed.update(json.loads(lease.read_text()).get("cgroups", []))
            except (OSError, ValueError):
                continue
    usable, _ = cgroups.detect()
    now = time.time()
    for hierarchy in usable.values():
        for group in hierarchy.parent.glob("b99-seat*-*"):
            # An empty group nobody claims for a while: its referee died between making it and starting the bot.
            try:
                stale = now - group.stat().st_mtime > STALE_GROUP_SECONDS
            except OSError:
                continue
            if str(group) not in claimed and stale and not (group / "cgroup.procs").read_text().split():
                cgroups.BotGroups.remove_path(group)
                cleaned.append(str(group))
    return cleaned


@cache
def reap_once() -> list[str]:
    """`reap_orphans()` once per referee process (the first match it starts)."""
    if os.geteuid() != 0:
        return []
    return reap_orphans()


def watch(path: Path) -> None:
    """The watchdog: block until the referee's pipe ends, then clean up if the lease is still there."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except OSError:
        pass
    if path.exists():
        clean_lease(path)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--watch":
        watch(Path(sys.argv[2]))
    else:
        sys.exit("usage: python -m referee.sandbox.reaper --watch LEASE")
