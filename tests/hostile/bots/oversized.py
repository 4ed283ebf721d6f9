"""Sends a message far larger than the referee accepts."""

from hostile import play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("oversized: sending a 1 MiB answer")
    stream.answer(request.request_id, "x" * (1024 * 1024))
    return True


play(turn)
