"""Leaves things behind on the host: a daemonised child and files in /tmp, /var/tmp and /dev/shm. Args: NONCE MODE.

MODE `play` plays on; `stall` sleeps at its first decision (so that the test can kill the referee mid-match).
"""

import os
import sys
import time

from hostile import play, say

nonce, mode = sys.argv[1], sys.argv[2]
for directory in ("/tmp", "/var/tmp", "/dev/shm"):
    try:
        with open(f"{directory}/b99-left-{nonce}", "w") as handle:
            handle.write("left behind")
        say(f"wrote {directory}")
    except OSError as error:
        say(f"could not write {directory}: {error}")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(f"/tmp/b99-left-{nonce}.pid", "w") as handle:
            handle.write(str(os.getpid()))
        while True:
            time.sleep(1)
    os._exit(0)
time.sleep(0.2)
say("daemon started")


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if mode == "stall":
        time.sleep(3600)
    return False


play(turn)
