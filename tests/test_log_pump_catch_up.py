"""A bot's output is cut at a decision once the referee's log pump has copied what the bot had written by then,
however late the pump's thread gets to it (`LogPump.caught_up`), and a bot that never stops writing cannot hold
the match there."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

from referee.bot_logs import LogPump


class _SlowFile:
    """A log file whose writes take a while, as on a machine busy with other work."""

    def __init__(self, file: Any, seconds: float) -> None:  # noqa: ANN401 - a binary file
        self.file = file
        self.seconds = seconds

    def write(self, data: bytes) -> int:
        time.sleep(self.seconds)
        return int(self.file.write(data))

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def test_what_was_written_before_the_cut_is_in_the_file_once_caught_up(tmp_path: Path) -> None:
    pump = LogPump(tmp_path / "stdout.log", cap_bytes=None)
    pump._file = _SlowFile(pump._file, 0.05)  # type: ignore[assignment]
    try:
        os.write(pump.fileno(), b"printed at decision 1\n")
        assert pump.caught_up(2.0)
        assert (tmp_path / "stdout.log").read_bytes() == b"printed at decision 1\n"
        assert pump.caught_up(2.0), "nothing new: caught up at once"
    finally:
        pump.started()
        pump.settle()


def test_a_bot_that_never_stops_writing_does_not_hold_the_cut(tmp_path: Path) -> None:
    pump = LogPump(tmp_path / "stdout.log", cap_bytes=None)
    writing = True

    def flood() -> None:
        while writing:
            os.write(pump.fileno(), b"x" * 4096)

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    try:
        time.sleep(0.05)
        began = time.monotonic()
        pump.caught_up(5.0)
        assert time.monotonic() - began < 2.0
    finally:
        writing = False
        writer.join(5)
        pump.started()
        pump.settle()


def test_a_pump_whose_pipe_has_ended_is_caught_up(tmp_path: Path) -> None:
    pump = LogPump(tmp_path / "stderr.log", cap_bytes=8)
    os.write(pump.fileno(), b"0123456789abcdef")  # past the cap: the pump stops and closes its end
    pump.started()
    pump.settle()
    assert pump.flooded and pump.caught_up(0.01)
