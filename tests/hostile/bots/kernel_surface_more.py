"""Tries the families the review found open in strict, one by one; says, per family, what the kernel answered.

personality (address randomisation off), modify_ldt, memfd_secret, vmsplice, mbind / migrate_pages /
move_pages, pidfd_open, landlock, and sockets of every family but AF_UNIX (netlink, AF_VSOCK, which
reaches the host on a VM that has /dev/vsock, AF_INET, AF_INET6, AF_PACKET). The calls a bot needs
still work: personality's query and an AF_UNIX socket.
"""

import ctypes
import errno
import os
import platform
import socket

from hostile import play, say

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NUMBERS = {
    "x86_64": {"personality": 135, "modify_ldt": 154, "memfd_secret": 447, "vmsplice": 278, "mbind": 237,
               "migrate_pages": 256, "move_pages": 279, "pidfd_open": 434, "landlock_create_ruleset": 444},
    "aarch64": {"personality": 92, "memfd_secret": 447, "vmsplice": 75, "mbind": 235, "migrate_pages": 238,
                "move_pages": 239, "pidfd_open": 434, "landlock_create_ruleset": 444},
}[platform.machine()]
ADDR_NO_RANDOMIZE = 0x0040000


def in_child(family: str, name: str, *args: int) -> None:
    """The raw call in a forked child (one that works may change the caller); 'blocked' only for EPERM."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        ctypes.set_errno(0)
        result = libc.syscall(ctypes.c_long(NUMBERS[name]), *(ctypes.c_long(a) for a in args))
        os.write(write_end, f"{result} {ctypes.get_errno()}".encode())
        os._exit(0)
    os.close(write_end)
    result, code = (int(part) for part in os.read(read_end, 64).decode().split())
    os.waitpid(pid, 0)
    verdict = "blocked" if result == -1 and code == errno.EPERM else "LEAK"
    say(f"{verdict} {family}: {result} {errno.errorcode.get(code, code)}")


def try_socket(family: str, domain: int, kind: int) -> None:
    try:
        socket.socket(domain, kind).close()
        say(f"LEAK {family}: opened")
    except OSError as error:
        say(f"{'blocked' if error.errno == errno.EPERM else 'LEAK'} {family}: {errno.errorcode.get(error.errno, error.errno)}")


in_child("personality set", "personality", ADDR_NO_RANDOMIZE)
in_child("personality high bits", "personality", (1 << 32) | ADDR_NO_RANDOMIZE)
if "modify_ldt" in NUMBERS:
    in_child("modify_ldt", "modify_ldt", 0, 0, 0)
in_child("memfd_secret", "memfd_secret", 0)
in_child("vmsplice", "vmsplice", 0, 0, 0, 0)
in_child("mbind", "mbind", 0, 0, 0, 0, 0, 0)
in_child("migrate_pages", "migrate_pages", 0, 0, 0, 0)
in_child("move_pages", "move_pages", 0, 0, 0, 0, 0, 0)
in_child("pidfd_open", "pidfd_open", os.getpid(), 0)
in_child("landlock", "landlock_create_ruleset", 0, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
try_socket("netlink socket", socket.AF_NETLINK, socket.SOCK_RAW)
try_socket("vsock socket", 40, socket.SOCK_STREAM)  # AF_VSOCK
try_socket("inet socket", socket.AF_INET, socket.SOCK_STREAM)
try_socket("inet6 socket", socket.AF_INET6, socket.SOCK_DGRAM)
try_socket("packet socket", 17, socket.SOCK_RAW)  # AF_PACKET
# what a bot needs still works
query = libc.syscall(ctypes.c_long(NUMBERS["personality"]), ctypes.c_long(0xFFFFFFFF))
say("personality query works" if query >= 0 else "personality query BROKEN")
socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
say("unix socket works")
play()
