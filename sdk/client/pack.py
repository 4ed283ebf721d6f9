"""Packing a bot's folder for upload: a gzipped tar of its files, leaving out what `.b99ignore`
names (one pattern a line, as in .gitignore: `#` comments, `dir/` for directories, `*` wildcards)."""

from __future__ import annotations

import fnmatch
import io
import tarfile
from pathlib import Path

IGNORE_FILE = ".b99ignore"
#: Left out of every upload.
ALWAYS_IGNORED = (".git/", "__pycache__/", "*.pyc", ".venv/", ".b99ignore")


class PackError(ValueError):
    """A folder that cannot be packed (missing, empty, over the size limit)."""


def ignore_patterns(folder: Path) -> list[str]:
    """The folder's .b99ignore patterns after the ones always left out."""
    path = folder / IGNORE_FILE
    lines = path.read_text().splitlines() if path.is_file() else []
    return [*ALWAYS_IGNORED, *(line.strip() for line in lines if line.strip() and not line.strip().startswith("#"))]


def is_ignored(relative: str, is_dir: bool, patterns: list[str]) -> bool:
    """Whether a path (relative, with /) matches a pattern: a pattern with a / is matched against the
    whole path (from the top), one without against every name in it."""
    for pattern in patterns:
        directory_only = pattern.endswith("/")
        pattern = pattern.rstrip("/")
        if directory_only and not is_dir:
            continue
        if "/" in pattern:
            if fnmatch.fnmatch(relative, pattern.lstrip("/")):
                return True
        elif fnmatch.fnmatch(relative.rsplit("/", 1)[-1], pattern):
            return True
    return False


def pack_folder(folder: Path, limit: int | None = None) -> tuple[bytes, list[str]]:
    """The folder's files as .tar.gz bytes, and the names packed; PackError if nothing is left or
    the archive is over `limit` bytes."""
    folder = Path(folder)
    if not folder.is_dir():
        raise PackError(f"{folder}: not a folder")
    patterns = ignore_patterns(folder)
    packed: list[str] = []
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        stack = [folder]
        while stack:
            directory = stack.pop()
            for path in sorted(directory.iterdir()):
                relative = path.relative_to(folder).as_posix()
                if is_ignored(relative, path.is_dir() and not path.is_symlink(), patterns):
                    continue
                if path.is_symlink():
                    raise PackError(f"{relative}: a symbolic link; copy the file in instead")
                if path.is_dir():
                    stack.append(path)
                    continue
                if not path.is_file():
                    continue
                info = archive.gettarinfo(str(path), arcname=relative)
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                with path.open("rb") as file:
                    archive.addfile(info, file)
                packed.append(relative)
    if not packed:
        raise PackError(f"{folder}: no files to send (all ignored?)")
    data = buffer.getvalue()
    if limit is not None and len(data) > limit:
        raise PackError(f"{folder}: packed to {len(data)} bytes, over the ladder's {limit}; leave files out with {IGNORE_FILE}")
    return data, sorted(packed)
