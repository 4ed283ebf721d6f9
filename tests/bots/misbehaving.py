"""A bot process that misbehaves on purpose after a few good answers: `python -m tests.bots.misbehaving MODE`.

Modes: crash (exit 3 mid-game), hang (stop answering), illegal (name an option that does not exist),
stale (answer the current request with an old request id), early (answer before being asked),
garbage (send a decision with no option), crash_first (exit 3 at its first request), good (play
random legal options), late (answer one request LATE_SECONDS after it came, then play on),
illegal_listening (like illegal, but it ignores SIGTERM and keeps reading, so it hears why it was
replaced), linger (plays well, then ignores game over and SIGTERM and sleeps, writing to stderr the
wall time of each). Every error the referee sends is written to stderr ("referee error: CODE: text").
"""

from __future__ import annotations

import os
import queue
import random
import signal
import sys
import time

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc

GOOD_ANSWERS = 2
#: How long the late bot takes over its one late answer (past a one-second limit).
LATE_SECONDS = 1.6


def main(mode: str) -> None:
    channel = grpc.insecure_channel(os.environ["B99_ARENA_ADDRESS"])
    stub = arena_pb2_grpc.ArenaStub(channel)
    outgoing: queue.Queue[arena_pb2.BotMessage | None] = queue.Queue()
    outgoing.put(arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token=os.environ["B99_SEAT_TOKEN"], bot_name=mode)))

    def messages():  # type: ignore[no-untyped-def]
        while True:
            item = outgoing.get()
            if item is None:
                return
            yield item

    if mode == "illegal_listening":
        signal.signal(signal.SIGTERM, lambda *_: None)
    rng = random.Random(0)
    answered = 0
    previous_id = 0
    for message in stub.Play(messages()):
        body = message.WhichOneof("body")
        if body == "error":
            sys.stderr.write(f"referee error: {arena_pb2.ErrorCode.Name(message.error.code)}: {message.error.message}\n")
            sys.stderr.flush()
        if body == "game_start" and mode == "early":
            outgoing.put(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=999, option_id="x")))
        if body == "game_over":
            if mode == "linger":
                linger()
            break
        if body != "decision_request":
            continue
        request = message.decision_request
        if mode == "crash_first":
            sys.stderr.write("misbehaving bot: crashing at the first request\n")
            sys.stderr.flush()
            os._exit(3)
        if answered >= GOOD_ANSWERS:
            if mode == "crash":
                sys.stderr.write("misbehaving bot: crashing on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode == "late" and answered == GOOD_ANSWERS:
                time.sleep(LATE_SECONDS)
            if mode in ("illegal", "illegal_listening"):
                outgoing.put(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request.request_id, option_id="no-such-option")))
                continue
            if mode == "stale":
                outgoing.put(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=previous_id, option_id=request.options[0].id)))
                continue
            if mode == "garbage":
                outgoing.put(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request.request_id)))
                continue
        option = request.options[rng.randrange(len(request.options))]
        outgoing.put(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request.request_id, option_id=option.id)))
        previous_id = request.request_id
        answered += 1
    outgoing.put(None)


def linger() -> None:
    """Ignore game over and SIGTERM: only SIGKILL ends this process; stderr says when each came."""
    sys.stderr.write(f"linger: game over at {time.time():.6f} in pid {os.getpid()}\n")
    sys.stderr.flush()

    def on_term(*_: object) -> None:
        sys.stderr.write(f"linger: SIGTERM at {time.time():.6f}, ignored\n")
        sys.stderr.flush()

    signal.signal(signal.SIGTERM, on_term)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main(sys.argv[1])
