"""Unpacking archives (uploaded bots, the bot store, backups) so that nothing lands outside the target.

Every supported Python gets the same code path (tarfile's "data" filter is not used: Debian 12's 3.11.2
has none, and the filter of 3.11.4-3.11.12 checks members against a path it resolves before writing,
which links created earlier in the same archive defeat). Members are written one by one with
descriptor-relative calls: every directory on a member's path is opened with O_NOFOLLOW, so an
existing link is never followed while writing, whatever the archive created before. Links are kept
only when they stay inside and point at no directory; devices, pipes and sockets are refused;
set-user/group-id bits are cleared; total size, member count and compression ratio are bounded.
A refusal is one line (`UnsafeMemberError`/`ArchiveLimitError`), and `unpack_archive` keeps nothing
unless every member was accepted.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import lzma
import os
import shutil
import stat
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO

#: True where tarfile has the extraction filters (Python 3.11.4 and later); not relied on (see above)
HAS_DATA_FILTER = hasattr(tarfile, "data_filter")

MiB = 1024 * 1024
CHUNK = 256 * 1024
#: a tar header extension (pax record, GNU long name) larger than this is refused before it is read
MAX_HEADER_BYTES = 64 * 1024
#: more directories than this on one member's path is refused
MAX_DEPTH = 64


class UnsafeMemberError(tarfile.TarError):
    """An archive member that would be written outside the target, or is not a file, directory or safe link."""


class ArchiveLimitError(UnsafeMemberError):
    """An archive that unpacks to too many bytes or members, or expands too much (a decompression bomb)."""


@dataclass(frozen=True)
class ArchiveLimits:
    """Bounds on what one archive may unpack to. The ratio applies once the output passes `ratio_floor`
    bytes (a small archive of text compresses well and is no bomb)."""

    max_total_bytes: int = 512 * MiB
    max_members: int = 10_000
    max_ratio: float = 200.0
    ratio_floor: int = 16 * MiB

    @staticmethod
    def from_environment() -> ArchiveLimits:
        """The defaults, overridden by $B99_ARCHIVE_MAX_BYTES, _MAX_MEMBERS, _MAX_RATIO (an operator's knobs)."""
        defaults = ArchiveLimits()
        return ArchiveLimits(
            max_total_bytes=int(os.environ.get("B99_ARCHIVE_MAX_BYTES") or defaults.max_total_bytes),
            max_members=int(os.environ.get("B99_ARCHIVE_MAX_MEMBERS") or defaults.max_members),
            max_ratio=float(os.environ.get("B99_ARCHIVE_MAX_RATIO") or defaults.max_ratio),
            ratio_floor=defaults.ratio_floor,
        )


@dataclass
class _Budget:
    """What has been unpacked so far, against the limits."""

    limits: ArchiveLimits
    packed_bytes: int | None = None
    members: int = 0
    total_bytes: int = 0
    links: list[str] = field(default_factory=list)

    def count_member(self, name: str) -> None:
        self.members += 1
        if self.members > self.limits.max_members:
            raise ArchiveLimitError(f"more than {self.limits.max_members} members (at {name!r})")

    def count_bytes(self, name: str, size: int) -> None:
        self.total_bytes += size
        if self.total_bytes > self.limits.max_total_bytes:
            raise ArchiveLimitError(f"unpacks to more than {self.limits.max_total_bytes} bytes (at {name!r})")
        if self.packed_bytes and self.total_bytes > max(self.limits.ratio_floor, self.limits.max_ratio * self.packed_bytes):
            raise ArchiveLimitError(
                f"expands more than {self.limits.max_ratio:g} times its {self.packed_bytes} bytes (at {name!r})")


# ---------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class UnpackSummary:
    """What an archive unpacked to."""

    members: int
    total_bytes: int


def unpack_archive(source: Path, target: Path, limits: ArchiveLimits | None = None) -> UnpackSummary:
    """A .zip or .tar(.gz/.bz2/.xz) at `source` unpacked into `target` (which must not exist), or
    nothing at all: members go into a scratch directory beside `target`, renamed into place only when
    every member was accepted. Raises UnsafeMemberError (or ArchiveLimitError) with a one-line reason."""
    limits = limits or ArchiveLimits.from_environment()
    target = Path(target)
    if os.path.lexists(target):
        raise UnsafeMemberError(f"{target} already exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name[:40]}-unpacking-", dir=target.parent))
    try:
        budget = _Budget(limits, packed_bytes=source.stat().st_size)
        if zipfile.is_zipfile(source):
            _unpack_zip(source, staging, budget)
        else:
            with _tar_stream(source, budget) as archive:
                _unpack_tar(archive, staging, budget)
        _check_links(staging)
        staging.chmod(0o755)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return UnpackSummary(budget.members, budget.total_bytes)


def extract_all(archive: tarfile.TarFile, target: Path, limits: ArchiveLimits | None = None) -> None:
    """Every member of an open tar `archive` into `target` (created if missing), refused at the first
    unsafe member. Callers that must keep nothing on refusal pass a fresh scratch `target`."""
    budget = _Budget(limits or ArchiveLimits.from_environment(), packed_bytes=_packed_size(archive))
    Path(target).mkdir(parents=True, exist_ok=True)
    _unpack_tar(archive, Path(target), budget)
    _check_links(Path(target))


def extract_one(archive: tarfile.TarFile, member: tarfile.TarInfo, target: Path,
                limits: ArchiveLimits | None = None) -> None:
    """One member of `archive` into `target`, if it is safe (the same checks as extract_all)."""
    budget = _Budget(limits or ArchiveLimits.from_environment())
    Path(target).mkdir(parents=True, exist_ok=True)
    with _Root(Path(target)) as root:
        _write_tar_member(archive, member, root, budget)


# ---------------------------------------------------------------------------- tar


class _BoundedTarInfo(tarfile.TarInfo):
    """A TarInfo that refuses an oversized header extension before tarfile reads it into memory."""

    def _proc_member(self, tarfile_: tarfile.TarFile):  # type: ignore[no-untyped-def]
        extensions = (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE,
                      tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK)
        if self.type in extensions and self.size > MAX_HEADER_BYTES:
            raise ArchiveLimitError(f"a header extension of {self.size} bytes (more than {MAX_HEADER_BYTES})")
        return super()._proc_member(tarfile_)  # type: ignore[misc]


class _CountingReader:
    """A read-only stream that stops with ArchiveLimitError past `limit` bytes (a bomb is never read whole)."""

    def __init__(self, raw: IO[bytes], limit: int) -> None:
        self.raw, self.limit, self.done = raw, limit, 0

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0 or size > CHUNK * 4:
            size = CHUNK * 4
        data = self.raw.read(size)
        self.done += len(data)
        if self.done > self.limit:
            raise ArchiveLimitError(f"the archive's data passes {self.limit} bytes")
        return data

    def close(self) -> None:
        self.raw.close()


@contextmanager
def _tar_stream(source: Path, budget: _Budget) -> Iterator[tarfile.TarFile]:
    """`source` opened as a tar stream, decompressed by us so that its size is counted as it is read."""
    with open(source, "rb") as raw:
        magic = raw.read(6)
        raw.seek(0)
        stream: IO[bytes]
        if magic.startswith(b"\x1f\x8b"):
            stream = gzip.GzipFile(fileobj=raw, mode="rb")
        elif magic.startswith(b"BZh"):
            stream = bz2.BZ2File(raw, mode="rb")
        elif magic.startswith(b"\xfd7zXZ\x00"):
            stream = lzma.LZMAFile(raw, mode="rb")
        else:
            stream = raw
        # headers and padding on top of the files' bytes: a generous allowance, still bounded
        allowance = budget.limits.max_total_bytes + (budget.limits.max_members + 16) * (3 * 512 + 2 * MAX_HEADER_BYTES // 8)
        counted = _CountingReader(stream, allowance)
        try:
            archive = tarfile.open(fileobj=counted, mode="r|", tarinfo=_BoundedTarInfo)  # type: ignore[arg-type]
        except UnsafeMemberError:
            raise
        except tarfile.TarError as error:
            raise UnsafeMemberError(f"not a .zip or .tar archive ({error})") from None
        with archive:
            yield archive


def _packed_size(archive: tarfile.TarFile) -> int | None:
    """The size of an open archive's underlying file or buffer, when it can be told."""
    inner: object = archive.fileobj
    for _ in range(4):
        getbuffer = getattr(inner, "getbuffer", None)
        if getbuffer is not None:
            with getbuffer() as view:
                return len(view)
        fileno = getattr(inner, "fileno", None)
        if fileno is not None:
            try:
                return os.fstat(fileno()).st_size
            except (OSError, ValueError, AttributeError):
                pass
        inner = getattr(inner, "fileobj", None)
        if inner is None:
            return None
    return None


def _unpack_tar(archive: tarfile.TarFile, target: Path, budget: _Budget) -> None:
    with _Root(target) as root:
        try:
            while True:
                member = archive.next()
                if member is None:
                    break
                _write_tar_member(archive, member, root, budget)
        except (EOFError, zlib_errors(), lzma.LZMAError) as error:
            raise UnsafeMemberError(f"a damaged archive ({error})") from None
        except tarfile.ReadError as error:
            if isinstance(error, UnsafeMemberError):
                raise
            raise UnsafeMemberError(f"a damaged archive ({error})") from None


def zlib_errors() -> type[Exception]:
    import zlib

    return zlib.error


def _write_tar_member(archive: tarfile.TarFile, member: tarfile.TarInfo, root: _Root, budget: _Budget) -> None:
    budget.count_member(member.name)
    parts = _parts(member.name)
    if member.isdir():
        if parts:
            root.make_dir(parts, member.mode)
    elif member.isreg():
        if not parts:
            raise UnsafeMemberError(f"{member.name!r}: a file with no name")
        source = archive.extractfile(member)
        if source is None:
            raise UnsafeMemberError(f"{member.name!r}: unreadable file member")
        with source:
            root.write_file(parts, source, member.mode, budget, mtime=member.mtime)
    elif member.issym():
        root.make_symlink(parts, member.linkname, budget)
    elif member.islnk():
        root.make_hardlink(parts, _parts(member.linkname), budget)
    else:
        raise UnsafeMemberError(f"{member.name!r} is a device, pipe or other special file")


# ---------------------------------------------------------------------------- zip


def _unpack_zip(source: Path, target: Path, budget: _Budget) -> None:
    try:
        with open(source, "rb") as raw:
            end = zipfile._EndRecData(raw)  # type: ignore[attr-defined]  # the count before reading the directory
        if end is not None and end[zipfile._ECD_ENTRIES_TOTAL] > budget.limits.max_members:  # type: ignore[attr-defined]
            raise ArchiveLimitError(f"more than {budget.limits.max_members} members "
                                    f"({end[zipfile._ECD_ENTRIES_TOTAL]} listed)")  # type: ignore[attr-defined]
        with zipfile.ZipFile(source) as archive, _Root(target) as root:
            for info in archive.infolist():
                budget.count_member(info.filename)
                _write_zip_member(archive, info, root, budget)
    except zipfile.BadZipFile as error:
        raise UnsafeMemberError(f"a damaged zip archive ({error})") from None
    except (RuntimeError, NotImplementedError, EOFError, zlib_errors(), lzma.LZMAError) as error:
        raise UnsafeMemberError(f"an unreadable zip member ({error})") from None


def _write_zip_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, root: _Root, budget: _Budget) -> None:
    parts = _parts(info.filename)
    mode = info.external_attr >> 16
    kind = stat.S_IFMT(mode)
    if info.is_dir():
        if parts:
            root.make_dir(parts, (mode & 0o7777) or 0o755)
        return
    if kind not in (0, stat.S_IFREG, stat.S_IFLNK):
        raise UnsafeMemberError(f"{info.filename!r} is a device, pipe or other special file")
    if not parts:
        raise UnsafeMemberError(f"{info.filename!r}: a file with no name")
    if info.compress_size and info.file_size / info.compress_size > budget.limits.max_ratio \
            and info.file_size > budget.limits.ratio_floor:
        raise ArchiveLimitError(f"{info.filename!r} expands more than {budget.limits.max_ratio:g} times")
    if kind == stat.S_IFLNK:
        if info.file_size > MAX_HEADER_BYTES:
            raise UnsafeMemberError(f"{info.filename!r}: a link target of {info.file_size} bytes")
        linkname = archive.read(info).decode("utf-8", "surrogateescape")
        root.make_symlink(parts, linkname, budget)
        return
    with archive.open(info) as source:
        root.write_file(parts, source, (mode & 0o7777) or 0o644, budget)


# ---------------------------------------------------------------------------- writing, descriptor by descriptor


def _parts(name: str) -> list[str]:
    """A member name as path components, refused if it is absolute or climbs with '..'."""
    if "\x00" in name:
        raise UnsafeMemberError(f"{name!r}: a name with a NUL byte")
    if name.startswith("/") or PurePosixPath(name).is_absolute():
        raise UnsafeMemberError(f"{name!r}: an absolute name")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise UnsafeMemberError(f"{name!r}: a name that climbs out with '..'")
    if len(parts) > MAX_DEPTH:
        raise UnsafeMemberError(f"{name!r}: more than {MAX_DEPTH} directories deep")
    return parts


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _file_mode(mode: int) -> int:
    """No set-user/group-id, sticky or group/other write bits; the owner may read and write."""
    return (mode & 0o755) | 0o600


def _dir_mode(mode: int) -> int:
    return (mode & 0o755) | 0o700


class _Root:
    """The target directory, held open; every member is placed relative to its descriptor."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> _Root:
        self.fd = os.open(self.path, _DIR_FLAGS)
        return self

    def __exit__(self, *_: object) -> None:
        os.close(self.fd)

    def _parent(self, parts: list[str], name: str, *, create: bool = True) -> int:
        """A descriptor of the directory holding parts[-1], creating missing directories; refused when
        any step is a link or not a directory (never followed)."""
        fd = os.dup(self.fd)
        try:
            for part in parts[:-1]:
                try:
                    child = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        raise UnsafeMemberError(f"{name!r}: no such member to link to") from None
                    os.mkdir(part, 0o700, dir_fd=fd)
                    child = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except OSError as error:
                    if error.errno in (errno.ELOOP, errno.ENOTDIR):
                        raise UnsafeMemberError(f"{name!r}: its path goes through a link or a file ({part!r})") from None
                    raise
                os.close(fd)
                fd = child
            return fd
        except BaseException:
            os.close(fd)
            raise

    def _clear(self, parent: int, leaf: str, name: str) -> None:
        """Room for a new entry named `leaf`: an earlier file or link of that name is removed (not
        followed); a directory is never replaced."""
        try:
            existing = os.stat(leaf, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            return
        if stat.S_ISDIR(existing.st_mode):
            raise UnsafeMemberError(f"{name!r} would replace a directory")
        os.unlink(leaf, dir_fd=parent)

    def make_dir(self, parts: list[str], mode: int) -> None:
        name = "/".join(parts)
        parent = self._parent(parts, name)
        try:
            try:
                os.mkdir(parts[-1], 0o700, dir_fd=parent)
            except FileExistsError:
                pass
            try:
                fd = os.open(parts[-1], _DIR_FLAGS, dir_fd=parent)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise UnsafeMemberError(f"{name!r}: a directory where a link or file already is") from None
                raise
            try:
                os.fchmod(fd, _dir_mode(mode))
            finally:
                os.close(fd)
        finally:
            os.close(parent)

    def write_file(self, parts: list[str], source: BinaryIO | IO[bytes], mode: int, budget: _Budget,
                   *, mtime: float | None = None) -> None:
        name = "/".join(parts)
        parent = self._parent(parts, name)
        try:
            self._clear(parent, parts[-1], name)
            fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600, dir_fd=parent)
            try:
                while True:
                    chunk = source.read(CHUNK)
                    if not chunk:
                        break
                    budget.count_bytes(name, len(chunk))
                    view = memoryview(chunk)
                    while view:
                        written = os.write(fd, view)
                        view = view[written:]
                os.fchmod(fd, _file_mode(mode))
                if mtime is not None:
                    os.utime(fd, (mtime, mtime))
            finally:
                os.close(fd)
        finally:
            os.close(parent)

    def make_symlink(self, parts: list[str], linkname: str, budget: _Budget) -> None:
        name = "/".join(parts)
        if not parts:
            raise UnsafeMemberError(f"{name!r}: a link with no name")
        if not linkname or "\x00" in linkname or linkname.startswith("/"):
            raise UnsafeMemberError(f"{name!r} links outside the target directory ({linkname!r})")
        # lexically, from the link's own directory: a target that climbs above the top is refused now;
        # what the target really is (through other links) is checked on the finished tree (_check_links)
        depth = len(parts) - 1
        for part in linkname.split("/"):
            if part == "..":
                depth -= 1
                if depth < 0:
                    raise UnsafeMemberError(f"{name!r} links outside the target directory ({linkname!r})")
            elif part not in ("", "."):
                depth += 1
        parent = self._parent(parts, name)
        try:
            self._clear(parent, parts[-1], name)
            os.symlink(linkname, parts[-1], dir_fd=parent)
        finally:
            os.close(parent)
        budget.links.append(name)

    def make_hardlink(self, parts: list[str], source_parts: list[str], budget: _Budget) -> None:
        name = "/".join(parts)
        if not parts or not source_parts:
            raise UnsafeMemberError(f"{name!r}: a hard link with no name or target")
        source_name = "/".join(source_parts)
        source_parent = self._parent(source_parts, name, create=False)
        try:
            try:
                found = os.stat(source_parts[-1], dir_fd=source_parent, follow_symlinks=False)
            except FileNotFoundError:
                raise UnsafeMemberError(f"{name!r}: links to {source_name!r}, not in the archive before it") from None
            if not stat.S_ISREG(found.st_mode):
                raise UnsafeMemberError(f"{name!r}: a hard link to {source_name!r}, which is not a plain file")
            budget.count_bytes(name, found.st_size)  # copies of the tree write it again
            parent = self._parent(parts, name)
            try:
                self._clear(parent, parts[-1], name)
                os.link(source_parts[-1], parts[-1], src_dir_fd=source_parent, dst_dir_fd=parent,
                        follow_symlinks=False)
            finally:
                os.close(parent)
        finally:
            os.close(source_parent)


def check_tree(root: Path) -> None:
    """UnsafeMemberError unless every link under `root` resolves inside it and to no directory, and it
    holds no device, pipe or socket (for a bot directory copied as it is)."""
    _check_links(root)
    for directory, subdirectories, files in os.walk(root, followlinks=False):
        for entry in subdirectories + files:
            mode = os.lstat(os.path.join(directory, entry)).st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
                relative = os.path.relpath(os.path.join(directory, entry), root)
                raise UnsafeMemberError(f"{relative!r} is a device, pipe or other special file")


def _check_links(root: Path) -> None:
    """Every link in the finished tree resolves inside it and to no directory (links to links included)."""
    top = os.path.realpath(root)
    for directory, subdirectories, files in os.walk(top, followlinks=False):
        for entry in subdirectories + files:
            path = os.path.join(directory, entry)
            if not os.path.islink(path):
                continue
            resolved = os.path.realpath(path)
            relative = os.path.relpath(path, top)
            if not (resolved == top or resolved.startswith(top + os.sep)):
                raise UnsafeMemberError(f"{relative!r} links outside the target directory ({os.readlink(path)!r})")
            if os.path.isdir(resolved):
                raise UnsafeMemberError(f"{relative!r} links to a directory ({os.readlink(path)!r})")
