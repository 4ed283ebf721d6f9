"""Answers another seat's request instead of its own."""

from hostile import play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    other = request.request_id - 1 if request.request_id > 1 else request.request_id + 1
    say(f"other request: answering request {other} instead of {request.request_id}")
    stream.answer(other, request.options[0].id)
    return True


play(turn)
