"""Tries to read other seats' files, the referee's files and secrets of the host. Args: PATH..."""

import glob
import os
import sys

from hostile import play, say

own_token = os.environ.get("B99_SEAT_TOKEN", "")
targets = list(sys.argv[1:]) + ["/etc/shadow", "/root/.bash_history", "/proc/1/environ"]
targets += glob.glob("/tmp/b99-*/**", recursive=True) + glob.glob("/proc/[0-9]*/environ")
for target in targets:
    try:
        with open(target, "rb") as handle:
            data = handle.read()
    except OSError as error:
        say(f"blocked read {target}: {error}")
        continue
    if target.endswith("/environ"):
        tokens = [item for item in data.split(b"\0") if item.startswith(b"B99_SEAT_TOKEN=")]
        if any(item != b"B99_SEAT_TOKEN=" + own_token.encode() for item in tokens):
            say(f"LEAK read {target}: another seat's token")
        else:
            say(f"harmless read {target}: own process only")
        continue
    say(f"LEAK read {target}")
play()
