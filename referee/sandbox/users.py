"""A user id of its own for every sandboxed bot, and making sure nothing runs under it afterwards."""

from __future__ import annotations

import os
import secrets
import subprocess

#: Bots run as a fresh uid (and gid) drawn from this range: no account, no files, no other process.
UID_RANGE = (2_000_000, 2_999_999)


def allocate_uid() -> int:
    """A random uid from UID_RANGE that no running process uses."""
    in_use = _uids_in_use()
    while True:
        uid = UID_RANGE[0] + secrets.randbelow(UID_RANGE[1] - UID_RANGE[0])
        if uid not in in_use:
            return uid


def _uids_in_use() -> set[int]:
    uids: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return uids
    for entry in entries:
        if entry.isdigit():
            try:
                uids.add(os.stat(f"/proc/{entry}").st_uid)
            except OSError:
                continue
    return uids


def processes_of(uid: int) -> list[int]:
    """Pids of the live processes of `uid` (zombies, already dead and waiting to be reaped, are left out)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid != uid:
                    continue
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    state = handle.read().rpartition(b")")[2].split()[0]
            except (OSError, IndexError):
                continue
            if state not in (b"Z", b"X"):
                pids.append(int(entry))
    return pids


def kill_all_of(uid: int, setpriv: str) -> None:
    """SIGKILL every process of `uid`: kill(-1) sent as that uid reaches exactly its processes."""
    if not processes_of(uid):
        return
    subprocess.run(
        [setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "/bin/kill", "-KILL", "-1"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        timeout=10,
    )
