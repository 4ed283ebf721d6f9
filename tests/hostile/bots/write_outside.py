"""Tries to write outside its scratch directory. Args: CANARY_DIR NONCE."""

import os
import sys

from hostile import play, say

canary, nonce = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
targets = [
    os.path.join(canary, "written-by-bot"),
    os.path.join(here, f"escape-{nonce}"),
    f"/tmp/../escape-{nonce}",
    f"/etc/escape-{nonce}",
    f"/usr/escape-{nonce}",
    f"/usr/local/escape-{nonce}",
    f"/root/escape-{nonce}",
    f"/var/tmp/escape-{nonce}",
    f"/dev/shm/escape-{nonce}",
    f"/run/b99/escape-{nonce}",
    os.path.join(os.path.dirname(os.__file__), f"escape-{nonce}"),
]
for target in targets:
    try:
        with open(target, "w") as handle:
            handle.write("escaped")
        say(f"LEAK write {target}")
    except OSError as error:
        say(f"blocked write {target}: {error}")
scratch = os.environ.get("TMPDIR", "/tmp")
with open(os.path.join(scratch, "mine"), "w") as handle:
    handle.write("allowed")
say(f"wrote scratch {scratch}")
play()
