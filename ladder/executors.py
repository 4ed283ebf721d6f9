"""Where match attempts run: processes on this machine (default) or Celery workers behind a Redis broker."""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Any, Protocol

from ladder.db import DatabaseUnavailable, retrying
from ladder.execute import serve_local_matches
from ladder.matches import fail_worker
from ladder.settings import LadderSettings
from referee.warm import WarmPool

log = logging.getLogger(__name__)


class Executor(Protocol):
    """Runs `execute_match(settings, match_id)` somewhere; results go to the database, not back here."""

    name: str

    def submit(self, settings: LadderSettings, match_id: int) -> None: ...

    def shutdown(self) -> None: ...


def _start_time(pid: int) -> str | None:
    """A process's start time in clock ticks (field 22 of /proc/PID/stat), None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def reap_orphans(settings: LadderSettings) -> list[int]:
    """Kill the match processes (and their process groups) a previous service of this ladder left
    behind, as recorded in <home>/run; returns their pids. A pid reused by another program is
    recognised by its start time and left alone."""
    killed = []
    run_dir = settings.home / "run"
    for pidfile in sorted(run_dir.glob("match-*.pid")) if run_dir.is_dir() else []:
        try:
            pid_text, started = pidfile.read_text().split()
            pid = int(pid_text)
        except (OSError, ValueError):
            pidfile.unlink(missing_ok=True)
            continue
        if _start_time(pid) == started:
            try:
                os.killpg(pid, signal.SIGKILL)
                killed.append(pid)
            except (ProcessLookupError, PermissionError):
                pass
        pidfile.unlink(missing_ok=True)
    return killed


#: A match process plays this many matches, then ends and a fresh one takes its place (whatever a long life gathers).
MATCHES_PER_PROCESS = int(os.environ.get("B99_LADDER_MATCHES_PER_PROCESS", "200"))


@dataclass
class MatchProcess:
    """A local match process and the match it plays (None: waiting for one)."""

    process: Any
    connection: Any  # the executor's end of the pipe: matches go down, "recorded" and "done" come back
    key: tuple[str, str, str | None]  # the ladder it plays for: home, database, gateway
    match_id: int | None = None
    settings: LadderSettings | None = None
    played: int = 0


class LocalExecutor:
    """Up to `workers` matches at once on this machine, each played by a match process of its own (forked from a
    fork server with the match code loaded), which plays one match at a time and, once done, the next one it is
    sent (its database connection, compiled statements and loaded code serve many matches; it ends after
    MATCHES_PER_PROCESS). A process killed mid-match fails only its own match, which is queued again at once, and a
    fresh process takes the next one. Every match process dies with the service (it watches the service's pid,
    and PR_SET_PDEATHSIG ties it to the fork server), and the next service kills any that a previous one left
    behind."""

    name = "local"

    def __init__(self, workers: int, poll_seconds: float = 0.05, warm: bool = True) -> None:
        self.workers = workers
        # Python bots at sandbox level none fork from warm parents that outlive the matches (referee.warm).
        self.warm = WarmPool() if warm else None
        self.poll_seconds = poll_seconds
        self.lock = threading.Lock()
        self.pending: deque[tuple[LadderSettings, int]] = deque()
        self.running: dict[int, tuple[LadderSettings, Any]] = {}
        #: Match processes whose result is recorded and which are still stopping their bots: they hold no slot.
        self.finishing: dict[int, tuple[LadderSettings, Any]] = {}
        #: Every match process, by pid: playing, finishing or waiting for a match.
        self.processes: dict[int, MatchProcess] = {}
        self.to_fail: list[tuple[LadderSettings, int, str, str]] = []
        self.homes_reaped: set[Path] = set()
        self.stopping = threading.Event()
        self.wake = threading.Event()
        # A byte down this pipe wakes the supervisor as a match process's end does (it waits on both at once).
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_write, False)
        self.context = multiprocessing.get_context("forkserver")
        # referee.preload loads every game (engine, component data, wire messages) once, not in every match.
        self.context.set_forkserver_preload(["ladder.execute", "referee.match", "ladder.matches", "ladder.botstore", "referee.preload"])
        self.listeners: list[Callable[[list[int]], None]] = []
        self.supervisor = threading.Thread(target=self._supervise, name="local-executor", daemon=True)
        self.supervisor.start()

    def _nudge(self) -> None:
        try:
            os.write(self.wake_write, b"!")
        except (BlockingIOError, OSError):
            pass  # already awake (the pipe is full) or shut down

    def listen(self, callback: Callable[[list[int]], None]) -> None:
        """Call `callback` (from the supervisor thread) with the ids of the matches whose result was recorded or
        whose attempt ended otherwise (a failed one's match already handed back)."""
        self.listeners.append(callback)

    def submit(self, settings: LadderSettings, match_id: int) -> None:
        with self.lock:
            if settings.home not in self.homes_reaped:
                self.homes_reaped.add(settings.home)
                for pid in reap_orphans(settings):
                    log.warning("killed match process %s left behind by a previous service", pid)
            if match_id in self.running or any(queued == match_id for _, queued in self.pending):
                return  # sent again while this executor still holds it
            self.pending.append((settings, match_id))
        self.wake.set()  # processes are started by the supervisor thread only (see _supervise)
        self._nudge()

    def _fill(self) -> None:
        while self.pending and len(self.running) < self.workers and not self.stopping.is_set():
            settings, match_id = self.pending[0]
            key = (str(settings.home), settings.db_url, settings.gateway)
            idle = [process for process in self.processes.values() if process.match_id is None]
            chosen = next((process for process in idle if process.key == key), None)
            if chosen is None:
                for other in idle:  # waiting for another ladder's matches: make room
                    self._retire(other)
                if len(self.processes) >= 2 * self.workers:
                    return  # every process plays or stops its bots: the next one to finish takes this match
                chosen = self._start(settings, key)
            self.pending.popleft()
            try:
                chosen.connection.send((key, match_id))
            except OSError:  # it died meanwhile: collected below, and the match waits for the next process
                self.pending.appendleft((settings, match_id))
                self._retire(chosen)
                continue
            chosen.match_id, chosen.settings = match_id, settings
            self.running[match_id] = (settings, chosen.process)

    def _retire(self, process: MatchProcess) -> None:
        """Ask a waiting match process to end (its end is collected as any other)."""
        try:
            process.connection.send(None)
        except OSError:
            pass

    def _start(self, settings: LadderSettings, key: tuple[str, str, str | None]) -> MatchProcess:
        # Not fork: the service runs gRPC and web threads, which fork would copy half-alive. A fork
        # server starts clean, imports the match code once, and forks each match process from it.
        mine, theirs = self.context.Pipe(duplex=True)
        process = self.context.Process(
            target=serve_local_matches,
            args=(os.getpid(), self.warm.address if self.warm is not None else None, theirs, MATCHES_PER_PROCESS),
            name="match-process",
        )
        try:
            process.start()
        finally:
            theirs.close()  # the match process holds its own copy
        run_dir = settings.home / "run"
        run_dir.mkdir(parents=True, exist_ok=True)
        started = _start_time(process.pid)
        if started is not None:
            (run_dir / f"match-{process.pid}.pid").write_text(f"{process.pid} {started}\n")
        self.processes[process.pid] = MatchProcess(process, mine, key)
        return self.processes[process.pid]

    def _supervise(self) -> None:
        # PR_SET_PDEATHSIG fires when the *thread* that started a process ends, so every match
        # process is started here, by this thread, which lives as long as the executor.
        while not self.stopping.is_set():
            with self.lock:
                waits = [handle for process in self.processes.values() for handle in (process.process.sentinel, process.connection)]
            # A match process's end (its sentinel), its word (its pipe) or a submission (the wake pipe) wakes this at
            # once: the next match starts the moment a slot is free, not a poll later.
            try:
                ready = multiprocessing.connection.wait([*waits, self.wake_read], self.poll_seconds)
            except (OSError, ValueError):  # a process collected meanwhile (its sentinel closed)
                ready = []
            if self.wake_read in ready:
                try:
                    os.read(self.wake_read, 4096)
                except BlockingIOError:
                    pass
            self.wake.clear()
            self.reap_exited()

    def reap_exited(self) -> None:
        """Free the slot of a match whose result is recorded (its process may still be stopping its bots); take
        back a process that is done with its match; collect ended match processes, failing the match of one that
        died playing (its own match only)."""
        ended: list[int] = []
        with self.lock:
            for pid, process in list(self.processes.items()):
                self._hear(process, ended)
                code = process.process.exitcode
                if code is None:
                    continue
                del self.processes[pid]
                process.connection.close()
                (Path(process.key[0]) / "run" / f"match-{pid}.pid").unlink(missing_ok=True)
                match_id, settings = process.match_id, process.settings
                if match_id is None or settings is None:
                    continue  # it had no match (retired, or ended waiting)
                recorded = self.finishing.pop(match_id, None) is not None
                if not recorded:
                    self.running.pop(match_id, None)
                    ended.append(match_id)
                if code != 0 or not recorded:
                    how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
                    self.to_fail.append((settings, match_id, f"{socket.gethostname()}:{pid}", how))
            for process in list(self.processes.values()):
                if process.match_id is None and process.played >= MATCHES_PER_PROCESS:
                    self._retire(process)
            self._fill()
            failures, self.to_fail = self.to_fail, []
        for settings, match_id, worker, how in failures:
            try:
                outcome = retrying(lambda: fail_worker(settings, match_id, worker, f"worker {worker} {how}"),
                                   5.0, f"fail match {match_id}")
                log.warning("match %s: its process %s %s; %s", match_id, worker, how, outcome)
            except DatabaseUnavailable:
                with self.lock:  # try again next round; the lease covers it meanwhile
                    self.to_fail.append((settings, match_id, worker, how))
        if ended:
            for callback in self.listeners:
                callback(ended)

    def _hear(self, process: MatchProcess, ended: list[int]) -> None:
        """Take what a match process said about its match: "recorded" (its slot is free), "done" (it waits for the
        next one), "unavailable" (the database stayed away: nothing was recorded, the match is failed here)."""
        while True:
            try:
                if not process.connection.poll():
                    return
                word, match_id = process.connection.recv()
            except (EOFError, OSError):
                return  # it ended: collected by the caller
            if match_id != process.match_id or process.settings is None:
                continue
            if word == "recorded":
                if match_id in self.running:
                    self.finishing[match_id] = self.running.pop(match_id)
                    ended.append(match_id)
                continue
            if self.running.pop(match_id, None) is not None:
                ended.append(match_id)
            self.finishing.pop(match_id, None)
            if word == "unavailable":
                self.to_fail.append((process.settings, match_id, f"{socket.gethostname()}:{process.process.pid}",
                                     "could not reach the database"))
            process.match_id, process.settings = None, None
            process.played += 1

    def shutdown(self, timeout: float = 600.0) -> None:
        """Stop starting matches; let those running finish (up to `timeout`), then kill the rest."""
        with self.lock:
            self.pending.clear()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if not self.running and not self.finishing:
                    break
            time.sleep(self.poll_seconds)
        self.stopping.set()
        self._nudge()
        self.supervisor.join(5)
        with self.lock:
            for pid, process in list(self.processes.items()):  # playing past the timeout, or waiting for a match
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                process.process.join(5)
                process.connection.close()
                (Path(process.key[0]) / "run" / f"match-{pid}.pid").unlink(missing_ok=True)
            self.processes.clear()
        if self.warm is not None:
            self.warm.shutdown()
        if not self.supervisor.is_alive():
            for fd in (self.wake_read, self.wake_write):
                try:
                    os.close(fd)
                except OSError:
                    pass


class CeleryExecutor:
    """One Celery task per dispatch, acknowledged late (see ladder.celery_app)."""

    name = "celery"

    def __init__(self, broker_url: str) -> None:
        from ladder.celery_app import configure

        self.app = configure(broker_url)

    def submit(self, settings: LadderSettings, match_id: int) -> None:
        self.app.send_task(
            "ladder.execute_match", args=[str(settings.home), settings.db_url, match_id],
            kwargs={"gateway": settings.gateway}, queue="ladder",
            retry=True, retry_policy={"max_retries": 2, "interval_start": 0.1, "interval_step": 0.2, "interval_max": 0.5},
        )

    def shutdown(self) -> None:
        self.app.close()
