"""A corpus of hostile bot archives (tar, tar.gz, zip), built in the test run: link chains that climb out,
'..' and absolute names, links out, devices, set-user-id files, decompression bombs and too many files.

Bombs are written streaming (zeros fed to the compressor a chunk at a time), so building one costs little
memory; the tests pair them with small ArchiveLimits, so refusing one costs little time.
"""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

FORMATS = ("tar", "tar.gz", "zip")
#: the file the link chain tries to plant three levels above the bot's folder
ESCAPE_PROOF = "escape-proof.txt"


@dataclass(frozen=True)
class Member:
    """One archive member: kind is file, dir, symlink, hardlink, chardev, fifo or zeros (a streamed bomb)."""

    kind: str
    name: str
    extra: str = ""
    mode: int = 0o644
    size: int = 0


class Zeros(io.RawIOBase):
    """`size` zero bytes, read a chunk at a time."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        count = min(len(buffer), self.left, 1 << 20)
        buffer[:count] = bytes(count)
        self.left -= count
        return count


def chain() -> list[Member]:
    """The link chain of the review: each link is harmless alone, together they climb three levels."""
    return [Member("symlink", "a", "."), Member("symlink", "a/b", ".."), Member("symlink", "b/c", ".."),
            Member("symlink", "b/c/d", ".."), Member("file", f"b/c/d/{ESCAPE_PROOF}", "escaped")]


def refused_cases(outside: Path) -> dict[str, list[Member]]:
    """Archives that must be refused whole; `outside` is a path outside the target for absolute names."""
    return {
        "link-chain": chain(),
        "dot-dot": [Member("file", "main.py", "x"), Member("file", "../escaped.txt", "x")],
        "dot-dot-deep": [Member("file", "bot/../../escaped.txt", "x")],
        "absolute-name": [Member("file", str(outside / "absolute.txt"), "x")],
        "symlink-absolute": [Member("dir", "bot"), Member("symlink", "bot/etc", "/etc")],
        "symlink-up": [Member("dir", "bot"), Member("symlink", "bot/up", "../../..")],
        "symlink-to-directory": [Member("dir", "bot"), Member("symlink", "bot/self", ".")],
        "write-through-inner-link": [Member("dir", "sub"), Member("symlink", "alias", "sub"),
                                     Member("file", "alias/x.py", "x")],
        "link-through-link": [Member("dir", "x"), Member("symlink", "x/up", ".."), Member("symlink", "y", "x/up/..")],
        "chardev": [Member("chardev", "bot/null")],
        "fifo": [Member("fifo", "bot/pipe")],
        "hardlink-outside": [Member("hardlink", "bot/passwd", "/etc/passwd")],
        "hardlink-up": [Member("hardlink", "bot/up", "../escaped.txt")],
    }


def bomb(size: int) -> list[Member]:
    """One file of `size` zero bytes (a few KiB compressed)."""
    return [Member("file", "main.py", "print('hi')\n"), Member("zeros", "weights.bin", size=size)]


def many_files(count: int) -> list[Member]:
    return [Member("file", f"f{index}.py", "") for index in range(count)]


def build(path: Path, fmt: str, members: list[Member]) -> Path:
    """Write `members` as a `fmt` archive at `path` (members a format cannot hold are left out)."""
    if fmt == "zip":
        _build_zip(path, members)
    else:
        _build_tar(path, "w:gz" if fmt == "tar.gz" else "w", members)
    return path


def _build_tar(path: Path, mode: str, members: list[Member]) -> None:
    with tarfile.open(path, mode, format=tarfile.PAX_FORMAT) as archive:  # type: ignore[call-overload]
        for member in members:
            info = tarfile.TarInfo(member.name)
            info.mode = member.mode
            source: io.RawIOBase | io.BytesIO | None = None
            if member.kind == "file":
                data = member.extra.encode()
                info.size, source = len(data), io.BytesIO(data)
            elif member.kind == "zeros":
                info.size, source = member.size, Zeros(member.size)
            elif member.kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
            elif member.kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, member.extra
            elif member.kind == "hardlink":
                info.type, info.linkname = tarfile.LNKTYPE, member.extra
            elif member.kind == "chardev":
                info.type, info.devmajor, info.devminor = tarfile.CHRTYPE, 1, 3
            else:
                info.type = tarfile.FIFOTYPE
            archive.addfile(info, source)


def _build_zip(path: Path, members: list[Member]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            info = zipfile.ZipInfo(member.name + ("/" if member.kind == "dir" else ""))
            info.compress_type = zipfile.ZIP_DEFLATED
            kinds = {"file": stat.S_IFREG, "zeros": stat.S_IFREG, "dir": stat.S_IFDIR, "symlink": stat.S_IFLNK,
                     "chardev": stat.S_IFCHR, "fifo": stat.S_IFIFO}
            if member.kind not in kinds:
                continue  # zip has no hard links
            info.external_attr = (kinds[member.kind] | member.mode) << 16
            if member.kind == "zeros":
                with archive.open(info, "w", force_zip64=True) as out:
                    zeros = Zeros(member.size)
                    while chunk := zeros.read(1 << 20):
                        out.write(chunk)
            else:
                archive.writestr(info, member.extra.encode() if member.kind in ("file", "symlink") else b"")


def files_named(root: Path, name: str) -> list[Path]:
    """Every file called `name` under `root`, links not followed."""
    import os

    return [Path(directory) / name for directory, _, files in os.walk(root, followlinks=False) if name in files]
