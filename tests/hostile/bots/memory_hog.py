"""Allocates (and touches) memory until something stops it."""

from hostile import play, say

hoard = []


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    say("memory hog: allocating")
    while True:
        hoard.append(bytearray(8 * 1024 * 1024))


play(turn)
