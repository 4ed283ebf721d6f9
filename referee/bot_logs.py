"""A bot's stdout and stderr: pipes the referee drains into log files it alone holds, counting every byte.

A bot never gets a descriptor of its log file, so it cannot truncate or rewrite what it has written: the
count of bytes it sent is the referee's own, and past the cap the pipe is closed (further writes fail
with EPIPE) and the flood is on record however the bot behaves afterwards.
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import termios
import threading
import time
from pathlib import Path

CHUNK = 65536
#: How often `caught_up` looks whether the pump has copied what it waits for.
CATCH_UP_POLL_SECONDS = 0.0002


class LogPump:
    """One output stream of a bot: the write end goes to the bot, a thread copies the read end to `path`."""

    def __init__(self, path: Path, cap_bytes: int | None) -> None:
        self.path = path
        self.name = str(path)  # where the stream's text can be read back (a file object's `name`)
        self.cap_bytes = cap_bytes
        #: bytes the bot sent, in the file or past the cap (counted under `_lock`, once a chunk is done with)
        self.written = 0
        self.flooded = False
        self._closed = False
        self._lock = threading.Lock()
        self._read, self._write = os.pipe()
        self._file = path.open("wb")
        self._thread = threading.Thread(target=self._drain, name=f"log-{path.name}", daemon=True)
        self._thread.start()

    def fileno(self) -> int:
        """The write end, for the bot's process (subprocess duplicates it into the child)."""
        return self._write

    def started(self) -> None:
        """The child has its copy of the write end: drop ours, so the pipe ends when the bot's processes do."""
        if self._write >= 0:
            os.close(self._write)
            self._write = -1

    def _drain(self) -> None:
        """Copy the pipe to the file until the bot's processes close it (or flood it). The pump waits for data
        outside its lock and reads and copies it inside: `caught_up` then never meets bytes taken from the pipe
        and not yet counted."""
        waiting = select.poll()
        waiting.register(self._read, select.POLLIN)
        try:
            while True:
                waiting.poll()
                with self._lock:
                    try:
                        chunk = os.read(self._read, CHUNK)
                    except OSError:
                        break
                    if not chunk:
                        break
                    room = self.cap_bytes - self.written if self.cap_bytes is not None else len(chunk)
                    if room > 0:
                        self._file.write(chunk[:room])
                        self._file.flush()
                    self.written += len(chunk)
                    if self.cap_bytes is not None and self.written > self.cap_bytes:
                        self.flooded = True
                        break  # closing the read end makes every further write of the bot fail (EPIPE)
        finally:
            with self._lock:
                self._closed = True
                os.close(self._read)
                self._file.close()

    def settle(self, timeout: float = 1.0) -> None:
        """Wait (up to `timeout`) until everything the bot wrote so far is in the file."""
        self.started()
        self._thread.join(timeout)

    def caught_up(self, timeout: float) -> bool:
        """Wait (up to `timeout`) until the file holds every byte the bot had written to the pipe when asked: what a
        bot printed before it answered is then cut with that decision, however busy the machine. Bytes it writes
        meanwhile are not waited for (a bot that never stops writing cannot hold the match). True when caught up."""
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=timeout):
            return False
        try:
            target = self.written + self._unread()
        finally:
            self._lock.release()
        while self.written < target and not self._closed:
            if time.monotonic() >= deadline:
                return False
            time.sleep(CATCH_UP_POLL_SECONDS)
        return True

    def _unread(self) -> int:
        """Bytes waiting in the pipe (0 once the pump has stopped)."""
        if self._closed:
            return 0
        try:
            count: int = struct.unpack("i", fcntl.ioctl(self._read, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return 0
        return count
