"""Warm bot processes: Python bots forked from a pre-started parent instead of a fresh interpreter each.

A `WarmPool` belongs to a process that outlives its matches (the ladder's local executor, a
tournament): it starts one warm parent (sdk.warm) per bot command, working directory, bot identity
and slot, and serves their socket paths on a Unix socket of its own. A match process asks the pool
for the parent of a seat's bot (`spawn_warm`), hands that parent the seat's log pipes and
environment, and gets back a `WarmChild`: the bot's pid and its exit status once it ends. Anything
that fails on the way returns None, and the referee starts the bot cold as before.

Only bots at sandbox level `none` are started warm (docs/decisions.md): a confined bot still gets
its own sandbox, uid and cgroups per match.
"""

from __future__ import annotations

import array
import hashlib
import json
import logging
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.sandbox.confine import kill_group

log = logging.getLogger(__name__)

#: Warm parents a pool keeps at most (each holds an interpreter with grpc loaded, some 40 MiB); the least
#: recently used one beyond this is retired (it leaves once its running children have ended).
MAX_PARENTS = int(os.environ.get("B99_WARM_MAX_PARENTS", "32"))
READY_SECONDS = 30.0
#: A pool's directory in the temporary directory: this prefix, then the owning process's pid.
POOL_PREFIX = "b99-warm-"
ASK_SECONDS = 10.0
#: Why a warm child's parent went away mid-match, per match process: the match is the platform's failure.
LOST_PARENTS: list[str] = []


def warm_target(command: Sequence[str]) -> list[str] | None:
    """The arguments after the interpreter if `command` is this Python running a module or a script, else None."""
    if len(command) < 2 or os.path.realpath(command[0]) != os.path.realpath(sys.executable):
        return None
    rest = list(command[1:])
    if rest[0] == "-m" and len(rest) >= 2:
        return rest
    if not rest[0].startswith("-") and rest[0].endswith(".py"):
        return rest
    return None


@dataclass
class _Parent:
    process: subprocess.Popen[bytes]
    socket_path: Path
    used_at: float = field(default_factory=time.monotonic)


class WarmPool:
    """The warm parents of one long-lived process, and the Unix socket match processes ask them of."""

    def __init__(self, max_parents: int = MAX_PARENTS) -> None:
        self.max_parents = max_parents
        remove_stale_pools()
        self.directory = Path(tempfile.mkdtemp(prefix=f"{POOL_PREFIX}{os.getpid()}-"))
        os.chmod(self.directory, 0o700)
        self.address = str(self.directory / "pool.sock")
        self.parents: dict[str, _Parent] = {}
        self.retiring: list[subprocess.Popen[bytes]] = []
        self.cold: dict[str, str] = {}
        self.stopping = threading.Event()
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.address)
        self.server.listen(64)
        self.server.settimeout(0.5)
        # Warm parents die with the thread that started them (PR_SET_PDEATHSIG): this one lives as long as the pool.
        self.thread = threading.Thread(target=self._serve, name="warm-pool", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopping.is_set():
            self._collect()
            try:
                connection, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with connection:
                try:
                    connection.settimeout(ASK_SECONDS)
                    request = json.loads(_read_line(connection)[0])
                    answer = self._parent_for(request)
                    connection.sendall(json.dumps(answer).encode() + b"\n")
                except (OSError, ValueError) as error:
                    log.debug("warm pool request failed: %s", error)

    def _parent_for(self, request: Mapping[str, object]) -> dict[str, str]:
        """The socket of the warm parent for this bot (started now if needed), or why it runs cold."""
        command = [str(part) for part in list(request.get("command") or [])]  # type: ignore[call-overload]
        target = warm_target(command)
        if target is None:
            return {"cold": "not a Python module or script of this interpreter"}
        key = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()[:24]
        if key in self.cold:
            return {"cold": self.cold[key]}
        parent = self.parents.get(key)
        if parent is not None and parent.process.poll() is None:
            parent.used_at = time.monotonic()
            return {"socket": str(parent.socket_path)}
        if parent is not None:
            log.warning("warm parent of %s ended (%s); starting another", " ".join(command), parent.process.returncode)
            self.parents.pop(key)
        cwd = request.get("cwd")
        try:
            parent = self._start(key, command[0], target, str(cwd) if cwd else None)
        except OSError as error:
            self.cold[key] = f"its warm parent did not start: {error}"
            return {"cold": self.cold[key]}
        if parent is None:
            self.cold[key] = "its warm parent refused (see warm-*.log in the pool's directory)"
            return {"cold": self.cold[key]}
        self.parents[key] = parent
        self._retire_extra()
        return {"socket": str(parent.socket_path)}

    def _start(self, key: str, python: str, target: list[str], cwd: str | None) -> _Parent | None:
        socket_path = self.directory / f"{key}.sock"
        socket_path.unlink(missing_ok=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(socket_path))
            listener.listen(64)
            with open(self.directory / f"warm-{key}.log", "ab") as errors:
                process = subprocess.Popen(
                    [python, "-m", "sdk.warm", "--listen-fd", str(listener.fileno()), "--parent", str(os.getpid()), "--", *target],
                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, cwd=cwd,
                    pass_fds=(listener.fileno(),), start_new_session=True,
                )
        finally:
            listener.close()  # the parent holds the only copy: if it dies, asking it fails at once
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], READY_SECONDS)
        line = process.stdout.readline() if ready else b""
        process.stdout.close()
        if line.strip() != b"ready":
            kill_group(process)
            return None
        return _Parent(process, socket_path)

    def _retire_extra(self) -> None:
        while len(self.parents) > self.max_parents:
            key = min(self.parents, key=lambda name: self.parents[name].used_at)
            parent = self.parents.pop(key)
            try:
                parent.process.send_signal(signal.SIGTERM)  # it leaves once its running children have ended
            except ProcessLookupError:
                pass
            self.retiring.append(parent.process)

    def _collect(self) -> None:
        self.retiring = [process for process in self.retiring if process.poll() is None]

    def pids(self) -> list[int]:
        """The warm parents' pids (running or retiring)."""
        return [parent.process.pid for parent in self.parents.values()] + [process.pid for process in self.retiring]

    def shutdown(self) -> None:
        """Stop every warm parent (their children die with them) and reap them; remove the pool's directory."""
        self.stopping.set()
        self.server.close()
        self.thread.join(5)
        for process in [parent.process for parent in self.parents.values()] + self.retiring:
            kill_group(process)
        self.parents.clear()
        self.retiring.clear()
        shutil.rmtree(self.directory, ignore_errors=True)


def remove_stale_pools() -> list[Path]:
    """Remove the directories of pools whose process is gone (killed before it could clean up); this
    user's only. Their warm parents died with that process."""
    removed = []
    for directory in Path(tempfile.gettempdir()).glob(f"{POOL_PREFIX}*"):
        pid = directory.name.removeprefix(POOL_PREFIX).split("-", 1)[0]
        try:
            if not pid.isdigit() or directory.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(directory, ignore_errors=True)
            removed.append(directory)
        except OSError:
            continue
    return removed


def _read_line(connection: socket.socket, limit: int = 1 << 16) -> tuple[bytes, bytes]:
    """The first line on `connection` and whatever came after it."""
    data = b""
    while b"\n" not in data:
        chunk = connection.recv(4096)
        if not chunk or len(data) > limit:
            raise ConnectionError("answer cut short")
        data += chunk
    line, rest = data.split(b"\n", 1)
    return line, rest


class WarmChild:
    """A bot process forked by a warm parent: enough of subprocess.Popen for the referee's BotProcess."""

    warm = True

    def __init__(self, pid: int, connection: socket.socket, parent_socket: str) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.cpu_seconds: float | None = None
        self.parent_lost = False
        self.connection = connection
        self.parent_socket = parent_socket
        self.buffer = b""
        connection.setblocking(False)

    def poll(self) -> int | None:
        """The exit code once the warm parent reported it; None while the bot runs."""
        if self.returncode is not None:
            return self.returncode
        try:
            chunk = b"" if b"\n" in self.buffer else self.connection.recv(4096)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            chunk = b""
        if chunk or b"\n" in self.buffer:
            self.buffer += chunk
            if b"\n" in self.buffer:
                report = json.loads(self.buffer.split(b"\n", 1)[0])
                self.cpu_seconds = float(report.get("cpu", 0.0))
                self._ended(int(report["status"]))
            return self.returncode
        # The parent went away before the bot ended: the bot dies with it (PR_SET_PDEATHSIG).
        self.parent_lost = True
        LOST_PARENTS.append(f"the warm parent of bot process {self.pid} ended mid-match")
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._ended(-signal.SIGKILL)
        return self.returncode

    def _ended(self, code: int) -> None:
        self.returncode = code
        self.connection.close()

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            select.select([self.connection], [], [], 0.5 if remaining is None else min(remaining, 0.5))
        return self.returncode  # type: ignore[return-value]


def spawn_warm(
    pool_address: str,
    command: Sequence[str],
    cwd: str | None,
    identity: str,
    slot: int,
    environment: Mapping[str, str],
    stdout_fd: int,
    stderr_fd: int,
) -> WarmChild | None:
    """Fork the bot from its warm parent (asking the pool for it); None if it cannot be started warm."""
    if warm_target(command) is None:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as ask:
            ask.settimeout(READY_SECONDS + ASK_SECONDS)
            ask.connect(pool_address)
            ask.sendall(json.dumps({"command": list(command), "cwd": cwd, "identity": identity, "slot": slot}).encode() + b"\n")
            answer = json.loads(_read_line(ask)[0])
        if "socket" not in answer:
            return None
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.settimeout(ASK_SECONDS)
            connection.connect(answer["socket"])
            request = json.dumps({"env": dict(environment), "cwd": cwd}).encode() + b"\n"
            descriptors = array.array("i", (stdout_fd, stderr_fd)).tobytes()
            connection.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, descriptors)])
            line, rest = _read_line(connection)
            reply = json.loads(line)
            if "pid" not in reply:
                connection.close()
                return None
        except BaseException:
            connection.close()
            raise
        child = WarmChild(int(reply["pid"]), connection, str(answer["socket"]))
        child.buffer = rest
        return child
    except (OSError, ValueError, ConnectionError) as error:
        log.debug("bot %s not started warm: %s", identity, error)
        return None
