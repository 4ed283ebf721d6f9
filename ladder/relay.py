"""The referee-side stand-in for a remote bot's seat (`python -m ladder.relay ...`): it says hello
to the referee with the seat token like any bot process, then passes the seat's messages to the
ladder's gateway, which hands them to the remote bot's connection, and passes the answers back."""

from __future__ import annotations

import argparse
import os
import queue
import signal
import sys
import threading

import grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_grpc
import b99.ladder_pb2_grpc as ladder_grpc
from sdk.run import token_metadata


def _drain(source: queue.Queue):  # type: ignore[no-untyped-def]
    while True:
        item = source.get()
        if item is None:
            return
        yield item


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ladder.relay")
    for name in ("--gateway", "--bot", "--match", "--seat", "--ticket", "--name"):
        parser.add_argument(name, required=True)
    args = parser.parse_args(argv)
    referee_address, seat_token = os.environ.get("B99_ARENA_ADDRESS"), os.environ.get("B99_SEAT_TOKEN")
    if not referee_address or not seat_token or not args.gateway:
        print("relay: missing the referee's address or token, or the ladder's gateway", file=sys.stderr)
        return 2
    to_referee: queue.Queue[arena_pb2.BotMessage | None] = queue.Queue()
    to_gateway: queue.Queue[arena_pb2.RefereeMessage | None] = queue.Queue()
    referee = grpc.insecure_channel(referee_address)
    gateway = grpc.insecure_channel(args.gateway)
    metadata = [("b99-bot", args.bot), ("b99-match", args.match), ("b99-seat", args.seat), ("b99-ticket", args.ticket)]
    answers = ladder_grpc.ArenaRelayStub(gateway).Attach(_drain(to_gateway), metadata=metadata)

    def hello(want_world: bool) -> arena_pb2.BotMessage:
        return arena_pb2.BotMessage(
            hello=arena_pb2.Hello(seat_token=seat_token, bot_name=args.name, protocol_version=1, want_world=want_world)
        )

    def pump_answers() -> None:
        greeted = False
        try:
            for message in answers:
                if not greeted:
                    # The gateway's first message is the remote bot's hello: forward its want_world.
                    greeted = True
                    to_referee.put(hello(message.WhichOneof("body") == "hello" and message.hello.want_world))
                    if message.WhichOneof("body") == "hello":
                        continue
                to_referee.put(message)
        except grpc.RpcError as error:
            print(f"relay: remote bot lost: {error.details()}", file=sys.stderr)
        finally:
            if not greeted:
                to_referee.put(hello(False))  # the referee still gets a hello, then sees the seat end
            to_referee.put(None)

    # The referee asks a seat's process to stop right after the game over, and kills it a second
    # later: use that second to hand the game over to the remote bot.
    signal.signal(signal.SIGTERM, lambda *_: None)
    answering = threading.Thread(target=pump_answers, daemon=True)
    answering.start()
    status = 0
    try:
        for message in arena_grpc.ArenaStub(referee).Play(_drain(to_referee), metadata=token_metadata(seat_token)):
            to_gateway.put(message)
            if message.WhichOneof("body") == "game_over":
                break
    except grpc.RpcError as error:
        print(f"relay: referee stream ended: {error.details()}", file=sys.stderr)
        status = 1
    finally:
        to_gateway.put(None)
        answering.join(timeout=0.8)  # the remote bot closes its stream once it has the game over
        to_referee.put(None)
        answers.cancel()
        referee.close()
        gateway.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
