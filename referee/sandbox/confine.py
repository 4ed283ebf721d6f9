"""Starting one bot under a sandbox level, and what was in force for it.

strict: bubblewrap namespaces and mounts (no network, read-only system and bot files, a private
capped scratch, own pid/ipc/uts namespaces), then a uid of its own with no capabilities and no new
privileges, rlimits, and cgroup caps where the machine offers them. basic: the uid, the rlimits and
the cgroups only. The bot's first process is held at a gate until its cgroups and rlimits are set,
so not one instruction of the bot runs uncapped.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from referee.errors import BotLaunchError
from referee.sandbox import bubblewrap, cgroups, seccomp, users
from referee.sandbox.reaper import Lease, remove_files_of
from referee.sandbox.binds import (
    SANDBOX_PATH,
    absolute_script,
    bot_paths,
    interpreter_paths,
    private_for_others,
    read_only_paths,
    resolve_executable,
    stage_private,
    unreachable_for_others,
)
from referee.sandbox.limits import MIB, Limits, apply_rlimits
from referee.sandbox.probe import machine_support

GATE_SECONDS = 10.0
NPROC_SLACK = 8
#: The only variables a sandboxed bot inherits, besides the ones the referee sets for it.
BASE_ENVIRONMENT = {"LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}


@dataclass(frozen=True, slots=True)
class SandboxRequest:
    """How to confine one bot: the level, its caps, and the referee's Unix socket (bound in for strict)."""

    level: str
    limits: Limits = field(default_factory=Limits)
    socket_path: str | None = None
    #: The match's record of its bots, so that they are cleaned up even if the referee dies (reaper).
    lease: Lease | None = None


@dataclass
class Confinement:
    """What confines one running bot: its uid, cgroups and the caps in force; cleans up after it."""

    level: str
    limits: Limits
    uid: int | None = None
    groups: cgroups.BotGroups | None = None
    in_force: dict[str, str] = field(default_factory=dict)
    oom_kills: int = 0
    process_cap_hits: int = 0
    cpu_seconds: float | None = None
    cleaned: bool = False

    def report(self) -> dict[str, Any]:
        """For the match report: the level, the uid and every cap in force with what enforces it."""
        return {"level": self.level, "uid": self.uid, **self.in_force}

    def decode_exit(self, code: int | None) -> int | None:
        """The bot's exit status: bubblewrap reports a bot killed by signal N as exit code 128+N."""
        if self.level == "strict" and code is not None and 128 < code < 128 + 65:
            return -(code - 128)
        return code

    def counters(self) -> tuple[int, int]:
        """(processes killed at the memory cap, forks refused at the process cap), read before the groups go."""
        if self.groups is not None and not self.cleaned:
            self.oom_kills = max(self.oom_kills, self.groups.oom_kills())
            self.process_cap_hits = max(self.process_cap_hits, self.groups.process_cap_hits())
            self.cpu_seconds = self.groups.cpu_seconds()
        return self.oom_kills, self.process_cap_hits

    def cleanup(self) -> None:
        """Kill anything left running as the bot's uid or in its cgroups, and remove the cgroups."""
        if self.cleaned:
            return
        self.counters()
        self.cleaned = True
        if self.groups is not None:
            self.groups.destroy()
        setpriv = machine_support().setpriv
        if self.uid is not None and setpriv is not None:
            users.kill_all_of(self.uid, setpriv)
        if self.uid is not None and self.level == "basic":
            # A basic bot shares the host's /tmp, /var/tmp and /dev/shm: what it left there goes with it.
            remove_files_of(self.uid)


def unavailable(level: str) -> str:
    """'' if `level` can run here, else why not."""
    return machine_support().missing.get(level, f"unknown sandbox level {level!r}")


def spawn(
    seat: int,
    command: Sequence[str],
    environment: Mapping[str, str],
    stdout: IO[bytes],
    stderr: IO[bytes],
    cwd: str | None,
    request: SandboxRequest,
    workdir: Path,
) -> tuple[subprocess.Popen[bytes], Confinement]:
    """Start `command` confined at `request.level` (basic or strict); BotLaunchError when that level cannot run here.

    `workdir` is the referee's directory for this seat (its logs); a basic sandbox's scratch goes beside it.
    """
    why = unavailable(request.level)
    if why:
        raise BotLaunchError(f"seat {seat}: sandbox {request.level} is not available on this machine: {why}")
    support = machine_support()
    if support.setpriv is None:
        raise BotLaunchError(f"seat {seat}: setpriv (util-linux) is missing")
    executable = resolve_executable(command[0], cwd)
    if executable is None:
        raise BotLaunchError(f"seat {seat}: bot command {' '.join(command)!r} does not start: {command[0]!r} not found")
    limits = request.limits
    uid = users.allocate_uid()
    confinement = Confinement(request.level, limits, uid)
    confinement.groups = cgroups.BotGroups.create(f"b99-seat{seat}-{uid}", limits.memory_mb * MIB, limits.processes)
    if request.lease is not None:
        request.lease.record_bot(uid, confinement.groups.paths())
    confinement.in_force = _in_force(request.level, limits, confinement.groups, support.bwrap_version)
    env = {**BASE_ENVIRONMENT, "PATH": _path_for(executable), "HOME": bubblewrap.SCRATCH, "TMPDIR": bubblewrap.SCRATCH}
    env.update(environment)
    try:
        if request.level == "strict":
            process, held = _start_strict(
                support.bwrap or "bwrap",
                support.setpriv,
                executable,
                command,
                env,
                stdout,
                stderr,
                cwd,
                request,
                uid,
                confinement.groups,
                workdir / "bot-files",
            )
        else:
            env["HOME"] = env["TMPDIR"] = _basic_scratch(workdir, uid)
            blocked = unreachable_for_others([*interpreter_paths(executable), *([cwd] if cwd else [])])
            if blocked:
                # basic cannot bind: the bot runs, but its own uid cannot read what lies below these.
                confinement.in_force["warning"] = f"not searchable by the bot's uid: {', '.join(blocked)} (strict binds what the bot needs)"
            process, held = _start_basic(support.setpriv, executable, command, env, stdout, stderr, cwd, request, uid, confinement.groups)
    except BotLaunchError as error:
        confinement.cleanup()
        said = _last_line(stderr)
        raise BotLaunchError(f"seat {seat}: {error}" + (f": {said}" if said else "")) from None
    try:
        # The process started above entered the bot's cgroups before it executed anything (entry_command), and
        # everything it starts is born in them; the rlimits go on the process held at the gate.
        # With a pids cgroup (which counts refusals) in force, RLIMIT_NPROC is a backstop just above it.
        backstop = NPROC_SLACK if "pids" in confinement.groups.groups else 0
        apply_rlimits(held.pid, limits.rlimits(processes=limits.processes + backstop))
        held.release()
    except (OSError, BotLaunchError) as error:
        kill_group(process)
        confinement.cleanup()
        said = _last_line(stderr)
        raise BotLaunchError(f"seat {seat}: could not confine the bot: {said or error}") from None
    return process, confinement


def _in_force(level: str, limits: Limits, groups: cgroups.BotGroups, bwrap_version: str) -> dict[str, str]:
    via = groups.in_force()
    memory = f"{limits.memory_mb} MiB ({via['memory']})" if "memory" in via else "not capped (no usable memory cgroup)"
    processes = f"{limits.processes} (RLIMIT_NPROC of the bot's uid" + (f", {via['pids']})" if "pids" in via else ")")
    force = {
        "isolation": (
            f"{bwrap_version or 'bubblewrap'}: no network, own pid/ipc/uts/mount namespaces, read-only system and bot files"
            if level == "strict"
            else "none (basic: same network, file system and process view as the referee)"
        ),
        **({"syscalls": seccomp.describe()} if level == "strict" else {}),
        "user": "a uid of its own, no groups, no capabilities, no new privileges",
        "memory": memory,
        "address_space": f"{limits.address_space_mb} MiB (RLIMIT_AS)",
        "cpu": (
            f"{limits.cpu_seconds} s for all its processes together (cgroup) and per process (RLIMIT_CPU)"
            if groups.cpu_seconds() is not None
            else f"{limits.cpu_seconds} s per process (RLIMIT_CPU; no cgroup counts CPU here)"
        ),
        "processes": processes,
        "open_files": f"{limits.open_files} (RLIMIT_NOFILE)",
        "file_size": f"{limits.file_mb} MiB (RLIMIT_FSIZE; also caps stdout and stderr logs)",
        "scratch": (
            f"{bubblewrap.SCRATCH}, a {limits.scratch_mb} MiB tmpfs of its own" if level == "strict" else "a private directory, files capped by RLIMIT_FSIZE"
        ),
        "environment": "scrubbed (PATH, HOME, TMPDIR, LANG and the referee's variables only)",
    }
    return force


def _path_for(executable: str) -> str:
    directory = os.path.dirname(executable)
    return SANDBOX_PATH if directory in SANDBOX_PATH.split(":") else f"{directory}:{SANDBOX_PATH}"


@dataclass
class _Held:
    """A started process waiting at its gate: the pid that will become the bot (or start it) and the gate's pipe."""

    pid: int
    gate: int

    def release(self) -> None:
        os.write(self.gate, b"\n")
        os.close(self.gate)


def _start_strict(
    bwrap: str,
    setpriv: str,
    executable: str,
    command: Sequence[str],
    env: dict[str, str],
    stdout: IO[bytes],
    stderr: IO[bytes],
    cwd: str | None,
    request: SandboxRequest,
    uid: int,
    groups: cgroups.BotGroups,
    staging: Path,
) -> tuple[subprocess.Popen[bytes], _Held]:
    read_only = read_only_paths(executable, command, cwd)
    staged = {}
    for path in bot_paths(command, cwd):
        try:
            if private_for_others(path):
                staged[path] = stage_private(path, staging)
        except OSError as error:
            raise BotLaunchError(str(error)) from None
    info_read, info_write = os.pipe()
    block_read, block_write = os.pipe()
    try:
        filter_fd = seccomp.filter_fd()
    except seccomp.SeccompUnavailable as error:
        for fd in (info_read, info_write, block_read, block_write):
            os.close(fd)
        raise BotLaunchError(str(error)) from None
    argv = groups.entry_command() + bubblewrap.strict_command(
        bwrap,
        setpriv,
        [executable, *absolute_script(command, cwd)[1:]],
        uid,
        read_only,
        cwd or bubblewrap.SCRATCH,
        request.limits.scratch_mb * MIB,
        request.socket_path,
        info_write,
        block_read,
        filter_fd,
        staged,
    )
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            env=env,
            pass_fds=(info_write, block_read, filter_fd),
            start_new_session=True,
        )
    except (OSError, ValueError) as error:
        for fd in (info_read, info_write, block_read, block_write, filter_fd):
            os.close(fd)
        raise BotLaunchError(f"bubblewrap does not start: {error}") from None
    os.close(info_write)
    os.close(block_read)
    os.close(filter_fd)
    try:
        info = _read_info(info_read, process)
    except BotLaunchError:
        os.close(block_write)
        kill_group(process)
        raise
    finally:
        os.close(info_read)
    return process, _Held(int(info["child-pid"]), block_write)


def _read_info(fd: int, process: subprocess.Popen[bytes]) -> dict[str, Any]:
    """bubblewrap's report of the sandbox it made (the host pid of the process that will run the bot)."""
    data = b""
    deadline = time.monotonic() + GATE_SECONDS
    while True:
        try:
            return dict(json.loads(data))
        except ValueError:
            pass
        remaining = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(0.0, remaining))
        chunk = os.read(fd, 4096) if ready else b""
        if not chunk:
            code = process.poll() if ready else None
            raise BotLaunchError(
                "bubblewrap failed to make the sandbox" + (f" (exit code {code}; see the bot's stderr)" if code is not None else " in time")
            )
        data += chunk


def _basic_scratch(seat_dir: Path, uid: int) -> str:
    """A private directory owned by the bot's uid beside its logs (which it cannot read)."""
    scratch = seat_dir.parent / f"{seat_dir.name}-scratch"
    scratch.mkdir(mode=0o700, exist_ok=True)
    os.chown(scratch, uid, uid)
    os.chmod(seat_dir, 0o700)
    # The bot must reach the referee's socket beside it; the match directory is searchable, not listable.
    os.chmod(seat_dir.parent, 0o711)
    return str(scratch)


def _start_basic(
    setpriv: str,
    executable: str,
    command: Sequence[str],
    env: dict[str, str],
    stdout: IO[bytes],
    stderr: IO[bytes],
    cwd: str | None,
    request: SandboxRequest,
    uid: int,
    groups: cgroups.BotGroups,
) -> tuple[subprocess.Popen[bytes], _Held]:
    gate_read, gate_write = os.pipe()
    # One shell enters the bot's cgroups, then waits at the gate.
    argv = [
        "/bin/sh",
        "-c",
        cgroups.ENTRY_MOVES + 'read -r _ && exec "$@" </dev/null',
        "b99-gate",
        *groups.entry_files(),
        "--",
        *bubblewrap.drop_privileges(setpriv, uid),
        executable,
        *command[1:],
    ]
    try:
        process = subprocess.Popen(argv, stdin=gate_read, stdout=stdout, stderr=stderr, env=env, cwd=cwd, start_new_session=True)
    except (OSError, ValueError) as error:
        os.close(gate_write)
        raise BotLaunchError(f"the bot does not start: {error}") from None
    finally:
        os.close(gate_read)
    return process, _Held(process.pid, gate_write)


def _last_line(stream: IO[bytes]) -> str:
    """The last line the sandbox wrote to the bot's stderr (bubblewrap explains its failures there)."""
    settle = getattr(stream, "settle", None)
    if settle is not None:
        settle(1.0)  # the referee drains the bot's output through a pipe: let it catch up
    try:
        lines = Path(stream.name).read_text(errors="replace").strip().splitlines()
    except (OSError, TypeError):
        return ""
    return lines[-1] if lines else ""


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group `process` leads (started with start_new_session) and reap its leader."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        pass
