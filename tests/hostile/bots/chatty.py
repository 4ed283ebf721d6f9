"""Floods stdout but survives its cap: writes past it fail and it plays on."""

import sys

from hostile import play, say

CHUNK = "y" * 65536 + "\n"


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count == 2:
        say("chatty: writing past the cap, ignoring the errors")
        for _ in range(100):
            try:
                sys.stdout.write(CHUNK)
                sys.stdout.flush()
            except OSError:
                pass
    return False


play(turn)
