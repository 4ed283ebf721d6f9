"""Unpacking tar archives (uploaded bots, the bot store, backups) without letting a member land outside.

tarfile's "data" filter does this from Python 3.11.4 on; Debian 12's python3 is 3.11.2, which has no
`filter` argument at all. There the same checks are made by hand before extracting.
"""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

#: True where tarfile has the extraction filters (Python 3.11.4 and later)
HAS_DATA_FILTER = hasattr(tarfile, "data_filter")


class UnsafeMemberError(tarfile.TarError):
    """An archive member that would be written outside the target, or is not a file, directory or link."""


def extract_all(archive: tarfile.TarFile, target: Path) -> None:
    """Every member of `archive` into `target`, refused whole if any member is unsafe."""
    if HAS_DATA_FILTER:
        archive.extractall(target, filter="data")
        return
    members = archive.getmembers()
    for member in members:
        _check(member, target)
    archive.extractall(target, members=members)


def extract_one(archive: tarfile.TarFile, member: tarfile.TarInfo, target: Path) -> None:
    """One member of `archive` into `target`, if it is safe."""
    if HAS_DATA_FILTER:
        archive.extract(member, target, filter="data")
        return
    _check(member, target)
    archive.extract(member, target)


def _check(member: tarfile.TarInfo, target: Path) -> None:
    """The "data" filter's refusals, and its clearing of special mode bits, for one member."""
    root = os.path.realpath(target)
    member.name = member.name.lstrip("/")  # as the data filter: an absolute name lands inside the target
    destination = os.path.realpath(os.path.join(root, member.name))
    if not _inside(destination, root):
        raise UnsafeMemberError(f"{member.name!r} would be written outside the target directory")
    if member.issym() or member.islnk():
        # a symbolic link is read from its own directory, a hard link's target from the archive's top
        base = os.path.dirname(destination) if member.issym() else root
        pointed = os.path.realpath(os.path.join(base, member.linkname))
        if os.path.isabs(member.linkname) or not _inside(pointed, root):
            raise UnsafeMemberError(f"{member.name!r} links outside the target directory ({member.linkname!r})")
    elif not (member.isfile() or member.isdir()):
        raise UnsafeMemberError(f"{member.name!r} is a device, pipe or other special file")
    # as the data filter: no set-user/group-id, sticky or group/other write bits; owner read/write kept
    member.mode = (member.mode & 0o755) | (0o600 if member.isfile() else 0o700)
    member.uid = member.gid = 0
    member.uname = member.gname = ""


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
