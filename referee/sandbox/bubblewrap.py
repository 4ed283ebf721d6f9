"""The bubblewrap command line for a strict sandbox (bubblewrap makes the namespaces and mounts; we only ask)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from referee.sandbox.binds import ETC_ALLOWLIST, SYSTEM_DIRS

#: Where the bot finds its scratch directory (a size-capped tmpfs) and the referee's socket inside the sandbox.
SCRATCH = "/tmp"
SOCKET = "/run/b99/arena.sock"


def system_arguments() -> list[str]:
    """Read-only system directories (as symlinks where /usr is merged), the /etc allowlist, fresh /proc and /dev."""
    arguments: list[str] = []
    for directory in SYSTEM_DIRS:
        if os.path.islink(directory):
            arguments += ["--symlink", os.readlink(directory), directory]
        elif os.path.isdir(directory):
            arguments += ["--ro-bind", directory, directory]
    # bubblewrap would make /etc 0700 (unreachable for the bot's uid) when it creates it for the binds below.
    arguments += ["--perms", "0755", "--dir", "/etc"]
    for path in ETC_ALLOWLIST:
        arguments += ["--ro-bind-try", path, path]
    return arguments + ["--proc", "/proc", "--dev", "/dev"]


def strict_command(
    bwrap: str,
    setpriv: str,
    command: Sequence[str],
    uid: int,
    read_only: Sequence[str],
    workdir_inside: str,
    scratch_bytes: int,
    socket_path: str | None,
    info_fd: int,
    block_fd: int,
    seccomp_fd: int,
    staged: Mapping[str, str] | None = None,
) -> list[str]:
    """bwrap (run by root, no user namespace) sets up the namespaces and mounts, then setpriv drops to `uid`
    with no capabilities, no supplementary groups and no new privileges, and executes the bot under the
    seccomp program bubblewrap reads from `seccomp_fd` (referee.sandbox.seccomp).

    `staged` maps a path of `read_only` to the readable copy bound there instead (a private bot directory)."""
    arguments = [
        bwrap,
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "bot",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--cap-add",
        "CAP_SETUID",
        "--cap-add",
        "CAP_SETGID",
        "--cap-add",
        "CAP_SETPCAP",
        "--info-fd",
        str(info_fd),
        "--block-fd",
        str(block_fd),
        "--seccomp",
        str(seccomp_fd),
        *system_arguments(),
        "--perms",
        "1777",
        "--size",
        str(scratch_bytes),
        "--tmpfs",
        SCRATCH,
    ]
    targets = [*read_only, *([SOCKET] if socket_path is not None else [])]
    for directory in _ancestors(targets):
        # bubblewrap would make missing parents 0700 (unreachable for the bot's uid): make them searchable.
        arguments += ["--perms", "0755", "--dir", directory]
    for path in read_only:
        arguments += ["--ro-bind", (staged or {}).get(path, path), path]
    if socket_path is not None:
        arguments += ["--ro-bind", socket_path, SOCKET]
    arguments += ["--chdir", workdir_inside, "--", *drop_privileges(setpriv, uid), *command]
    return arguments


def drop_privileges(setpriv: str, uid: int) -> list[str]:
    """setpriv: become `uid`/`uid` with no groups, no capabilities (bounding set emptied) and no new privileges."""
    return [
        setpriv,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
    ]


def _ancestors(paths: Sequence[str]) -> list[str]:
    """Every proper ancestor directory of `paths` that is not a system directory, parents first."""
    found: set[str] = set()
    for path in paths:
        parent = os.path.dirname(path.rstrip("/"))
        while parent not in ("", "/"):
            found.add(parent)
            parent = os.path.dirname(parent)
    system = set(SYSTEM_DIRS) | {"/etc", "/proc", "/dev"}
    # The scratch tmpfs itself keeps its own mode (1777); directories made inside it are searchable.
    kept = (path for path in found if path not in system | {SCRATCH} and not path.startswith(tuple(d + "/" for d in system)))
    return sorted(kept, key=lambda path: (path.count("/"), path))
