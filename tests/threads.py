"""Threads run so that they switch as often as the interpreter allows: races between them show up in a test."""

from __future__ import annotations

import sys
import threading


def run_switching_often(threads: list[threading.Thread]) -> None:
    """Start `threads` and wait for them, the interpreter's switch interval at its smallest meanwhile (where the code
    under test runs as Python, threads then switch between nearly any two of its steps)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
