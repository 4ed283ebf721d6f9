"""Bare grpcio peers for the round-trip benchmark: no SDK, no referee layers, the same bytes as a real decision.

    python -m benchmarks.grpc_peer ADDRESS TOKEN   # a bot: answers every request with its first option

The bot parses each request and builds its answer (as any bot must); the baseline server sends the
serialized request a real referee sends and reads the answer, on one grpc.aio stream, nothing else.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import Any

import grpc

import b99.arena_pb2 as arena_pb2

METHOD = "/b99.arena.Arena/Play"
TOKEN_METADATA = "b99-seat-token"


async def bot(address: str, token: str) -> None:
    """Say hello, then answer every request with its first option until the stream ends."""
    async with grpc.aio.insecure_channel(address) as channel:
        play = channel.stream_stream(METHOD, request_serializer=lambda raw: raw, response_deserializer=lambda raw: raw)
        call = play(metadata=((TOKEN_METADATA, token),))
        await call.write(arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token=token, protocol_version=1)).SerializeToString())
        while True:
            raw = await call.read()
            if raw is grpc.aio.EOF:
                return
            message = arena_pb2.RefereeMessage.FromString(raw)
            if message.WhichOneof("body") != "decision_request":
                continue
            request = message.decision_request
            answer = arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request.request_id, option_id=request.options[0].id))
            await call.write(answer.SerializeToString())


async def server(address: str, count: int, request: arena_pb2.DecisionRequest, start_bot: Any) -> list[float]:  # noqa: ANN401
    """Serve one stream (the bot `start_bot()` launches once the server is up); send `count` requests
    one at a time and time each until its answer is read."""
    done: asyncio.Future[list[float]] = asyncio.get_running_loop().create_future()

    async def handle(_: Any, context: grpc.aio.ServicerContext) -> None:  # noqa: ANN401
        await context.read()  # the hello
        timings = []
        for index in range(count):
            request.request_id = index + 1
            began = time.perf_counter()
            await context.write(arena_pb2.RefereeMessage(decision_request=request))
            arena_pb2.BotMessage.FromString(await context.read())
            timings.append(time.perf_counter() - began)
        done.set_result(timings)

    grpc_server = grpc.aio.server()
    handler = grpc.stream_stream_rpc_method_handler(
        handle, request_deserializer=lambda raw: raw, response_serializer=arena_pb2.RefereeMessage.SerializeToString
    )
    grpc_server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("b99.arena.Arena", {"Play": handler}),))
    grpc_server.add_insecure_port(address)
    await grpc_server.start()
    stop_bot = start_bot()
    try:
        return await done
    finally:
        await grpc_server.stop(0.5)
        stop_bot()


if __name__ == "__main__":
    # ADDRESS TOKEN, or dialled like any bot: $B99_ARENA_ADDRESS and $B99_SEAT_TOKEN
    asyncio.run(bot(*(sys.argv[1:3] or (os.environ["B99_ARENA_ADDRESS"], os.environ["B99_SEAT_TOKEN"]))))
