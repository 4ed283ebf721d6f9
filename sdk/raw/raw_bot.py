"""A B99 Arena bot in Python on grpcio and the generated stubs alone (no SDK): dial, say hello, answer
every request with a random legal option, after unpacking the view into the game's typed View.

    python -m grpc_tools.protoc -I proto --python_out=gen --grpc_python_out=gen \
        proto/b99/arena.proto proto/b99/games/*.proto
    PYTHONPATH=gen python raw_bot.py          # the referee sets B99_ARENA_ADDRESS and B99_SEAT_TOKEN
"""

import os
import queue
import random
import sys

import grpc
from google.protobuf import message_factory, symbol_database

from b99 import arena_pb2, arena_pb2_grpc
from b99.games import deep_dive_pb2, fuji99_pb2, magnificent_pb2, merchants_pb2, underground_dice_pb2  # noqa: F401 - registers every game's types


def unpack(any_message):
    """The typed message inside a google.protobuf.Any, found by its type URL among the loaded types."""
    name = any_message.type_url.rsplit("/", 1)[-1]
    descriptor = symbol_database.Default().pool.FindMessageTypeByName(name)
    typed = message_factory.GetMessageClass(descriptor)()
    any_message.Unpack(typed)
    return typed


def main() -> int:
    address, token = os.environ.get("B99_ARENA_ADDRESS"), os.environ.get("B99_SEAT_TOKEN")
    if not address or not token:
        print("set B99_ARENA_ADDRESS and B99_SEAT_TOKEN (the referee sets both)", file=sys.stderr)
        return 2
    rng = random.Random()
    outbox = queue.Queue()  # what the bot sends, in order: hello, then one decision per request
    outbox.put(arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token=token, bot_name="raw-python", protocol_version=1)))

    def requests():
        while (message := outbox.get()) is not None:
            yield message

    seat = 0
    with grpc.insecure_channel(address) as channel:
        for message in arena_pb2_grpc.ArenaStub(channel).Play(requests()):
            body = message.WhichOneof("body")
            if body == "game_start":
                seat = message.game_start.seat
                print(f"playing {message.game_start.game} as seat {seat}", file=sys.stderr)
            elif body == "decision_request":
                request = message.decision_request
                view = unpack(request.view)  # for example b99.games.underground_dice.View
                if isinstance(view, underground_dice_pb2.View):
                    print(f"{request.decision}: pot {view.pot}, my bills {view.hands[seat].bills}", file=sys.stderr)
                option = rng.choice(request.options)
                decision = arena_pb2.Decision(request_id=request.request_id, option_id=option.id)
                outbox.put(arena_pb2.BotMessage(decision=decision))
            elif body == "game_over":
                print(f"game over: rank {message.game_over.ranks[seat]}", file=sys.stderr)
                break
            elif body == "error":
                print(f"referee: {arena_pb2.ErrorCode.Name(message.error.code)}: {message.error.message}", file=sys.stderr)
                if message.error.code == arena_pb2.UNKNOWN_TOKEN:
                    return 3
        outbox.put(None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
