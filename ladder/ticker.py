"""A background thread that does one small database job every few seconds while a match runs.

The worker's heartbeat (ladder/execute.py) and its live replay publisher (ladder/live.py) are both
this: a failed tick (the database away for a moment) is logged once per streak and tried again at
the next tick, never raised into the match.
"""

from __future__ import annotations

import logging
import threading
from typing import Self

log = logging.getLogger(__name__)


class Ticker:
    """Calls `tick()` every `interval` seconds in a daemon thread, from `with` entry to exit; stops early when it returns False."""

    #: What the log calls a failed tick ("heartbeat", "live replay").
    what = "tick"

    def __init__(self, name: str, interval: float) -> None:
        self.interval = interval
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name=name, daemon=True)

    def tick(self) -> bool:
        """One round of the job; False ends the thread."""
        raise NotImplementedError

    def describe(self) -> str:
        """Who the log lines are about."""
        return self.thread.name

    def run(self) -> None:
        failing = False
        while not self.stop.wait(self.interval):
            try:
                if not self.tick():
                    return
                failing = False
            except Exception as error:  # noqa: BLE001 - a database hiccup must not kill the match; the next tick tries again
                if not failing:
                    first_line = str(error).splitlines()[0] if str(error) else ""
                    log.warning("%s: %s failed (%s: %s); trying again", self.describe(), self.what, type(error).__name__, first_line)
                failing = True

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()
