"""Ignores SIGXCPU and spins, so the kernel kills it with SIGKILL one second after its CPU cap, without a word."""

import signal

from hostile import play

signal.signal(signal.SIGXCPU, signal.SIG_IGN)


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    while True:
        pass


play(turn)
