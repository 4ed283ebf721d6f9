"""Benchmark peers: a gRPC bot that always answers option 0, and a raw pipe echo of the same payload."""

from __future__ import annotations

import struct
import sys

from sdk import Bot, Request
from sdk.run import run


class FirstOptionBot(Bot):
    """Answers every request with its first option, as fast as the SDK allows."""

    name = "first-option"

    def choose(self, request: Request) -> int:
        return 0


def pipe_echo() -> None:
    """Read length-prefixed DecisionRequest bytes on stdin; answer each with a Decision on stdout."""
    import b99.arena_pb2 as arena_pb2

    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    while True:
        header = stdin.read(4)
        if len(header) < 4:
            return
        (size,) = struct.unpack("<I", header)
        request = arena_pb2.DecisionRequest.FromString(stdin.read(size))
        answer = arena_pb2.Decision(request_id=request.request_id, option_id=request.options[0].id).SerializeToString()
        stdout.write(struct.pack("<I", len(answer)) + answer)
        stdout.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["pipe"]:
        pipe_echo()
    else:
        run(FirstOptionBot())
