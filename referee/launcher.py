"""Starting a bot process for one seat: its command, environment, scratch directory and logs."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import BotLaunchError

LOG_TAIL_BYTES = 4096


@dataclass
class BotProcess:
    """A running bot process with its captured output."""

    seat: int
    process: subprocess.Popen[bytes]
    workdir: Path
    stdout_path: Path
    stderr_path: Path
    notes: list[str] = field(default_factory=list)

    def exit_code(self) -> int | None:
        """The exit code (negative = killed by that signal), or None while it runs."""
        return self.process.poll()

    def wait(self, timeout: float) -> int | None:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

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
        return self.process.poll()

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


def launch(
    seat: int,
    command: Sequence[str],
    environment: Mapping[str, str],
    workdir: Path,
    cwd: str | None = None,
) -> BotProcess:
    """Start `command` in its own process group with `environment` added; output goes to workdir logs."""
    workdir.mkdir(parents=True, exist_ok=True)
    stdout_path = workdir / "stdout.log"
    stderr_path = workdir / "stderr.log"
    env = dict(os.environ)
    env.update(environment)
    try:
        with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
            process = subprocess.Popen(
                list(command),
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                env=env,
                cwd=cwd,
                start_new_session=True,
            )
    except (OSError, ValueError) as error:
        raise BotLaunchError(f"seat {seat}: bot command {' '.join(command)!r} does not start: {error}") from None
    return BotProcess(seat, process, workdir, stdout_path, stderr_path)
