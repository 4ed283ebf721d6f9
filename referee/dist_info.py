"""A distribution's version and the entry points of a group, read from the installed `.dist-info` files.

`importlib.metadata` answers the same questions but its import alone costs more than the rest of
`b99 --version`; these two answers need only a directory listing and two small text files
(the formats are the packaging specifications' METADATA and entry_points.txt). Distributions are
looked up as importlib.metadata does: along sys.path, the first of a name wins.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def distributions() -> Iterator[tuple[str, Path]]:
    """(normalized name, .dist-info directory) of each installed distribution, first on sys.path first."""
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            if not name.endswith(".dist-info"):
                continue
            project = _normalized(name[: -len(".dist-info")].split("-", 1)[0])
            if project not in seen:
                seen.add(project)
                yield project, Path(entry or ".", name)


def version(distribution: str) -> str | None:
    """The installed version of `distribution`, or None if it is not installed."""
    wanted = _normalized(distribution)
    for project, path in distributions():
        if project != wanted:
            continue
        try:
            with open(path / "METADATA", encoding="utf-8") as metadata:
                for line in metadata:
                    if line.startswith("Version:"):
                        return line.partition(":")[2].strip()
                    if not line.strip():
                        break
        except OSError:
            return None
    return None


def entry_points(group: str) -> dict[str, str]:
    """name -> "module:attribute" of every entry point in `group`, over all installed distributions."""
    found: dict[str, str] = {}
    for _, path in distributions():
        try:
            text = (path / "entry_points.txt").read_text(encoding="utf-8")
        except OSError:
            continue
        section = ""
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1].strip()
            elif section == group and "=" in line:
                name, _, value = line.partition("=")
                found.setdefault(name.strip(), value.strip())
    return found
