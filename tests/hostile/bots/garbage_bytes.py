"""Sends bytes on the stream that are no protobuf message at all."""

import os

import grpc

from hostile import say

channel = grpc.insecure_channel(os.environ["B99_ARENA_ADDRESS"])
play = channel.stream_stream("/b99.arena.Arena/Play", request_serializer=lambda raw: raw, response_deserializer=lambda raw: raw)
hello = __import__("b99.arena_pb2", fromlist=["BotMessage"])
first = hello.BotMessage(hello=hello.Hello(seat_token=os.environ["B99_SEAT_TOKEN"], bot_name="garbage")).SerializeToString()
say("garbage bytes: sending")


def messages():  # type: ignore[no-untyped-def]
    yield first
    yield b"\xff\xfe\x00garbage\x87\x99" * 64
    import time

    time.sleep(30)


try:
    for reply in play(messages()):
        pass
except grpc.RpcError as error:
    say(f"garbage bytes: stream ended: {error.code().name}")
