"""What every hostile bot shares: dialling the referee and playing random legal options until it turns.

Each bot in this directory is a small program: `python <bot>.py [args]`, started by the referee with
B99_ARENA_ADDRESS and B99_SEAT_TOKEN set. `play(turn)` answers requests; `turn(request, n)` is called
for the n-th request (from 1) and returns True when it has dealt with that request itself.
"""

from __future__ import annotations

import os
import queue
import random
import sys
from collections.abc import Callable, Iterator

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc


def say(text: str) -> None:
    """One line on stderr, for the test to read from the seat's stderr tail."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Stream:
    """The bot's bidirectional stream to the referee."""

    def __init__(self, token: str | None = None, channel: grpc.Channel | None = None, hello: bool = True, metadata: bool = False) -> None:
        """A Play stream; `hello` sends the hello first, `metadata` also puts the token in the call's metadata."""
        self.channel = channel or grpc.insecure_channel(os.environ["B99_ARENA_ADDRESS"])
        self.outgoing: queue.Queue[arena_pb2.BotMessage | None] = queue.Queue()
        token = token or os.environ["B99_SEAT_TOKEN"]
        if hello:
            self.send(arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token=token, bot_name="hostile")))
        call_metadata = (("b99-seat-token", token),) if metadata else None
        self.incoming = arena_pb2_grpc.ArenaStub(self.channel).Play(self._messages(), metadata=call_metadata)

    def _messages(self) -> Iterator[arena_pb2.BotMessage]:
        while True:
            item = self.outgoing.get()
            if item is None:
                return
            yield item

    def send(self, message: arena_pb2.BotMessage) -> None:
        self.outgoing.put(message)

    def answer(self, request_id: int, option_id: str) -> None:
        self.send(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request_id, option_id=option_id)))

    def close(self) -> None:
        self.outgoing.put(None)


def play(turn: Callable[[arena_pb2.DecisionRequest, int, Stream], bool] | None = None, stream: Stream | None = None) -> None:
    """Play the whole game with random legal options, letting `turn` take over any request."""
    stream = stream or Stream()
    rng = random.Random(0)
    count = 0
    for message in stream.incoming:
        body = message.WhichOneof("body")
        if body == "game_over":
            break
        if body == "error":
            say(f"referee error: {arena_pb2.ErrorCode.Name(message.error.code)}: {message.error.message}")
        if body != "decision_request":
            continue
        request = message.decision_request
        count += 1
        if turn is not None and turn(request, count, stream):
            continue
        stream.answer(request.request_id, request.options[rng.randrange(len(request.options))].id)
    stream.close()
