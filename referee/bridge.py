"""The stdio bridge: a bot in any language plays by reading and writing JSON lines.

`b99 bridge -- COMMAND [ARGS...]` is itself the bot process the referee launches: it dials the
referee like any bot (B99_ARENA_ADDRESS, B99_SEAT_TOKEN), starts COMMAND with pipes, and
relays. Every message from the referee goes to COMMAND's stdin as one line of JSON: the
protobuf JSON mapping of `b99.arena.RefereeMessage` with the proto field names (snake_case),
64-bit integers as numbers, and the game's typed messages expanded in place with their "@type".
After each `decision_request` line COMMAND writes one line to stdout: a `b99.arena.Decision`
(`{"request_id": 7, "option_id": "stake:3"}`, or `"option_index": 2`; request_id may be left
out and means the pending request) or a whole `BotMessage` (`{"decision": {...}}`). COMMAND's
stderr is the bot's log. After `game_over` its stdin is closed.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import click
import grpc
from google.protobuf import json_format

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc
from sdk.decode import load_game_messages
from sdk.run import ADDRESS_VARIABLE, PROTOCOL_VERSION, TOKEN_VARIABLE, token_metadata


class BridgeError(RuntimeError):
    """The bridge cannot run (no referee settings, command does not start)."""


def message_json(message: Any) -> str:  # noqa: ANN401 - any protobuf message
    """One JSON line: the protobuf JSON mapping with proto field names and integers unquoted."""
    data = json_format.MessageToDict(
        message,
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
        unquote_int64_if_possible=True,
    )
    return json.dumps(data, separators=(",", ":"))


def parse_reply(line: str, request_id: int) -> tuple[arena_pb2.BotMessage, str | None]:
    """A reply line as a BotMessage for the pending request; the second value says what was wrong, if anything."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        return _empty_decision(request_id), f"your bot printed a line that is not JSON: {line.rstrip()[:200]!r} ({error.msg})"
    if not isinstance(data, dict):
        return _empty_decision(request_id), f"your bot printed a line that is JSON but not an object: {line.rstrip()[:200]!r}"
    if "decision" in data or "hello" in data:
        try:
            return json_format.ParseDict(data, arena_pb2.BotMessage()), None
        except json_format.ParseError as error:
            return _empty_decision(request_id), f"your bot printed a line that is not a BotMessage: {error}"
    data.setdefault("request_id", request_id)
    try:
        decision = json_format.ParseDict(data, arena_pb2.Decision())
    except json_format.ParseError as error:
        return _empty_decision(request_id), f"your bot printed a line that is not a Decision: {error}"
    return arena_pb2.BotMessage(decision=decision), None


def _empty_decision(request_id: int) -> arena_pb2.BotMessage:
    # Naming no option makes the referee record a protocol error for this seat, as the reply deserves.
    return arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=request_id))


def _outgoing(outbox: queue.Queue[arena_pb2.BotMessage | None]) -> Iterator[arena_pb2.BotMessage]:
    while True:
        message = outbox.get()
        if message is None:
            return
        yield message


def run_bridge(command: Sequence[str], address: str, token: str, log: IO[str] = sys.stderr) -> int:
    """Relay one game between the referee and COMMAND; returns COMMAND's exit code."""
    try:
        child = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, encoding="utf-8"
        )
    except OSError as error:
        raise BridgeError(f"command {' '.join(command)!r} does not start: {error}") from None
    assert child.stdin is not None and child.stdout is not None  # both are pipes (set just above)
    outbox: queue.Queue[arena_pb2.BotMessage | None] = queue.Queue()
    outbox.put(
        arena_pb2.BotMessage(
            hello=arena_pb2.Hello(
                seat_token=token, bot_name=Path(command[0]).name, bot_version="bridge", protocol_version=PROTOCOL_VERSION
            )
        )
    )
    try:
        with grpc.insecure_channel(address) as channel:
            for message in arena_pb2_grpc.ArenaStub(channel).Play(_outgoing(outbox), metadata=token_metadata(token)):
                body = message.WhichOneof("body")
                if body == "game_start":
                    load_game_messages(message.game_start.game)
                try:
                    child.stdin.write(message_json(message) + "\n")
                    child.stdin.flush()
                except BrokenPipeError:
                    print(f"b99 bridge: the bot closed its stdin{_ended(child, command)}", file=log)
                    break
                if body == "decision_request":
                    reply = child.stdout.readline()
                    if not reply:
                        print(f"b99 bridge: the bot ended its output before answering{_ended(child, command)}", file=log)
                        break
                    answer, problem = parse_reply(reply, message.decision_request.request_id)
                    if problem:
                        print(f"b99 bridge: {problem}", file=log)
                    outbox.put(answer)
                elif body == "game_over":
                    break
    except grpc.RpcError as error:
        print(f"b99 bridge: connection to the referee ended: {error.code().name}", file=log)
    finally:
        outbox.put(None)
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass
    try:
        return child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        return child.wait()


def _ended(child: subprocess.Popen[str], command: Sequence[str]) -> str:
    """'' while COMMAND runs, else how it ended: '; `python bot.py` exited with code 127 (command not found)'."""
    try:
        code = child.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        return ""
    shown = " ".join(command)
    if code < 0:
        return f"; `{shown}` was killed by signal {-code}"
    hint = {126: " (command not executable)", 127: " (command not found)"}.get(code, "")
    return f"; `{shown}` exited with code {code}{hint}"


@click.command("bridge", context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def bridge_command(command: tuple[str, ...]) -> None:
    """Play a seat with COMMAND, a bot that speaks JSON lines on stdin/stdout (b99 bridge -- COMMAND).

    Use it as the bot command of a match:  b99 match GAME --bot "b99 bridge -- node my_bot.js" ...
    """
    address = os.environ.get(ADDRESS_VARIABLE)
    token = os.environ.get(TOKEN_VARIABLE)
    if not address or not token:
        click.echo(f"error: set {ADDRESS_VARIABLE} and {TOKEN_VARIABLE} (the referee sets both when it launches the bot)", err=True)
        sys.exit(2)
    try:
        code = run_bridge(command, address, token)
    except BridgeError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    sys.exit(code)


if __name__ == "__main__":
    bridge_command()  # python -m referee.bridge COMMAND ... (the same as b99 bridge -- COMMAND ...)
