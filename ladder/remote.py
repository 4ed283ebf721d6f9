"""Remote bots: they dial the ladder's Arena endpoint over TCP with their secret token (like a
lichess bot) and wait there; a match that seats one starts a relay process on the referee's side
that joins the referee's stream for that seat to the waiting connection.

A connection authenticated by bot X's token only ever receives the messages of a seat the ladder
gave to X, and its answers only ever reach that seat's referee stream: a bot can act for nothing else.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import sys
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_grpc
import b99.ladder_pb2_grpc as ladder_grpc
from ladder.models import BotKind, BotStatus
from ladder.registry import bot_for_token
from ladder.settings import LadderSettings
from referee.arena_server import (HELLO_MAX_BYTES, INBOX_BYTES, INBOX_MESSAGES, MAX_MESSAGE_BYTES, MAX_UNAUTHENTICATED,
                                  STREAMS_PER_CONNECTION, TOKEN_METADATA, metadata_token, raise_descriptor_limit)

#: How long a stream without the token in its metadata may take to say hello.
HELLO_WAIT_SECONDS = 10.0

ATTACH_WAIT_SECONDS = 5.0
#: Connections one remote bot (one token's bot) may keep waiting for seats at once.
MAX_WAITING_PER_BOT = 8
#: The largest message the gateway's transport takes from a bot: what a referee accepts, and a little.
GATEWAY_MAX_RECEIVE_BYTES = MAX_MESSAGE_BYTES + 1024
#: Connections the gateway holds at once (gRPC closes the rest as it accepts them).
GATEWAY_MAX_CONNECTIONS = 2048

log = logging.getLogger(__name__)

#: How often the tokens of connections waiting for a seat are checked again: a revoked token (or a
#: bot paused or retired since it connected) loses its waiting connections within this time.
TOKEN_RECHECK_SECONDS = 2.0


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

    def reserved_count(self, bot_id: int) -> int:
        """How many scheduled matches wait to claim one of the bot's waiting connections."""
        with self.lock:
            return self.reserved.get(bot_id, 0)

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
    """One remote bot's open Play stream, waiting for a seat or playing one (queues of the gateway's event loop)."""

    bot_id: int
    #: The token the connection was opened with (checked again while it waits, and before it is seated).
    token: str = ""
    #: The remote bot's hello asked for worlds (sdk.forward): its relay asks the referee for them.
    want_world: bool = False
    to_bot: asyncio.Queue[arena_pb2.RefereeMessage | None] = field(default_factory=asyncio.Queue)
    from_bot: asyncio.Queue[arena_pb2.BotMessage | None] = field(default_factory=asyncio.Queue)
    claimed: bool = False
    #: Bytes of the bot's messages waiting in from_bot (bounded by INBOX_BYTES, with INBOX_MESSAGES).
    waiting_bytes: int = 0

    def take_from_bot(self, message: arena_pb2.BotMessage | None) -> None:
        """Account for a message the relay took off from_bot."""
        if message is not None:
            self.waiting_bytes -= message.ByteSize()


class ArenaGateway(arena_grpc.ArenaServicer, ladder_grpc.ArenaRelayServicer):
    """The ladder's Arena endpoint for remote bots, and the relay side that seats them.

    It runs on grpc.aio in an event loop of its own: a stream that says nothing holds a coroutine, not
    a worker thread, so idle or unauthenticated streams cannot shut remote bots out. A bot that puts
    its token in the call's metadata is checked before its stream is read; one that sends it only in
    its hello gets HELLO_WAIT_SECONDS and counts against a cap that metadata-authenticated streams
    never meet.
    """

    def __init__(self, settings: LadderSettings, address: str, presence: Presence) -> None:
        self.settings = settings
        self.address = address
        self.presence = presence
        from ladder.service_info import relay_secret

        self.secret = relay_secret(settings)  # in the database: relays on any worker sign with it
        self.advertise: str | None = None  # host:port workers on other machines dial, when not this one
        self.tls: Any = None  # ladder.tls.TlsFiles: remote bots connect over TLS
        self.relay_port = 0  # with TLS: a plaintext loopback port for this machine's relays
        self.waiting: dict[int, list[RemoteConnection]] = {}
        self.unauthenticated = 0
        self.server: Any = None
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="arena-gateway", daemon=True)
        self._changed: asyncio.Condition | None = None
        self._recheck: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)

    async def _start(self) -> None:
        self._changed = asyncio.Condition()
        raise_descriptor_limit()
        self.server = grpc.aio.server(options=[
            ("grpc.max_concurrent_streams", STREAMS_PER_CONNECTION),
            ("grpc.max_receive_message_length", GATEWAY_MAX_RECEIVE_BYTES),
            ("grpc.max_allowed_incoming_connections", GATEWAY_MAX_CONNECTIONS),
        ])
        arena_grpc.add_ArenaServicer_to_server(self, self.server)
        ladder_grpc.add_ArenaRelayServicer_to_server(self, self.server)
        from ladder.tls import add_port

        self.port = add_port(self.server, self.address, self.tls)
        if self.tls is not None:
            # The relays dial in plaintext: over loopback on this machine, or, for workers on other
            # machines, on the advertised port (the ladder's private network), which the gateway binds too.
            port = self.advertise.rsplit(":", 1)[1] if self.advertise and ":" in self.advertise else "0"
            self.relay_port = self.server.add_insecure_port(f"{'0.0.0.0' if self.advertise else '127.0.0.1'}:{port}")
        await self.server.start()
        self._recheck = asyncio.ensure_future(self._recheck_tokens())

    @property
    def relay_address(self) -> str:
        """Where the relays (started by the referee of any worker) dial the gateway: the advertised
        address if one was given, else this machine's."""
        if self.advertise:
            return self.advertise
        if self.relay_port:
            return f"127.0.0.1:{self.relay_port}"
        host = self.address.rsplit(":", 1)[0] if ":" in self.address else "127.0.0.1"
        return f"{'127.0.0.1' if host in ('0.0.0.0', '[::]', '') else host}:{self.port}"

    def stop(self) -> None:
        if self._recheck is not None:
            self._loop.call_soon_threadsafe(self._recheck.cancel)
        if self.server is not None:
            try:
                asyncio.run_coroutine_threadsafe(self.server.stop(0.5), self._loop).result(6)
            except Exception:  # noqa: BLE001 - stopping must go on
                pass
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)

    async def _bot(self, token: str) -> tuple[Any, arena_pb2.RefereeMessage | None]:
        """The remote bot a token names, or the error that refuses it."""
        bot = await asyncio.to_thread(bot_for_token, self.settings, token)
        if bot is None or bot.kind != BotKind.REMOTE:
            return None, _error(arena_pb2.UNKNOWN_TOKEN, "unknown or revoked ladder token")
        if bot.status not in (BotStatus.ACTIVE, BotStatus.VALIDATING):
            return None, _error(arena_pb2.UNKNOWN_TOKEN, f"{bot.name} is {bot.status}: {bot.paused_reason or 'ask the ladder admin'}")
        return bot, None

    # Arena.Play: a remote bot connects and waits for a seat.
    async def Play(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[arena_pb2.RefereeMessage]:  # noqa: ANN401
        token = metadata_token(context)
        bot = None
        if token is not None:
            bot, refusal = await self._bot(token)
            if refusal is not None:
                yield refusal
                return
        elif self.unauthenticated >= MAX_UNAUTHENTICATED:
            yield _error(arena_pb2.UNKNOWN_TOKEN, f"too many streams waiting for their hello; put the token in the {TOKEN_METADATA!r} metadata")
            return
        first = await self._first_message(context, counted=bot is None)
        if first is None or first.WhichOneof("body") != "hello":
            yield _error(arena_pb2.PROTOCOL_ERROR, "the first message must be hello")
            return
        if first.ByteSize() > HELLO_MAX_BYTES:
            yield _error(arena_pb2.PROTOCOL_ERROR, f"a hello may hold at most {HELLO_MAX_BYTES:,} bytes")
            return
        if bot is None:
            token = first.hello.seat_token
            bot, refusal = await self._bot(token)
            if refusal is not None:
                yield refusal
                return
        connection = RemoteConnection(bot_id=bot.id or 0, token=token or "", want_world=first.hello.want_world)
        assert self._changed is not None  # set when the server started
        async with self._changed:
            full = len(self.waiting.get(connection.bot_id, [])) >= MAX_WAITING_PER_BOT
            if not full:
                self.waiting.setdefault(connection.bot_id, []).append(connection)
                self._changed.notify_all()
        if full:
            yield _error(arena_pb2.UNKNOWN_TOKEN, f"{bot.name} already has {MAX_WAITING_PER_BOT} connections waiting for a seat")
            return
        self.presence.connected(connection.bot_id, +1)
        reader = asyncio.ensure_future(self._read_bot(context, connection))
        try:
            while True:
                message = await connection.to_bot.get()
                if message is None:
                    return
                yield message
                if message.WhichOneof("body") == "game_over":
                    return
        finally:
            reader.cancel()
            connection.from_bot.put_nowait(None)
            if connection in self.waiting.get(connection.bot_id, []):
                self.waiting[connection.bot_id].remove(connection)
                self.presence.connected(connection.bot_id, -1)

    async def _first_message(self, context: grpc.aio.ServicerContext, counted: bool) -> Any:  # noqa: ANN401
        if counted:
            self.unauthenticated += 1
        try:
            read = context.read()
            message = await (asyncio.wait_for(read, HELLO_WAIT_SECONDS) if counted else read)
        except Exception:  # noqa: BLE001 - a stream that says nothing in time, or breaks, is just closed
            return None
        finally:
            if counted:
                self.unauthenticated -= 1
        return None if message is grpc.aio.EOF else message

    @staticmethod
    async def _read_bot(context: grpc.aio.ServicerContext, connection: RemoteConnection) -> None:
        try:
            while True:
                message = await context.read()
                if message is grpc.aio.EOF:
                    break
                if message.WhichOneof("body") == "decision":
                    size = message.ByteSize()
                    if connection.from_bot.qsize() >= INBOX_MESSAGES or connection.waiting_bytes + size > INBOX_BYTES:
                        # nothing reads a waiting connection: a bot that sends on is cut, not buffered
                        connection.to_bot.put_nowait(_error(arena_pb2.PROTOCOL_ERROR, (
                            f"flood: more than {INBOX_MESSAGES} messages or {INBOX_BYTES // 1024} KiB waiting to be read")))
                        connection.to_bot.put_nowait(None)
                        break
                    connection.waiting_bytes += size
                    connection.from_bot.put_nowait(message)
        except (grpc.RpcError, asyncio.CancelledError):
            pass
        finally:
            connection.from_bot.put_nowait(None)  # the bot disconnected: its relay ends, the referee sees it

    # ArenaRelay.Attach: the relay of a seat given to a remote bot joins that bot's waiting connection.
    async def Attach(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[arena_pb2.BotMessage]:  # noqa: ANN401
        metadata = {key: value for key, value in (context.invocation_metadata() or ())}
        try:
            bot_id, match_uid, seat = int(metadata["b99-bot"]), str(metadata["b99-match"]), int(metadata["b99-seat"])
        except (KeyError, ValueError):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "b99-bot, b99-match and b99-seat are required")
            return
        if not hmac.compare_digest(str(metadata.get("b99-ticket", "")), ticket(self.secret, bot_id, match_uid, seat)):
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "bad relay ticket")
            return
        self.presence.attached(bot_id)
        connection = await self._claim(bot_id)
        if connection is None:
            await context.abort(grpc.StatusCode.UNAVAILABLE, f"bot {bot_id} is not connected")
            return

        async def pump_up() -> None:
            try:
                async for message in request_iterator:
                    connection.to_bot.put_nowait(message)
            except (grpc.RpcError, asyncio.CancelledError):
                pass
            finally:
                connection.to_bot.put_nowait(None)

        pumping = asyncio.ensure_future(pump_up())
        try:
            # First the remote bot's hello, so the relay's hello to the referee carries what it asked for.
            yield arena_pb2.BotMessage(hello=arena_pb2.Hello(want_world=connection.want_world))
            while True:
                message = await connection.from_bot.get()
                connection.take_from_bot(message)
                if message is None:
                    return
                yield message
        finally:
            pumping.cancel()

    async def _recheck_tokens(self) -> None:
        """Close every waiting connection whose token was revoked, or whose bot was paused or retired."""
        while True:
            await asyncio.sleep(TOKEN_RECHECK_SECONDS)
            try:
                await self._drop_refused()
            except Exception as error:  # noqa: BLE001 - a database outage must not stop the gateway
                log.warning("tokens of waiting remote bots not rechecked: %s", error)

    async def _drop_refused(self) -> None:
        waiting = [connection for connections in list(self.waiting.values()) for connection in connections]
        refusals: dict[str, arena_pb2.RefereeMessage | None] = {}
        for token in {connection.token for connection in waiting}:
            refusals[token] = (await self._bot(token))[1]
        refused_bots = {connection.bot_id for connection in waiting if refusals.get(connection.token) is not None}
        open_seats = {bot_id: await asyncio.to_thread(open_matches_of, self.settings, bot_id) for bot_id in refused_bots}
        if self._changed is None:
            return
        async with self._changed:
            for connection in waiting:
                refusal = refusals.get(connection.token)
                if refusal is None or connection.claimed or connection not in self.waiting.get(connection.bot_id, []):
                    continue
                if self._promised(connection, open_seats.get(connection.bot_id, 0)):
                    continue  # matched to a scheduled match: that game plays to its end, as one under way
                self.waiting[connection.bot_id].remove(connection)
                self.presence.connected(connection.bot_id, -1)
                log.info("remote bot %s: waiting connection closed (%s)", connection.bot_id, refusal.error.message)
                connection.to_bot.put_nowait(refusal)
                connection.to_bot.put_nowait(None)

    def _promised(self, connection: RemoteConnection, open_matches: int) -> bool:
        """Whether a waiting connection is one the scheduler already gave a match to: the relay of
        that match claims the bot's oldest waiting connections first, one per reserved match (and
        never more than the bot's open matches, so a reservation whose match is gone protects nothing)."""
        reserved = min(self.presence.reserved_count(connection.bot_id), open_matches)
        return connection in self.waiting.get(connection.bot_id, [])[:reserved]

    async def _claim(self, bot_id: int) -> RemoteConnection | None:
        assert self._changed is not None  # set when the server started
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: self.waiting.get(bot_id)), ATTACH_WAIT_SECONDS)
            except asyncio.TimeoutError:
                return None
            connection = self.waiting[bot_id].pop(0)
            connection.claimed = True
        self.presence.connected(bot_id, -1)
        return connection


def open_matches_of(settings: LadderSettings, bot_id: int) -> int:
    """How many queued or running matches seat the bot."""
    from sqlalchemy import func
    from sqlmodel import col, select

    from ladder.db import read_session
    from ladder.models import Match, MatchStatus, Seat

    with read_session(settings.db_url) as session:
        return int(session.exec(
            select(func.count()).select_from(Seat).join(Match, col(Match.id) == col(Seat.match_id))
            .where(Seat.bot_id == bot_id, col(Match.status).in_(MatchStatus.OPEN))
        ).one())


def _error(code: int, message: str) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(error=arena_pb2.Error(code=code, message=message))  # type: ignore[arg-type]
