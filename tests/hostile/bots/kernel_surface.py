"""Tries every family of system calls a game bot never needs; says, per family, whether the kernel let it through."""

import ctypes
import errno
import os
import platform
import subprocess

from hostile import play, say

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NUMBERS = {
    "x86_64": {
        "ptrace": 101, "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "keyctl": 250, "add_key": 248,
        "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "clone": 56, "init_module": 175, "kexec_load": 246,
        "reboot": 169, "chroot": 161, "pivot_root": 155, "open_by_handle_at": 304, "swapon": 167, "acct": 163,
        "io_uring_setup": 425, "clone3": 435,
    },
    "aarch64": {
        "ptrace": 117, "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "keyctl": 219, "add_key": 217,
        "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "clone": 220, "init_module": 105, "kexec_load": 104,
        "reboot": 142, "chroot": 51, "pivot_root": 41, "open_by_handle_at": 265, "swapon": 224, "acct": 89,
        "io_uring_setup": 425, "clone3": 435,
    },
}[platform.machine()]
CLONE_NEWUSER, CLONE_NEWNS, SIGCHLD = 0x10000000, 0x00020000, 17


def call(name: str, *args: int) -> tuple[int, int]:
    """(result, errno) of a raw system call."""
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(NUMBERS[name]), *(ctypes.c_long(a) for a in args))
    return result, ctypes.get_errno()


def report(family: str, result: int, code: int) -> None:
    if result == -1:
        say(f"blocked {family}: {errno.errorcode.get(code, code)}")
    else:
        say(f"LEAK {family}: returned {result}")


def in_child(family: str, name: str, *args: int) -> None:
    """Make the call in a forked child (a call that works may change the caller for good)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        result, code = call(name, *args)
        os.write(write_end, f"{result} {code}".encode())
        os._exit(0)
    os.close(write_end)
    text = os.read(read_end, 64).decode().split()
    os.waitpid(pid, 0)
    report(family, int(text[0]), int(text[1]))


def clone_namespace(family: str, flags: int) -> None:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        result, code = call("clone", flags | SIGCHLD, 0, 0, 0, 0)
        if result == 0:
            os._exit(0)  # the new process, inside the namespace: leave at once
        os.write(write_end, f"{result} {code}".encode())
        os._exit(0)
    os.close(write_end)
    text = os.read(read_end, 64).decode().split()
    os.waitpid(pid, 0)
    report(family, int(text[0]), int(text[1]))


status = open("/proc/self/status").read()
say("seccomp mode " + next(line.split()[1] for line in status.splitlines() if line.startswith("Seccomp:")))
in_child("unshare user namespace", "unshare", CLONE_NEWUSER)
in_child("unshare mount namespace", "unshare", CLONE_NEWNS)
in_child("setns", "setns", 0, 0)
clone_namespace("clone new user namespace", CLONE_NEWUSER)
clone_namespace("clone new mount namespace", CLONE_NEWNS)
in_child("clone3", "clone3", 0, 0)
in_child("ptrace traceme", "ptrace", 0, 0, 0, 0)
in_child("mount", "mount", 0, 0, 0, 0, 0)
in_child("umount", "umount2", 0, 0)
in_child("pivot_root", "pivot_root", 0, 0)
in_child("chroot", "chroot", 0)
in_child("keyctl", "keyctl", 0, -3, 0)  # KEYCTL_GET_KEYRING_ID of the session keyring
in_child("add_key", "add_key", 0, 0, 0, 0, 0)
in_child("bpf", "bpf", 0, 0, 0)
in_child("perf_event_open", "perf_event_open", 0, 0, -1, -1, 0)
in_child("userfaultfd", "userfaultfd", 1)  # UFFD_USER_MODE_ONLY: allowed to unprivileged users without the filter
in_child("init_module", "init_module", 0, 0, 0)
in_child("kexec_load", "kexec_load", 0, 0, 0, 0)
in_child("reboot", "reboot", 0, 0, 0, 0)
in_child("swapon", "swapon", 0, 0)
in_child("acct", "acct", 0)
in_child("open_by_handle_at", "open_by_handle_at", 0, 0, 0)
in_child("io_uring_setup", "io_uring_setup", 1, 0)
for family, argv in (("unshare -Ur", ["unshare", "-Ur", "true"]), ("nested bwrap", ["bwrap", "--ro-bind", "/", "/", "true"])):
    try:
        finished = subprocess.run(argv, capture_output=True, timeout=10)
        say(f"{'LEAK' if finished.returncode == 0 else 'blocked'} {family}: exit {finished.returncode}")
    except OSError as error:
        say(f"blocked {family}: {error}")
# What a bot does need still works: threads, fork, exec.
say("fork works" if subprocess.run(["true"]).returncode == 0 else "fork BROKEN")
play()
