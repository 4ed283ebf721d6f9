"""A bot process that writes every message it receives, byte for byte, and always takes the first option.

`python -m tests.bots.recorder PATH`: one line per RefereeMessage, its serialized bytes in hex.
"""

from __future__ import annotations

import os
import queue
import sys

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc
from sdk.run import token_metadata


def main(path: str) -> None:
    token = os.environ["B99_SEAT_TOKEN"]
    outgoing: queue.Queue[arena_pb2.BotMessage | None] = queue.Queue()
    outgoing.put(arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token=token, bot_name="recorder")))

    def messages():  # type: ignore[no-untyped-def]
        while (item := outgoing.get()) is not None:
            yield item

    channel = grpc.insecure_channel(os.environ["B99_ARENA_ADDRESS"])
    with open(path, "w", encoding="ascii") as log:
        for message in arena_pb2_grpc.ArenaStub(channel).Play(messages(), metadata=token_metadata(token)):
            log.write(message.SerializeToString(deterministic=True).hex() + "\n")
            body = message.WhichOneof("body")
            if body == "decision_request":
                request = message.decision_request
                outgoing.put(arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request.request_id, option_id=request.options[0].id)))
            elif body == "game_over":
                break
    outgoing.put(None)


if __name__ == "__main__":
    main(sys.argv[1])
