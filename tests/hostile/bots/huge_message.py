"""Sends one 100 MB answer to its second request (far above what the transport accepts)."""

from hostile import play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("huge message: sending a 100 MB answer")
    stream.answer(request.request_id, "x" * (100 * 1024 * 1024))
    return True


play(turn)
