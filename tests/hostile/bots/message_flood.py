"""Sends answers nobody asked for as fast as it can, from its hello on: 200 kB each, up to a total
given in MB (argument, default 400), then plays on. An unbounded inbox grows the referee's memory
by all of it."""

import sys

import b99.arena_pb2 as arena_pb2
from hostile import Stream, play, say

total_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 400
stream = Stream(metadata=True)
junk = arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=424242, option_id="x" * 200_000))
count = total_mb * 1_000_000 // 200_000
for _ in range(count):
    stream.send(junk)
say(f"message flood: queued {count} unrequested answers of 200 kB")
play(stream=stream)
