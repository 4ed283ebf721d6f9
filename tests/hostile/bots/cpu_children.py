"""At its first request, starts 4 child processes that each burn 2.5 s of CPU (under a 3 s cap per
process, each stays below it) and waits for them before it answers. RLIMIT_CPU caps each process alone:
together they use over three times the cap."""

import subprocess
import sys

from hostile import play, say

SPIN = "import time\nend = time.process_time() + 2.5\nwhile time.process_time() < end: pass\n"
children = []


def turn(request, count, stream) -> bool:  # type: ignore[no-untyped-def]
    if count == 1:
        children.extend(subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(4))
        say("cpu children: started 4 x 2.5 s")
        for child in children:
            child.wait()
        say("cpu children: all done")
    return False


play(turn)
say("cpu children: played to the end")
