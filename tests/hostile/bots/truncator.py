"""Floods its stdout and stderr, then truncates them so that the flood leaves no trace; plays on."""

import os
import sys

from hostile import play, say

CHUNK = b"z" * 65536 + b"\n"


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count == 2:
        say("truncator: writing past the cap, then truncating my logs")
        for fd in (1, 2):
            for _ in range(100):
                try:
                    os.write(fd, CHUNK)
                except OSError:
                    break
            try:
                os.ftruncate(fd, 0)
                say(f"truncated fd {fd}")
            except OSError as error:
                say(f"could not truncate fd {fd}: {error}")
    return False


play(turn)
