"""Tries to open TCP connections: to a port the host listens on, and out to the internet. Args: PORT."""

import socket
import sys

from hostile import play, say

port = int(sys.argv[1])
for host, target_port in (("127.0.0.1", port), ("1.1.1.1", 443), ("10.0.2.2", port)):
    try:
        with socket.create_connection((host, target_port), timeout=0.5):
            say(f"LEAK tcp {host}:{target_port} connected")
    except OSError as error:
        say(f"blocked tcp {host}:{target_port}: {error}")
play()
