"""A warm parent for Python bot processes: an interpreter that has imported grpc, protobuf and the SDK
once, and forks one child per seat, so a match does not pay an interpreter's start-up for every bot.

    python -m sdk.warm --listen-fd FD --parent PID -- -m bots random
    python -m sdk.warm --listen-fd FD --parent PID -- bot.py

The referee's side (referee.warm) owns the listening socket and this process. Each connection asks
for one child: a JSON line (the child's whole environment and working directory) with its stdout and
stderr as descriptors; the answer is the child's pid, and, on the same connection once the child is
reaped, its exit status and CPU time. The child then runs the bot's module or script as `__main__`,
exactly as `python -m ...`/`python bot.py` would, and dials its seat like any fresh bot.

This process never creates a gRPC channel, server or thread before forking (it checks it has one
thread, or refuses to start), and its children die with it (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import argparse
import array
import atexit
import ctypes
import io
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import threading
import traceback
from pathlib import Path

#: What every warm parent imports before forking: the transport and the SDK's run loop.
PRELOAD = ("grpc", "google.protobuf", "b99.arena_pb2", "b99.arena_pb2_grpc", "sdk.run", "sdk.bot", "sdk.decode", "random")
#: Packages of this project's own reference bots: safe to import whole in the parent (no code runs at import).
TRUSTED_PACKAGES = {"bots": ("bots.registry", "bots.__main__")}
#: Exit code of a warm parent that cannot serve (a thread started by an import, a bad command).
EXIT_NOT_WARM = 78
MAX_REQUEST = 1 << 20
PR_SET_PDEATHSIG = 1


class NotWarm(RuntimeError):
    """This bot cannot be started from a warm parent (the referee launches it cold instead)."""


def preload(target: list[str]) -> None:
    """Import what every child needs, and the reference bots' own package; never a user's code."""
    import importlib

    import pkgutil

    for name in PRELOAD:
        importlib.import_module(name)
    games = importlib.import_module("b99.games")
    for module in pkgutil.iter_modules(games.__path__):  # every game's messages: the SDK decodes views with them
        if module.name.endswith("_pb2"):
            importlib.import_module(f"b99.games.{module.name}")
    if target[:1] == ["-m"] and len(target) > 1:
        package = target[1].split(".")[0]
        for name in TRUSTED_PACKAGES.get(package, ()):
            importlib.import_module(name)
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else threading.active_count()
    if threads != 1 or threading.active_count() != 1:
        raise NotWarm(f"{threads} threads after the imports: forking would copy them half-alive")


def _die_with(parent: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(EXIT_NOT_WARM)


def _receive(connection: socket.socket) -> tuple[dict[str, object], list[int]]:
    """One request: a JSON line and the descriptors sent with it (stdout, stderr)."""
    fds = array.array("i")
    data = b""
    while not data.endswith(b"\n"):
        chunk, ancillary, _, _ = connection.recvmsg(65536, socket.CMSG_SPACE(4 * fds.itemsize))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        if not chunk or len(data) > MAX_REQUEST:
            for fd in fds:
                os.close(fd)
            raise ConnectionError("request cut short")
        data += chunk
    return json.loads(data), list(fds)


class WarmParent:
    """The fork loop: accept a request, fork a child for it, report each child's end on its connection."""

    def __init__(self, listener: socket.socket, parent: int, target: list[str]) -> None:
        self.listener = listener
        self.parent = parent
        self.target = target
        self.own_pid = os.getpid()
        self.children: dict[int, socket.socket] = {}
        self.draining = False
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_write, False)
        os.set_blocking(self.wake_read, False)

    def serve(self) -> None:
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        # SIGTERM: stop taking requests and leave once the children running now have ended.
        signal.signal(signal.SIGTERM, lambda *_: self._drain())
        selector = selectors.DefaultSelector()
        selector.register(self.listener, selectors.EVENT_READ)
        selector.register(self.wake_read, selectors.EVENT_READ)
        while not (self.draining and not self.children):
            if os.getppid() != self.parent:
                os._exit(0)
            for key, _ in selector.select(1.0):
                if key.fileobj is self.listener and not self.draining:
                    self._accept()
            try:
                while os.read(self.wake_read, 512):
                    pass
            except BlockingIOError:
                pass
            self._reap()
            if self.draining and self.listener.fileno() >= 0:
                selector.unregister(self.listener)
                self.listener.close()

    def _drain(self) -> None:
        self.draining = True

    def _accept(self) -> None:
        try:
            connection, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        fds: list[int] = []
        try:
            connection.settimeout(5.0)
            request, fds = _receive(connection)
            if len(fds) != 2:
                raise ConnectionError(f"{len(fds)} descriptors, not 2 (stdout, stderr)")
            pid = os.fork()
            if pid == 0:
                self._become_bot(request, fds, connection)
            self.children[pid] = connection
            connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        except (OSError, ValueError, ConnectionError) as error:
            try:
                connection.sendall(json.dumps({"error": str(error)}).encode() + b"\n")
            except OSError:
                pass
            if connection not in self.children.values():
                connection.close()
        finally:
            for fd in fds:
                os.close(fd)

    def _reap(self) -> None:
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            connection = self.children.pop(pid, None)
            if connection is None:
                continue
            report = {"status": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime}
            try:
                connection.sendall(json.dumps(report).encode() + b"\n")
            except OSError:
                pass
            connection.close()

    def _become_bot(self, request: dict[str, object], fds: list[int], connection: socket.socket) -> None:
        """In the child: become the bot process a fresh `python ...` would have been. Never returns."""
        code = 1
        try:
            os.setsid()
            _die_with(self.own_pid)
            signal.set_wakeup_fd(-1)
            for number in (signal.SIGCHLD, signal.SIGTERM):
                signal.signal(number, signal.SIG_DFL)
            stdout, stderr = fds
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(stdout, 1)
            os.dup2(stderr, 2)
            os.closerange(3, 1 << 16)  # nothing of the parent's (its socket, other children's connections) stays open
            environment = {str(key): str(value) for key, value in dict(request.get("env") or {}).items()}
            os.environ.clear()
            os.environ.update(environment)
            cwd = request.get("cwd")
            if cwd:
                os.chdir(str(cwd))
            unbuffered = bool(environment.get("PYTHONUNBUFFERED"))
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", line_buffering=True,
                                          write_through=unbuffered)
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                          line_buffering=True, write_through=True)
            sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
            code = run_target(self.target)
        except SystemExit as stop:
            code = exit_code_of(stop)
        except BaseException:  # noqa: BLE001 - the bot's own crash: its traceback on its stderr, as a fresh process
            traceback.print_exc()
            code = 1
        finally:
            os._exit(finish(code))


def run_target(target: list[str]) -> int:
    """Run the bot's module (`-m name args`) or script (`path args`) as __main__; its exit code."""
    try:
        if target[0] == "-m":
            sys.argv = [target[1], *target[2:]]
            runpy.run_module(target[1], run_name="__main__", alter_sys=True)
        else:
            script = os.path.abspath(target[0])
            sys.argv = [target[0], *target[1:]]
            sys.path[0] = os.path.dirname(script)
            runpy.run_path(script, run_name="__main__")
    except SystemExit as stop:
        return exit_code_of(stop)
    return 0


def exit_code_of(stop: SystemExit) -> int:
    """What the interpreter makes of `sys.exit(value)`: None 0, an int itself, anything else printed and 1."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def finish(code: int) -> int:
    """An interpreter's own end: wait for non-daemon threads, run atexit handlers, flush the streams."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:  # noqa: BLE001 - a bot's thread that fails at exit must not change its exit code
        pass
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    return code & 0xFF


def parse_target(argv: list[str]) -> list[str]:
    """The bot's arguments after the interpreter: `-m module ...` or `script ...`; NotWarm for anything else."""
    if not argv:
        raise NotWarm("no bot to run")
    if argv[0] == "-m":
        if len(argv) < 2:
            raise NotWarm("-m without a module")
        return argv
    if argv[0].startswith("-") or not Path(argv[0]).suffix == ".py":
        raise NotWarm(f"{argv[0]!r} is not a Python script or -m module")
    return argv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sdk.warm", description=__doc__.splitlines()[0])
    parser.add_argument("--listen-fd", type=int, required=True)
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("target", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    target = args.target[1:] if args.target[:1] == ["--"] else args.target
    _die_with(args.parent)
    listener = socket.socket(fileno=args.listen_fd)
    listener.setblocking(False)
    try:
        target = parse_target(target)
        preload(target)
    except (NotWarm, ImportError) as error:
        print(f"b99 warm parent: not warm: {error}", file=sys.stderr)
        return EXIT_NOT_WARM
    print("ready", flush=True)
    WarmParent(listener, args.parent, target).serve()
    return 0


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main())
