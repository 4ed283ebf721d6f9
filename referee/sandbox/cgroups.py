"""Per-bot cgroups for memory and process caps and CPU accounting, on whichever hierarchy (v1 or v2) offers the controller.

Groups are made below the referee's own cgroup, so they nest inside whatever limits the referee
itself runs under. A machine may offer a controller on v1 only (its v2 hierarchy then lacks it):
`detect()` says per controller where it can be used, or why not.
"""

from __future__ import annotations

import atexit
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

CONTROLLERS = ("memory", "pids", "cpuacct")
#: Shell code that moves the shell itself into the group of each file named before `--` (`0` written there
#: means the writer) and drops the arguments up to `--`; exits 125, running nothing, if any move fails.
ENTRY_MOVES = 'while [ "$1" != -- ]; do echo 0 > "$1" || { echo "b99: cannot enter cgroup $1" >&2; exit 125; }; shift; done; shift; '
#: ENTRY_MOVES, then executes the rest of its arguments (BotGroups.entry_command).
ENTRY_SCRIPT = ENTRY_MOVES + 'exec "$@"'


@dataclass(frozen=True, slots=True)
class Hierarchy:
    """Where one controller can be used: the directory to create groups in, and the cgroup version."""

    controller: str
    version: int
    parent: Path

    def describe(self) -> str:
        return f"cgroup v{self.version} {self.controller}"


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, filesystem type, super options) of every cgroup mount."""
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        rest = right.split()
        if len(fields) < 5 or len(rest) < 3 or rest[0] not in ("cgroup", "cgroup2"):
            continue
        found.append((fields[4], rest[0], set(rest[2].split(","))))
    return found


def _own_paths() -> dict[str, str]:
    """The referee's cgroup path per v1 controller, and under '' its v2 path."""
    paths: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return paths
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


@cache
def detect() -> tuple[dict[str, Hierarchy], dict[str, str]]:
    """Usable hierarchies per controller, and for each unusable controller the reason."""
    usable: dict[str, Hierarchy] = {}
    reasons: dict[str, str] = {}
    own = _own_paths()
    mounts = _mounts()
    for controller in CONTROLLERS:
        why = []
        for point, kind, options in mounts:
            if kind == "cgroup" and controller in options and controller in own:
                parent = Path(point) / own[controller].lstrip("/")
                if os.access(parent, os.W_OK):
                    usable[controller] = Hierarchy(controller, 1, parent)
                    break
                why.append(f"v1 {controller} group {parent} is not writable")
        if controller in usable:
            continue
        for point, kind, _ in mounts:
            if kind != "cgroup2" or "" not in own:
                continue
            parent = Path(point) / own[""].lstrip("/")
            try:
                offered = Path(point, "cgroup.controllers").read_text().split()
            except OSError:
                offered = []
            if controller not in offered:
                why.append(f"v2 hierarchy at {point} offers no {controller} controller")
                continue
            if controller in _read(parent / "cgroup.subtree_control").split() and os.access(parent, os.W_OK):
                usable[controller] = Hierarchy(controller, 2, parent)
                break
            why.append(f"v2 {controller} is not enabled for children of {parent}")
        if controller not in usable:
            reasons[controller] = "; ".join(why) or "no cgroup hierarchy offers it"
    return usable, reasons


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _counter(path: Path, key: str) -> int:
    for line in _read(path).splitlines():
        name, _, value = line.partition(" ")
        if name == key and value.strip().isdigit():
            return int(value)
    return 0


@dataclass
class BotGroups:
    """The cgroups of one bot (one per usable controller)."""

    name: str
    groups: dict[str, tuple[Hierarchy, Path]] = field(default_factory=dict)

    @classmethod
    def create(cls, name: str, memory_bytes: int, processes: int) -> BotGroups:
        """Make the groups and set their caps; a controller that refuses is left out (and not reported in force)."""
        usable, _ = detect()
        made = cls(name)
        for controller, hierarchy in usable.items():
            path = hierarchy.parent / name
            try:
                path.mkdir()
                if controller == "memory":
                    if hierarchy.version == 1:
                        (path / "memory.limit_in_bytes").write_text(str(memory_bytes))
                        swap = path / "memory.memsw.limit_in_bytes"
                        if swap.exists():
                            swap.write_text(str(memory_bytes))
                    else:
                        (path / "memory.max").write_text(str(memory_bytes))
                        swap = path / "memory.swap.max"
                        if swap.exists():
                            swap.write_text("0")
                elif controller == "pids":
                    (path / "pids.max").write_text(str(processes))
            except OSError:
                _remove(path)
                continue
            made.groups[controller] = (hierarchy, path)
        return made

    def in_force(self) -> dict[str, str]:
        return {controller: hierarchy.describe() for controller, (hierarchy, _) in self.groups.items()}

    def entry_command(self) -> list[str]:
        """A prefix that starts a command inside every group, for the command and everything it starts.

        The process moves itself before it executes the command: a thread moving itself into a v1 group
        (`0` written to its `tasks`) skips the lock for moving other processes, which waits for an RCU grace
        period (about 10 ms on an idle machine) before every move. Empty when there is no group."""
        if not self.groups:
            return []
        return ["/bin/sh", "-c", ENTRY_SCRIPT, "b99-cgroups", *self.entry_files(), "--"]

    def entry_files(self) -> list[str]:
        """The file of each group a process writes `0` to, to move itself in (ENTRY_MOVES)."""
        return [str(path / ("tasks" if hierarchy.version == 1 else "cgroup.procs")) for hierarchy, path in self.groups.values()]

    def attach(self, pid: int) -> None:
        """Move process `pid` into every group (it must not have started the bot yet)."""
        for _, path in self.groups.values():
            (path / "cgroup.procs").write_text(str(pid))

    def oom_kills(self) -> int:
        """How many processes the memory cap killed (or allocations it refused, where kills are not counted)."""
        if "memory" not in self.groups:
            return 0
        hierarchy, path = self.groups["memory"]
        if hierarchy.version == 2:
            return _counter(path / "memory.events", "oom_kill")
        kills = _counter(path / "memory.oom_control", "oom_kill")
        return kills or int(_read(path / "memory.failcnt").strip() or 0)

    def process_cap_hits(self) -> int:
        """How many times a fork was refused at the process cap."""
        if "pids" not in self.groups:
            return 0
        return _counter(self.groups["pids"][1] / "pids.events", "max")

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process that ran in the groups (v1 cpuacct, or any v2 group's cpu.stat)."""
        if "cpuacct" in self.groups:
            usage = _read(self.groups["cpuacct"][1] / "cpuacct.usage").strip()
            if usage.isdigit():
                return int(usage) / 1e9
        for hierarchy, path in self.groups.values():
            if hierarchy.version == 2 and (path / "cpu.stat").exists():
                return _counter(path / "cpu.stat", "usage_usec") / 1e6
        return None

    def pids(self) -> list[int]:
        found: set[int] = set()
        for _, path in self.groups.values():
            for line in _read(path / "cgroup.procs").split():
                if line.isdigit():
                    found.add(int(line))
        return sorted(found)

    def paths(self) -> list[str]:
        return [str(path) for _, path in self.groups.values()]

    def destroy(self) -> None:
        """Kill whatever still runs in the groups now, then remove them: at once when they are empty, else in the
        background (a killed process leaves its group only once the kernel has torn it down, milliseconds later),
        so that the end of a match never waits for it."""
        for _, path in self.groups.values():
            _kill_members(path)
            if not _try_remove(path):
                _REMOVER.submit(path)

    @staticmethod
    def remove_path(path: Path) -> None:
        """Kill whatever runs in the group at `path`, then remove it (also for a group a dead referee left)."""
        for _ in range(50):
            if not _kill_members(path):
                break
            time.sleep(0.02)
        _remove(path)


def _kill_members(path: Path) -> bool:
    """SIGKILL every process in the group at `path`; False if it held none."""
    pids = [int(line) for line in _read(path / "cgroup.procs").split() if line.isdigit()]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return bool(pids)


def _try_remove(path: Path) -> bool:
    """Remove the (empty) group at `path` if the kernel lets go of it now; True if it is gone."""
    try:
        path.rmdir()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


class _Remover:
    """One background thread that finishes removing groups whose processes were killed but not yet torn down.

    A group still here when the referee exits is waited for briefly (atexit); one left by a referee that died
    is removed by the reaper's sweep of unclaimed groups (referee.sandbox.reaper)."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """Start empty (also in a forked child: the parent's pending groups and thread are the parent's)."""
        self._queue: queue.Queue[Path] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, path: Path) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="b99-cgroup-remover", daemon=True)
                self._thread.start()
        self._queue.put(path)

    def _run(self) -> None:
        while True:
            path = self._queue.get()
            try:
                BotGroups.remove_path(path)
            finally:
                self._queue.task_done()

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait up to `timeout` seconds for every submitted group to be removed; True if none is left pending."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True


_REMOVER = _Remover()
atexit.register(_REMOVER.drain, 2.0)
os.register_at_fork(after_in_child=_REMOVER.forget)


def drain_removals(timeout: float = 5.0) -> bool:
    """Wait for the background removal of destroyed groups (True when every one is gone)."""
    return _REMOVER.drain(timeout)


def _remove(path: Path) -> None:
    for _ in range(50):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)
