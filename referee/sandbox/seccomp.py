"""The seccomp filter every strict bot runs under: system calls a game bot never needs fail with EPERM.

Built with libseccomp (through `pyseccomp`, its ctypes binding) for the machine's own architecture;
libseccomp adds the architecture check, so a call made through another ABI (i386, x32) is refused
outright. bubblewrap loads the compiled program (`--seccomp FD`) just before the bot starts, after it
has set up the namespaces, so the sandbox's own set-up is unaffected.
"""

from __future__ import annotations

import errno
import os
from functools import cache

#: Families a game bot never needs, each with the calls that make it up (kernel attack surface).
DENIED_FAMILIES: dict[str, tuple[str, ...]] = {
    "namespaces": ("unshare", "setns"),
    "mounts": (
        "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount", "fspick",
        "move_mount", "open_tree", "mount_setattr",
    ),
    "tracing": ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "perf_event_open"),
    "kernel keyring": ("keyctl", "add_key", "request_key"),
    "bpf": ("bpf",),
    "userfaultfd": ("userfaultfd",),
    "kernel modules and kexec": ("init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load"),
    "host administration": (
        "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "settimeofday", "clock_settime",
        "clock_adjtime", "adjtimex", "sethostname", "setdomainname", "iopl", "ioperm", "vhangup", "uselib", "nfsservctl",
        "lookup_dcookie",
    ),
    "file handles": ("open_by_handle_at", "name_to_handle_at"),
    "io_uring": ("io_uring_setup", "io_uring_enter", "io_uring_register"),
    "x86 descriptor tables": ("modify_ldt",),
    "secret memory": ("memfd_secret",),
    "vmsplice": ("vmsplice",),
    "NUMA page moves": ("mbind", "migrate_pages", "move_pages"),
    "process file descriptors": ("pidfd_open", "pidfd_getfd"),
    "landlock": ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self"),
}
#: personality() may only ask (0xffffffff): setting one turns address randomisation off, among others.
PERSONALITY_QUERY = 0xFFFFFFFF
#: The one socket family a bot needs: the referee's Unix socket (netlink, AF_VSOCK, AF_INET... are refused).
AF_UNIX = 1
#: clone() flags that make namespaces; clone() with any of them fails with EPERM (threads and fork still work).
NAMESPACE_CLONE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}


class SeccompUnavailable(RuntimeError):
    """libseccomp or its binding is missing, so no filter can be built."""


@cache
def filter_program() -> bytes:
    """The compiled BPF program (cached per process); SeccompUnavailable if libseccomp cannot build it."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as error:
        raise SeccompUnavailable(f"libseccomp is not usable (install libseccomp2 and pyseccomp): {error}") from None
    deny = seccomp.ERRNO(errno.EPERM)
    syscall_filter = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for names in DENIED_FAMILIES.values():
        for name in names:
            try:
                syscall_filter.add_rule(deny, name)
            except (RuntimeError, ValueError, OSError):
                continue  # a call this architecture does not have
    for flag in NAMESPACE_CLONE_FLAGS.values():
        # clone's flags are its first argument on x86-64 and arm64 alike.
        syscall_filter.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    # personality(): anything but the query, including values whose low 32 bits the kernel would keep
    syscall_filter.add_rule(deny, "personality", seccomp.Arg(0, seccomp.LT, PERSONALITY_QUERY))
    syscall_filter.add_rule(deny, "personality", seccomp.Arg(0, seccomp.GT, PERSONALITY_QUERY))
    for call in ("socket", "socketpair"):
        syscall_filter.add_rule(deny, call, seccomp.Arg(0, seccomp.NE, AF_UNIX))
    # clone3 passes its flags in memory, where a filter cannot look: ENOSYS makes libc fall back to clone.
    syscall_filter.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "wb", closefd=True) as sink:
            syscall_filter.export_bpf(sink)
        chunks = []
        while chunk := os.read(read_end, 65536):
            chunks.append(chunk)
    finally:
        os.close(read_end)
    return b"".join(chunks)


def filter_fd() -> int:
    """A fresh readable file descriptor holding the program, for bubblewrap's `--seccomp FD` (the caller closes it)."""
    program = filter_program()
    fd = os.memfd_create("b99-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def describe() -> str:
    """What the filter denies, for the match report."""
    return ("seccomp: EPERM for " + ", ".join(DENIED_FAMILIES) + ", personality() other than its query, sockets "
            "other than AF_UNIX, and clone() of new namespaces")
