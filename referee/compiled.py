"""The engine modules a build compiles with mypyc, and the guard that runs a changed one as Python.

`setup.py` compiles MODULES where a C compiler is at hand and records each source's SHA-256 in RECORD.
Python imports a compiled module before its .py file, so an edit made after the build would be silently
ignored: when any source no longer matches the record (or B99_PURE_PYTHON=1), `prefer_current_sources`
sends every one of MODULES to its .py file instead. This module uses the standard library only
(`setup.py` reads it before anything is installed).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

#: Merchants of B99's engine: the one engine whose pure-Python speed held its search back (docs/benchmarks.md)
MODULES = (
    "referee.games.merchants.bitboard",
    "referee.games.merchants.patterns",
    "referee.games.merchants.shop",
    "referee.games.merchants.shop_bits",
    "referee.games.merchants.scoring",
    "referee.games.merchants.options",
    "referee.games.merchants.state",
    "referee.games.merchants.views",
)
#: the module name of the library MODULES share once compiled: inside a package, where the strict sandbox binds it
GROUP = "referee.games.merchants.native"
#: the project folder that holds `referee/`
ROOT = Path(__file__).resolve().parent.parent
#: written by a build: {"modules": {module: sha256 of its source}} once compiled, else {"failure": why not}
RECORD = ROOT / "referee" / "compiled.json"
#: set to 1 to run every module of MODULES as Python even where a build compiled it
PURE_PYTHON_ENV = "B99_PURE_PYTHON"


def source_path(module: str) -> Path:
    """The .py file of one of MODULES."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(module: str) -> str:
    """SHA-256 of a module's source as it is now."""
    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def write_record(record: Path | None = None) -> None:
    """Record the sources a build has just compiled (`setup.py`, after every module compiled), in RECORD or `record`."""
    digests = {module: source_digest(module) for module in MODULES}
    (record or RECORD).write_text(json.dumps({"modules": digests}, indent=1) + "\n")


def write_failure(reason: str) -> None:
    """Record why a build left MODULES as Python."""
    RECORD.write_text(json.dumps({"failure": reason}) + "\n")


def build_status() -> str:
    """One line on how MODULES run here, for `./scripts/setup` and the benchmarks."""
    try:
        record = json.loads(RECORD.read_text())
    except (OSError, ValueError):
        return "Merchants of B99 engine: runs as Python, not compiled (no build record)"
    if not isinstance(record, dict) or "modules" not in record:
        failure = str(record.get("failure", "unknown")) if isinstance(record, dict) else "unreadable record"
        failure = failure if len(failure) <= 200 else failure[:200] + "... (the build's output has the rest)"
        return f"Merchants of B99 engine: runs as Python, compiling failed ({failure})"
    if pure_python_asked():
        return f"Merchants of B99 engine: runs as Python, {PURE_PYTHON_ENV} is set"
    changed = changed_modules()
    if changed:
        return f"Merchants of B99 engine: runs as Python, {', '.join(changed)} changed since the build"
    return f"Merchants of B99 engine: compiled with mypyc ({len(MODULES)} modules)"


def changed_modules() -> list[str]:
    """MODULES whose source differs from what the last build compiled (all of them with no record of a build)."""
    try:
        recorded = json.loads(RECORD.read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return list(MODULES)
    return [module for module in MODULES if recorded.get(module) != source_digest(module)]


def pure_python_asked() -> bool:
    """True when B99_PURE_PYTHON asks for every module to run as Python."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules in their .py files, ahead of any compiled build of them."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def prefer_current_sources() -> None:
    """Before MODULES are imported: run them all from source if any changed since the build, and say so.

    All or none: the compiled modules call one another directly, so one module from source beside
    compiled ones would still leave the old code of that module running.
    """
    if any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        return
    if pure_python_asked():
        sys.meta_path.insert(0, _SourceFirst(MODULES))
        return
    changed = changed_modules()
    if not changed:
        return
    sys.meta_path.insert(0, _SourceFirst(MODULES))
    if any(is_built(module) for module in changed):
        warnings.warn(f"{build_status()} (./scripts/setup compiles it again)", RuntimeWarning, stacklevel=2)


def is_built(module: str) -> bool:
    """True if a compiled file of `module` lies beside its source."""
    source = source_path(module)
    return any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def running_compiled() -> list[str]:
    """The MODULES imported so far that run compiled."""
    return [
        module for module in MODULES
        if module in sys.modules and not str(getattr(sys.modules[module], "__file__", "")).endswith(".py")
    ]


def instance_fields(value: object) -> dict[str, Any]:
    """An object's attributes by name: its `__dict__` and, for a class compiled by mypyc, the attributes its
    compiled layout holds apart (`__mypyc_attrs__`), set ones only."""
    fields = dict(vars(value)) if hasattr(value, "__dict__") else {}
    for kind in type(value).__mro__:
        for name in getattr(kind, "__mypyc_attrs__", ()):
            if name != "__dict__" and name not in fields and hasattr(value, name):
                fields[name] = getattr(value, name)
    return fields
