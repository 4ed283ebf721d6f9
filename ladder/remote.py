"""Remote bots: they dial the ladder's Arena endpoint over TCP with their secret token (like a
lichess bot) and wait there; a match that seats one starts a relay process on the referee's side
that joins the referee's stream for that seat to the waiting connection.

A connection authenticated by bot X's token only ever receives the messages of a seat the ladder
gave to X, and its answers only ever reach that seat's referee stream: a bot can act for nothing else.
"""

from __future__ import annotations

import hashlib
import hmac
import queue
import sys
import threading
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_grpc
import b99.ladder_pb2_grpc as ladder_grpc
from ladder.models import BotKind, BotStatus
from ladder.registry import bot_for_token
from ladder.settings import LadderSettings

ATTACH_WAIT_SECONDS = 5.0


def ticket(secret: str, bot_id: int, match_uid: str, seat: int) -> str:
    """The ladder's signature allowing a relay to attach to bot `bot_id` for one seat of one match."""
    return hmac.new(secret.encode(), f"{bot_id}:{match_uid}:{seat}".encode(), hashlib.sha256).hexdigest()


def relay_command(settings: LadderSettings, job: Any, seat: Any) -> list[str]:
    """The process the referee launches for a remote bot's seat: a relay to the ladder's gateway.
    A worker on another machine finds the gateway's address and the ticket secret in the database."""
    from ladder.service_info import GATEWAY, lookup, relay_secret

    gateway = settings.gateway or lookup(settings, GATEWAY) or ""
    return [
        sys.executable, "-m", "ladder.relay", "--gateway", gateway, "--bot", str(seat.bot_id),
        "--match", job.uid, "--seat", str(seat.seat),
        "--ticket", ticket(relay_secret(settings), seat.bot_id, job.uid, seat.seat), "--name", seat.name,
    ]


class Presence:
    """Which remote bots have a connection waiting that no scheduled match has claimed yet."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[int, int] = {}
        self.reserved: dict[int, int] = {}

    def available(self, bot_id: int) -> bool:
        with self.lock:
            return self.waiting.get(bot_id, 0) > self.reserved.get(bot_id, 0)

    def reserve(self, bot_id: int) -> None:
        with self.lock:
            self.reserved[bot_id] = self.reserved.get(bot_id, 0) + 1

    def connected(self, bot_id: int, change: int) -> None:
        with self.lock:
            self.waiting[bot_id] = max(0, self.waiting.get(bot_id, 0) + change)

    def attached(self, bot_id: int) -> None:
        with self.lock:
            self.reserved[bot_id] = max(0, self.reserved.get(bot_id, 0) - 1)

    def __contains__(self, bot_id: object) -> bool:
        return isinstance(bot_id, int) and self.available(bot_id)


@dataclass
class RemoteConnection:
    """One remote bot's open Play stream, waiting for a seat or playing one."""

    bot_id: int
    to_bot: queue.Queue[arena_pb2.RefereeMessage | None] = field(default_factory=queue.Queue)
    from_bot: queue.Queue[arena_pb2.BotMessage | None] = field(default_factory=queue.Queue)
    claimed: bool = False


class ArenaGateway(arena_grpc.ArenaServicer, ladder_grpc.ArenaRelayServicer):
    """The ladder's Arena endpoint for remote bots, and the relay side that seats them."""

    def __init__(self, settings: LadderSettings, address: str, presence: Presence) -> None:
        self.settings = settings
        self.address = address
        self.presence = presence
        from ladder.service_info import relay_secret

        self.secret = relay_secret(settings)
        self.advertise: str | None = None  # host:port workers on other machines dial, when not this one
        self.lock = threading.Condition()
        self.waiting: dict[int, list[RemoteConnection]] = {}
        self.server: Any = None
        self.port = 0

    def start(self) -> None:
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=64))
        arena_grpc.add_ArenaServicer_to_server(self, self.server)
        ladder_grpc.add_ArenaRelayServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port(self.address)
        self.server.start()

    @property
    def relay_address(self) -> str:
        """Where the relays (started by the referee of any worker) dial the gateway: the advertised
        address if one was given, else this machine's."""
        if self.advertise:
            return self.advertise
        host = self.address.rsplit(":", 1)[0] if ":" in self.address else "127.0.0.1"
        return f"{'127.0.0.1' if host in ('0.0.0.0', '[::]', '') else host}:{self.port}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop(grace=0.5)

    # Arena.Play: a remote bot connects and waits for a seat.
    def Play(self, request_iterator: Iterator[arena_pb2.BotMessage], context: grpc.ServicerContext) -> Iterator[arena_pb2.RefereeMessage]:
        first = next(request_iterator, None)
        if first is None or first.WhichOneof("body") != "hello":
            yield _error(arena_pb2.PROTOCOL_ERROR, "the first message must be hello")
            return
        bot = bot_for_token(self.settings, first.hello.seat_token)
        if bot is None or bot.kind != BotKind.REMOTE:
            yield _error(arena_pb2.UNKNOWN_TOKEN, "unknown or revoked ladder token")
            return
        if bot.status != BotStatus.ACTIVE:
            yield _error(arena_pb2.UNKNOWN_TOKEN, f"{bot.name} is {bot.status}: {bot.paused_reason or 'ask the ladder admin'}")
            return
        connection = RemoteConnection(bot_id=bot.id or 0)
        with self.lock:
            self.waiting.setdefault(connection.bot_id, []).append(connection)
            self.lock.notify_all()
        self.presence.connected(connection.bot_id, +1)
        reader = threading.Thread(target=self._read_bot, args=(request_iterator, connection), daemon=True)
        reader.start()
        context.add_callback(lambda: connection.to_bot.put(None))
        try:
            while True:
                message = connection.to_bot.get()
                if message is None:
                    return
                yield message
                if message.WhichOneof("body") == "game_over":
                    return
        finally:
            with self.lock:
                if connection in self.waiting.get(connection.bot_id, []):
                    self.waiting[connection.bot_id].remove(connection)
                    self.presence.connected(connection.bot_id, -1)

    @staticmethod
    def _read_bot(request_iterator: Iterator[arena_pb2.BotMessage], connection: RemoteConnection) -> None:
        try:
            for message in request_iterator:
                if message.WhichOneof("body") == "decision":
                    connection.from_bot.put(message)
        except grpc.RpcError:
            pass
        finally:
            connection.from_bot.put(None)  # the bot disconnected: its relay ends, the referee sees it

    # ArenaRelay.Attach: the relay of a seat given to a remote bot joins that bot's waiting connection.
    def Attach(self, request_iterator: Iterator[arena_pb2.RefereeMessage], context: grpc.ServicerContext) -> Iterator[arena_pb2.BotMessage]:
        metadata = dict(context.invocation_metadata())
        try:
            bot_id, match_uid, seat = int(metadata["b99-bot"]), str(metadata["b99-match"]), int(metadata["b99-seat"])
        except (KeyError, ValueError):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "b99-bot, b99-match and b99-seat are required")
        if not hmac.compare_digest(str(metadata.get("b99-ticket", "")), ticket(self.secret, bot_id, match_uid, seat)):
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "bad relay ticket")
        self.presence.attached(bot_id)
        connection = self._claim(bot_id)
        if connection is None:
            context.abort(grpc.StatusCode.UNAVAILABLE, f"bot {bot_id} is not connected")
        assert connection is not None

        def pump_up() -> None:
            try:
                for message in request_iterator:
                    connection.to_bot.put(message)
            except grpc.RpcError:
                pass
            finally:
                connection.to_bot.put(None)

        threading.Thread(target=pump_up, daemon=True).start()
        while True:
            message = connection.from_bot.get()
            if message is None:
                return
            yield message

    def _claim(self, bot_id: int) -> RemoteConnection | None:
        with self.lock:
            found = self.lock.wait_for(lambda: self.waiting.get(bot_id), timeout=ATTACH_WAIT_SECONDS)
            if not found:
                return None
            connection = self.waiting[bot_id].pop(0)
            connection.claimed = True
        self.presence.connected(bot_id, -1)
        return connection


def _error(code: int, message: str) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(error=arena_pb2.Error(code=code, message=message))  # type: ignore[arg-type]
