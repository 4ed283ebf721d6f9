"""Spins on the CPU forever instead of answering."""

from hostile import play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("spinner: spinning")
    while True:
        pass


play(turn)
