"""The referee's gRPC Arena service: bots dial in, prove their seat with a token, and exchange messages.

The servicer only moves messages between a stream and its seat's queues; the match runner owns
all game logic and decides what every message means.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc

MAX_MESSAGE_BYTES = 256 * 1024
#: What the transport accepts: above MAX_MESSAGE_BYTES, so an oversized message is seen and reported, not just dropped.
TRANSPORT_MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Rejected:
    """A message from a bot that is not one: bytes that do not parse, or more of them than allowed."""

    reason: str


def read_bot_message(raw: bytes) -> arena_pb2.BotMessage | Rejected:
    """Parse a bot's message; never raises, so a bad message becomes a reported protocol error."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return Rejected(f"sent a {len(raw):,}-byte message; the limit is {MAX_MESSAGE_BYTES:,} bytes")
    try:
        return arena_pb2.BotMessage.FromString(raw)
    except Exception:  # noqa: BLE001 - protobuf raises DecodeError and others on garbage
        return Rejected(f"sent {len(raw):,} bytes that are not a BotMessage")


@dataclass(frozen=True, slots=True)
class Inbound:
    """Something that arrived for a seat: a message, or the end of its stream (message None)."""

    message: arena_pb2.BotMessage | None
    received_at: float
    reason: str = ""


@dataclass
class SeatLine:
    """The two queues between one seat's stream and the runner."""

    seat: int
    token: str
    inbox: queue.Queue[Inbound] = field(default_factory=queue.Queue)
    outbox: queue.Queue[arena_pb2.RefereeMessage | None] = field(default_factory=queue.Queue)
    connected: threading.Event = field(default_factory=threading.Event)
    hello: arena_pb2.Hello | None = None

    def send(self, message: arena_pb2.RefereeMessage) -> None:
        self.outbox.put(message)

    def hang_up(self) -> None:
        self.outbox.put(None)


class SeatDirectory:
    """Seat tokens of the matches being served; each token can be claimed by one stream only."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: dict[str, SeatLine] = {}
        self._claimed: set[str] = set()

    def add(self, line: SeatLine) -> None:
        with self._lock:
            self._lines[line.token] = line

    def remove(self, token: str) -> None:
        with self._lock:
            self._lines.pop(token, None)
            self._claimed.discard(token)

    def claim(self, token: str) -> SeatLine | None:
        with self._lock:
            line = self._lines.get(token)
            if line is None or token in self._claimed:
                return None
            self._claimed.add(token)
            return line


def _error(code: int, text: str, request_id: int = 0) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(error=arena_pb2.Error(code=code, message=text, request_id=request_id))


class ArenaServicer(arena_pb2_grpc.ArenaServicer):
    """Implements Arena.Play: hello first, then a reader thread feeds the inbox while we drain the outbox."""

    def __init__(self, directory: SeatDirectory) -> None:
        self.directory = directory

    def Play(self, request_iterator: Iterator[arena_pb2.BotMessage], context: grpc.ServicerContext) -> Iterator[arena_pb2.RefereeMessage]:
        try:
            first = next(request_iterator)
        except (StopIteration, grpc.RpcError):
            return
        if isinstance(first, Rejected) or first.WhichOneof("body") != "hello":
            yield _error(arena_pb2.PROTOCOL_ERROR, "the first message of a stream must be hello")
            return
        line = self.directory.claim(first.hello.seat_token)
        if line is None:
            yield _error(arena_pb2.UNKNOWN_TOKEN, "this seat token names no seat waiting for its bot")
            return
        line.hello = first.hello
        context.add_callback(lambda: line.inbox.put(Inbound(None, time.monotonic(), "stream closed")))
        reader = threading.Thread(target=self._read, args=(request_iterator, line), daemon=True)
        reader.start()
        line.connected.set()
        while True:
            message = line.outbox.get()
            if message is None:
                return
            yield message

    @staticmethod
    def _read(request_iterator: Iterator[arena_pb2.BotMessage], line: SeatLine) -> None:
        reason = "stream ended by the bot"
        try:
            for message in request_iterator:
                if isinstance(message, Rejected):
                    reason = f"protocol violation: {message.reason}"
                    break
                line.inbox.put(Inbound(message, time.monotonic()))
        except grpc.RpcError as error:
            reason = f"stream broken: {error.code().name if hasattr(error, 'code') else error}"
        except Exception as error:  # noqa: BLE001 - a bad stream must never reach the runner as an exception
            reason = f"stream broken: {error}"
        line.inbox.put(Inbound(None, time.monotonic(), reason))


class ArenaServer:
    """A gRPC server for the Arena service on a Unix socket or a loopback TCP port."""

    def __init__(self, address: str, max_workers: int = 16, options: list[tuple[str, Any]] | None = None) -> None:
        self.directory = SeatDirectory()
        self.server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="arena"),
            options=[
                ("grpc.max_receive_message_length", TRANSPORT_MAX_BYTES),
                ("grpc.max_send_message_length", 16 * 1024 * 1024),
                ("grpc.so_reuseport", 0),
            ]
            + (options or []),
        )
        servicer = ArenaServicer(self.directory)
        play = grpc.stream_stream_rpc_method_handler(
            servicer.Play, request_deserializer=read_bot_message, response_serializer=arena_pb2.RefereeMessage.SerializeToString
        )
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("b99.arena.Arena", {"Play": play}),))
        port = self.server.add_insecure_port(address)
        if address.startswith("unix:"):
            self.address = address
            self.socket_path: str | None = address.removeprefix("unix://").removeprefix("unix:")
        else:
            host = address.rsplit(":", 1)[0]
            self.address = f"{host}:{port}"
            self.socket_path = None

    def start(self) -> ArenaServer:
        self.server.start()
        if self.socket_path:
            # gRPC creates the socket 0755; a bot running as another user must be able to connect.
            os.chmod(self.socket_path, 0o777)
        return self

    def stop(self, grace: float = 0.5) -> None:
        self.server.stop(grace).wait(5)
