"""Tries to resolve names."""

import socket

from hostile import play, say

for name in ("example.com", "localhost.b99.invalid", "pypi.org"):
    try:
        addresses = socket.getaddrinfo(name, 443)
        say(f"LEAK dns {name}: {addresses[0][4]}")
    except OSError as error:
        say(f"blocked dns {name}: {error}")
play()
