"""Exits while a decision is pending."""

import os

from hostile import play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("exit mid decision: leaving")
    os._exit(0)


play(turn)
