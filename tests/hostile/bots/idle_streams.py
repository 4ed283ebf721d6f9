"""Opens many Play streams that never say anything (over many connections), then plays its own seat.

Against a server with a worker thread per stream, idle streams opened before the other seat's hello
hold every worker: the other seat is never served and loses by forfeit. Argument: how many streams.
Some carry a made-up token in their metadata, the rest nothing at all.
"""

import os
import sys

import grpc

from hostile import Stream, play, say

count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
address = os.environ["B99_ARENA_ADDRESS"]
idle = []
channels = []
for index in range(count):
    if index % 8 == 0:
        # A connection of its own every 8 streams (the server's per-connection stream limit).
        channels.append(grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]))
    made_up = f"not-a-token-{index}" if index % 4 == 0 else None
    stream = Stream(token=made_up, channel=channels[-1], hello=False, metadata=made_up is not None)
    idle.append(stream)
say(f"idle streams: opened {count}")
play(stream=Stream(metadata=True))
say("idle streams: played my own seat")
