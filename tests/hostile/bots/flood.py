"""Floods stdout and stderr with output."""

import sys

from hostile import play, say

CHUNK = "x" * 65536 + "\n"


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("flood: writing")
    while True:
        sys.stdout.write(CHUNK)
        sys.stderr.write(CHUNK)


play(turn)
