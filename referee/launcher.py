"""Starting a bot process for one seat: its command, environment, sandbox, scratch directory and logs."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.bot_logs import LogPump
from referee.errors import BotLaunchError
from referee.faults import Fault, FaultKind
from referee.sandbox import Confinement, SandboxRequest, spawn
from referee.sandbox.binds import bridged_from
from referee.sandbox.limits import MIB
from referee.warm import spawn_warm

LOG_TAIL_BYTES = 4096
#: Interpreters whose first argument, when not an option, is the bot's script.
SCRIPT_RUNNERS = re.compile(r"(python[0-9.]*|node|nodejs|bash|sh|ruby|perl|php|Rscript|lua)")
#: CPU time within this of the cap, with a kill by SIGKILL or SIGXCPU, counts as the CPU cap (clock granularity).
CPU_CAP_SLACK_SECONDS = 0.05
#: How often the CPU time of a bot's processes together is compared with its cap.
CPU_CHECK_SECONDS = 0.2
#: What in a dying bot's stderr says it ran out of memory (Python, C++, Node, libc).
OUT_OF_MEMORY_MARKS = ("MemoryError", "std::bad_alloc", "heap out of memory", "Cannot allocate memory", "out of memory")


@dataclass(frozen=True)
class WarmRequest:
    """Start this seat's bot from a warm parent: the pool's address, and what keeps bots apart (a warm
    parent serves one bot identity; two seats of one match never share one: `slot`)."""

    pool: str
    identity: str
    slot: int = 0


@dataclass
class BotProcess:
    """A running bot process with its captured output."""

    seat: int
    process: subprocess.Popen[bytes]
    workdir: Path
    stdout_path: Path
    stderr_path: Path
    notes: list[str] = field(default_factory=list)
    confinement: Confinement | None = None
    logs: tuple[LogPump, ...] = ()
    #: CPU seconds (user + system) of the bot's process tree, known once it has been reaped.
    cpu_seconds: float | None = None
    _reaping: threading.Lock = field(default_factory=threading.Lock)
    _cpu_checked_at: float = 0.0

    def _reap(self) -> int | None:
        """Reap the process if it has ended, keeping its resource usage (CPU time of all it waited for)."""
        with self._reaping:
            if self.process.returncode is not None:
                return self.process.returncode
            if getattr(self.process, "warm", False):
                # Forked by a warm parent, not by the referee: the parent reaps it and reports its status.
                code = self.process.poll()
                self.cpu_seconds = getattr(self.process, "cpu_seconds", None)
                return code
            try:
                pid, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            except ChildProcessError:
                return self.process.poll()
            if pid == 0:
                return None
            self.cpu_seconds = usage.ru_utime + usage.ru_stime
            self.process.returncode = os.waitstatus_to_exitcode(status)
            return self.process.returncode

    def exit_code(self) -> int | None:
        """The exit code (negative = killed by that signal), or None while it runs."""
        return self._decode(self._reap())

    def wait(self, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        while True:
            code = self._reap()
            if code is not None or time.monotonic() >= deadline:
                return self._decode(code)
            time.sleep(min(0.01, max(0.0, deadline - time.monotonic())))

    def _decode(self, code: int | None) -> int | None:
        return self.confinement.decode_exit(code) if self.confinement is not None else code

    def sandbox_report(self) -> dict[str, object]:
        """The sandbox level and the caps that were in force, for the match report."""
        if self.confinement is None:
            return {"level": "none", "isolation": "none: the bot ran as the referee's user with no caps (trusted local development)"}
        return self.confinement.report()

    def end_fault(self, reason: str) -> Fault:
        """Why the bot ended: its memory, CPU or output cap, or else a crash with its exit status."""
        code = self.wait(1.0)
        if code is not None:
            for log in self.logs:
                log.settle(0.5)  # what it wrote before it died, for the tail and the flood count
        status = describe_exit(code)
        tail = self.stderr_tail(1024)
        oom_kills, cap_hits = self.confinement.counters() if self.confinement is not None else (0, 0)
        limits = self.confinement.limits if self.confinement is not None else None
        cpu = f" of {limits.cpu_seconds} s" if limits is not None else ""
        if code == -signal.SIGXCPU:
            return Fault(FaultKind.CPU, f"killed at its CPU-time cap{cpu} ({status})")
        if oom_kills and code is not None and code != 0 or any(mark in tail for mark in OUT_OF_MEMORY_MARKS):
            cap = f" of {limits.memory_mb} MiB" if limits is not None and oom_kills else ""
            return Fault(FaultKind.MEMORY, f"ran out of memory at its cap{cap} ({status})")
        used = self.cpu_used()
        if code == -signal.SIGKILL and limits is not None and used is not None and used >= limits.cpu_seconds - CPU_CAP_SLACK_SECONDS:
            # SIGXCPU ignored: the kernel's SIGKILL a second later says nothing; the CPU time used does.
            return Fault(FaultKind.CPU, f"killed at its CPU-time cap{cpu} ({status}, {used:.2f} s of CPU used)")
        flooded = [name for name, path in (("stdout", self.stdout_path), ("stderr", self.stderr_path)) if self._at_cap(path)]
        if code == -signal.SIGXFSZ or flooded:
            return Fault(FaultKind.OUTPUT_FLOOD, f"wrote past its {self._cap_text()} output cap on {' and '.join(flooded) or 'a file'} ({status})")
        detail = f"{status} ({reason})" if code is not None else reason
        # Nothing the bot wrote names or words its fault: its stderr is its owner's, and a bot could
        # write anything there (a message over the transport's limit ends its stream unread, which is
        # all the referee sees of it: a crash or a disconnect).
        notes = self.cap_notes()
        return Fault(FaultKind.CRASH if code is not None else FaultKind.DISCONNECT, f"{detail}; {notes}" if notes else detail)

    def cpu_overrun(self) -> Fault | None:
        """The CPU fault, with the bot stopped, once its processes together used more CPU time than its
        cap (RLIMIT_CPU caps each process alone; the cgroup counts the children too). None while under
        it, or where no cgroup counts CPU time (then each process is capped on its own only)."""
        confinement = self.confinement
        if confinement is None or confinement.groups is None or confinement.cleaned:
            return None
        now = time.monotonic()
        if now - self._cpu_checked_at < CPU_CHECK_SECONDS:
            return None  # a file read per check: not at every decision of a fast game
        self._cpu_checked_at = now
        if self.exit_code() is not None:
            return None
        used = confinement.groups.cpu_seconds()
        cap = confinement.limits.cpu_seconds
        if used is None or used < cap + CPU_CAP_SLACK_SECONDS:
            return None
        self.stop(grace_seconds=0.0)
        return Fault(FaultKind.CPU, f"its processes together used {used:.2f} s of CPU, over its CPU-time cap of {cap} s")

    def cpu_used(self) -> float | None:
        """CPU seconds of the bot's processes: its cgroup's accounting, or the reaped process tree's usage."""
        measured = [value for value in (self.cpu_seconds, self.confinement.cpu_seconds if self.confinement else None) if value is not None]
        return max(measured) if measured else None

    def output_flood(self) -> Fault | None:
        """An output_flood fault if the bot wrote more than its cap to a log (and lived on, writes failing)."""
        flooded = [name for name, path in (("stdout", self.stdout_path), ("stderr", self.stderr_path)) if self._at_cap(path)]
        if not flooded:
            return None
        return Fault(FaultKind.OUTPUT_FLOOD, f"wrote past its {self._cap_text()} output cap on {' and '.join(flooded)}; the rest was dropped")

    def cap_notes(self) -> str:
        """Which caps the bot ran into so far ('' if none): refused forks, processes killed for memory."""
        if self.confinement is None:
            return ""
        oom_kills, cap_hits = self.confinement.counters()
        limits = self.confinement.limits
        notes = []
        if cap_hits:
            notes.append(f"it hit its process cap of {limits.processes} ({cap_hits} forks refused)")
        if oom_kills:
            notes.append(f"its memory cap of {limits.memory_mb} MiB stopped it {oom_kills} time(s)")
        return "; ".join(notes)

    def _at_cap(self, path: Path) -> bool:
        """True if the bot sent more than its cap down that log's pipe (counted as it arrived, never from the file)."""
        return any(log.flooded for log in self.logs if log.path == path)

    def _cap_text(self) -> str:
        return f"{self.confinement.limits.file_mb} MiB" if self.confinement is not None else ""

    def stop(self, grace_seconds: float = 1.0) -> int | None:
        """Ask the process to stop, then kill its whole process group."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if self.wait(grace_seconds) is None:
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.wait(5.0)
        else:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.confinement is not None:
            self.confinement.cleanup()
        for log in self.logs:
            log.settle(1.0)
        return self.exit_code()

    def stderr_tail(self, limit: int = LOG_TAIL_BYTES) -> str:
        return _tail(self.stderr_path, limit)

    def stdout_tail(self, limit: int = LOG_TAIL_BYTES) -> str:
        return _tail(self.stdout_path, limit)


def _tail(path: Path, limit: int) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def describe_exit(code: int | None) -> str:
    """'exit code 3', 'killed by signal SIGKILL' or 'still running'."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def starts_interpreter(environment: Mapping[str, str]) -> bool:
    """Whether the seat's own variables include one that Python reads only as it starts (PYTHONPATH,
    PYTHONHASHSEED, ...): a child forked from a warm parent could not honour it, so that bot starts cold."""
    return any(name.startswith("PYTHON") and name != "PYTHONUNBUFFERED" for name in environment)


def missing_script(command: Sequence[str], cwd: str | None) -> str | None:
    """The script a bot command names, as written, when no such file exists (else None).

    Checked before the start so that the fault names the path the user typed: in a sandbox the bot
    starts in a scratch directory, where its interpreter would report a path of its own. Only an
    interpreter's first argument counts (`python bot.py`, `node bot.js`, also behind `b99 bridge --`);
    options such as `python -m pkg` are left to the interpreter.
    """
    start = bridged_from(command)
    for argv in (command, command[start:] if start is not None else ()):
        if len(argv) < 2 or not SCRIPT_RUNNERS.fullmatch(Path(argv[0]).name) or argv[1].startswith("-"):
            continue
        script = Path(argv[1])
        if not (script if script.is_absolute() else Path(cwd or os.getcwd()) / script).is_file():
            return argv[1]
    return None


def launch(
    seat: int,
    command: Sequence[str],
    environment: Mapping[str, str],
    workdir: Path,
    cwd: str | None = None,
    sandbox: SandboxRequest | None = None,
    warm: WarmRequest | None = None,
) -> BotProcess:
    """Start `command` in its own process group with `environment` added; output goes to workdir logs.

    With a sandbox request above `none`, the environment is scrubbed to `environment` plus a few basics
    and the bot is confined (see referee.sandbox); BotLaunchError if the level cannot run here.
    With `warm` (a pool's address) an unconfined Python bot is forked from its warm parent (referee.warm),
    and started cold when it cannot be.
    """
    script = missing_script(command, cwd)
    if script is not None:
        where = f"the bot's directory {cwd}" if cwd else f"{os.getcwd()}"
        raise BotLaunchError(f"seat {seat}: bot script {script!r} does not exist (looked in {where})")
    # Python bots write their output as they go (a `print` shows beside the decision it was made in).
    environment = {"PYTHONUNBUFFERED": "1", **environment}
    workdir.mkdir(parents=True, exist_ok=True)
    stdout_path = workdir / "stdout.log"
    stderr_path = workdir / "stderr.log"
    confined = sandbox is not None and sandbox.level != "none"
    cap = sandbox.limits.file_mb * MIB if sandbox is not None and confined else None
    logs = (LogPump(stdout_path, cap), LogPump(stderr_path, cap))
    stdout, stderr = logs
    if sandbox is not None and confined:
        try:
            process, confinement = spawn(seat, command, environment, stdout, stderr, cwd, sandbox, workdir)  # type: ignore[arg-type]
        except BotLaunchError:
            for log in logs:
                log.settle(1.0)
            raise
        finally:
            for log in logs:
                log.started()
        return BotProcess(seat, process, workdir, stdout_path, stderr_path, confinement=confinement, logs=logs)
    env = dict(os.environ)
    env.update(environment)
    if warm is not None and not starts_interpreter(environment):
        child = spawn_warm(warm.pool, command, cwd, warm.identity, warm.slot, env, stdout.fileno(), stderr.fileno())
        if child is not None:
            for log in logs:
                log.started()
            return BotProcess(seat, child, workdir, stdout_path, stderr_path, logs=logs)  # type: ignore[arg-type]
    try:
        process = subprocess.Popen(
            list(command),
            stdin=subprocess.DEVNULL,
            stdout=stdout,  # type: ignore[arg-type]
            stderr=stderr,  # type: ignore[arg-type]
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
    except (OSError, ValueError) as error:
        for log in logs:
            log.settle(1.0)
        raise BotLaunchError(f"seat {seat}: bot command {' '.join(command)!r} does not start: {error}") from None
    finally:
        for log in logs:
            log.started()
    return BotProcess(seat, process, workdir, stdout_path, stderr_path, logs=logs)
