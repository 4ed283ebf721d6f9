"""Reconnects with another seat's token (and its own) to take over a seat. Args: OTHER_TOKEN."""

import os
import sys

import grpc

from hostile import Stream, play, say


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count < 2:
        return False
    for label, token in (("another seat's", sys.argv[1]), ("its own", os.environ["B99_SEAT_TOKEN"])):
        thief = Stream(token=token)
        try:
            reply = next(iter(thief.incoming))
            body = reply.WhichOneof("body")
            if body == "error":
                say(f"rejected {label} token: {reply.error.message}")
            else:
                say(f"LEAK took a seat with {label} token: got {body}")
        except (grpc.RpcError, StopIteration) as error:
            say(f"rejected {label} token: {error}")
        thief.close()
    say("token thief: hanging up its own stream")
    stream.close()
    os._exit(7)


play(turn)
