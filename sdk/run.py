"""The bot side of the Arena protocol: dial the referee, say hello, answer every request.

    from sdk import Bot
    from sdk.run import run

    run(MyBot())  # reads B99_ARENA_ADDRESS and B99_SEAT_TOKEN from the environment
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import time
from pathlib import Path

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc
from sdk.answer import BadAnswer, option_id_of
from sdk.bot import Bot
from sdk.decode import game_over_info, game_start_info, request_info
from sdk.types import GameOverInfo, GameStartInfo

PROTOCOL_VERSION = 1
ADDRESS_VARIABLE = "B99_ARENA_ADDRESS"
TOKEN_VARIABLE = "B99_SEAT_TOKEN"
#: Exit code of a bot whose seat token the referee (or a ladder) rejected.
EXIT_TOKEN_REJECTED = 3
#: Seconds a rejected bot waits before it exits, so a supervisor that restarts it cannot hammer a ladder.
REJECTED_BACKOFF_SECONDS = 10.0
#: The call metadata that carries the seat token, so the referee authenticates a stream before reading it.
TOKEN_METADATA = "b99-seat-token"
#: A ladder's Arena endpoint over TLS: set to 1 (the system's CAs verify it), or set the CA variable.
TLS_VARIABLE = "B99_ARENA_TLS"
#: The CA certificate (PEM file) that verifies a ladder with its own certificate; implies TLS.
CA_FILE_VARIABLE = "B99_ARENA_CA_FILE"


class ConnectionSettingsError(RuntimeError):
    """The referee's address or the seat token is missing."""


class TokenRejected(RuntimeError):
    """The referee (or a ladder) refused the seat token: retrying with the same token cannot help."""


def run(
    bot: Bot,
    address: str | None = None,
    token: str | None = None,
    name: str | None = None,
    backoff_seconds: float = REJECTED_BACKOFF_SECONDS,
) -> GameOverInfo | None:
    """Play one game for the seat named by the token; returns the game over (None if the stream ended early).

    A rejected token ends the program: a one-line reason on stderr, `backoff_seconds` of waiting, then exit
    code EXIT_TOKEN_REJECTED (a restart loop must not hammer the referee with a token it refuses).
    """
    address = address or os.environ.get(ADDRESS_VARIABLE)
    token = token or os.environ.get(TOKEN_VARIABLE)
    if not address or not token:
        raise ConnectionSettingsError(f"set {ADDRESS_VARIABLE} and {TOKEN_VARIABLE} (the referee sets both)")
    hello = arena_pb2.Hello(
        seat_token=token,
        bot_name=name or getattr(bot, "name", type(bot).__name__),
        protocol_version=PROTOCOL_VERSION,
        want_world=bool(getattr(bot, "wants_world", False)),
    )
    try:
        return asyncio.run(_play(bot, address, hello))
    except TokenRejected as error:
        print(f"b99 sdk: the referee at {address} rejected the seat token: {error}", file=sys.stderr)
        print(f"b99 sdk: exiting with code {EXIT_TOKEN_REJECTED} after {backoff_seconds:g} s (check B99_SEAT_TOKEN)", file=sys.stderr)
        sys.stderr.flush()
        time.sleep(backoff_seconds)
        sys.exit(EXIT_TOKEN_REJECTED)
    except grpc.aio.AioRpcError as error:
        # The stream ended (the referee replaced this bot after a timeout or fault, or could not be reached):
        # the referee's reason, if it sent one, is printed above; a traceback would only hide it.
        print(f"b99 sdk: the stream to the referee ended ({error.code().name}: {error.details()})", file=sys.stderr)
        return None


def arena_channel(address: str) -> grpc.aio.Channel:
    """The channel to the referee or a ladder's Arena endpoint: TLS when B99_ARENA_CA_FILE or
    B99_ARENA_TLS=1 is set (a local referee needs neither), plaintext otherwise."""
    options = [("grpc.max_receive_message_length", 64 * 1024 * 1024)]
    ca_file = os.environ.get(CA_FILE_VARIABLE)
    if ca_file or os.environ.get(TLS_VARIABLE, "") not in ("", "0"):
        roots = Path(ca_file).read_bytes() if ca_file else None
        return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=roots), options=options)
    return grpc.aio.insecure_channel(address, options=options)


def token_metadata(token: str) -> tuple[tuple[str, str], ...]:
    """The call metadata that proves a stream's seat (the hello carries the same token)."""
    return ((TOKEN_METADATA, token),)


async def _play(bot: Bot, address: str, hello: arena_pb2.Hello) -> GameOverInfo | None:
    # The asyncio API is used for its lower per-message latency; `choose` runs synchronously in the loop.
    async with arena_channel(address) as channel:
        call = arena_pb2_grpc.ArenaStub(channel).Play(metadata=token_metadata(hello.seat_token))
        hello_refused = False
        try:
            await call.write(arena_pb2.BotMessage(hello=hello))
        except Exception:  # noqa: BLE001 - a stream the referee already ended (a rejected token): read why below
            hello_refused = True
        start: GameStartInfo | None = None
        while True:
            try:
                message = await call.read()
            except Exception:  # noqa: BLE001 - grpc raises several kinds when the stream is already over
                # A referee that refuses the token in the call's metadata closes the stream at once; if that
                # beat our hello, grpc reports the failed send (INTERNAL) instead of the referee's error message.
                code = await call.code()
                if start is None and (code == grpc.StatusCode.OK or (hello_refused and code == grpc.StatusCode.INTERNAL)):
                    raise TokenRejected("the referee closed the stream before reading the hello") from None
                raise
            if message is grpc.aio.EOF:
                return None
            body = message.WhichOneof("body")
            if body == "game_start":
                start = game_start_info(message.game_start)
                bot.on_game_start(start)
                # What lives now (modules, the bot's own set-up) lives all game: the collector stops scanning
                # it, so the collections a game's garbage triggers stay short.
                gc.freeze()
            elif body == "decision_request":
                if start is None:
                    print("b99 sdk: decision request before game start", file=sys.stderr)
                    continue
                request = request_info(start, message.decision_request)
                answer = bot.choose(request)
                reply = arena_pb2.BotMessage()
                decision = reply.decision  # filled in place: no copy of the decision into the reply
                decision.request_id = request.request_id
                try:
                    decision.option_id = option_id_of(request, answer)
                except BadAnswer as error:
                    print(f"b99 sdk: {error}", file=sys.stderr)
                    decision.option_id = str(answer)
                await call.write(reply)
            elif body == "game_over":
                over = game_over_info(message.game_over)
                bot.on_game_over(over)
                await call.done_writing()
                return over
            elif body == "error":
                if message.error.code == arena_pb2.UNKNOWN_TOKEN and start is None:
                    raise TokenRejected(message.error.message)
                code = arena_pb2.ErrorCode.Name(message.error.code)
                print(f"b99 referee: {code}: {message.error.message}", file=sys.stderr)
