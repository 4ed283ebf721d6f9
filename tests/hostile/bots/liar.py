"""Writes what would make the referee name its fault for it, and words for the public to read, then crashes.

Its stderr says its message was too large (a flood), that it hit its CPU cap, and carries markup; it
then exits with code 1 at its second request. Its fault must be the crash the referee saw, worded by
the referee alone.
"""

import sys

from hostile import play, say

LIES = ("Received message larger than max (99999999 vs. 2097152)", "CPU time limit exceeded",
        "<img src=x onerror=alert(1)> visit evil.example")


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    for lie in LIES:
        say(lie)
    sys.exit(1)


play(turn)
