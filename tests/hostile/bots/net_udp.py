"""Tries to send UDP datagrams: to a port the host listens on, and to a public resolver. Args: PORT."""

import socket
import sys

from hostile import play, say

port = int(sys.argv[1])
for host, target_port in (("127.0.0.1", port), ("8.8.8.8", 53)):
    try:
        # strict's seccomp filter refuses the socket itself; where a socket is allowed, nothing arrives
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.sendto(b"escape attempt", (host, target_port))
        say(f"sent udp {host}:{target_port} (must not arrive)")
    except OSError as error:
        say(f"blocked udp {host}:{target_port}: {error}")
play()
