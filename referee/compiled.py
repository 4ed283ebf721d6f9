"""The module groups a build compiles with mypyc, and the guard that runs a changed group as Python.

`setup.py` compiles each group of GROUPS into its own shared library where a C compiler is at hand and
records each group's sources (SHA-256) in RECORD, or why the group stayed Python. Python imports a compiled
module before its .py file, so an edit made after the build would be silently ignored: the guard
(`install_guard`, run by `import referee`) sends every module of a group to its .py file when any of that
group's sources no longer matches the record (or B99_PURE_PYTHON=1), decided at the first import of one of
the group's modules. Groups are independent: one that failed to compile or changed runs as Python while the
others stay compiled. This module uses the standard library only (`setup.py` reads it before anything is
installed) and does no file I/O until a group's module is imported (`b99 --version` stays cheap).

To compile a module at set-up, add its name to its group in GROUPS (one line); the module must type-check
under mypy (mypyc enforces annotations at run time) and its package must import `referee` before it loads.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

#: Merchants of B99's engine: the one engine whose pure-Python speed held its search back (docs/benchmarks.md), and its
#: View writer (wire.py), which reads the engine's state: compiled with it, its reads of the state's fields are direct
MERCHANTS = "referee.games.merchants.native"
#: what writes a decision request's bytes: the arena's wire helpers, messages, and each game's view writer (but
#: Merchants of B99's, in MERCHANTS)
WRITERS = "referee.writers"
#: the training environments' hot path (sdk/envs/)
ENVS = "sdk.envs.native"

#: group -> the modules compiled together into it. A group's name is the module name of the shared library its
#: modules share once compiled: it lies inside a package, where the strict sandbox binds the project.
GROUPS: dict[str, tuple[str, ...]] = {
    MERCHANTS: (
        "referee.games.merchants.bitboard",
        "referee.games.merchants.patterns",
        "referee.games.merchants.shop",
        "referee.games.merchants.shop_bits",
        "referee.games.merchants.scoring",
        "referee.games.merchants.options",
        "referee.games.merchants.state",
        "referee.games.merchants.views",
        "referee.games.merchants.wire",
    ),
    WRITERS: (
        "referee.wire",
        "referee.messages",
        "referee.games.deep_dive.wire",
        "referee.games.fuji99.wire",
        "referee.games.magnificent.wire",
        "referee.games.merchants.event_wire",
        "referee.games.underground_dice.wire",
    ),
    ENVS: (
        "sdk.envs.table",
        "sdk.envs.actions",
        "sdk.envs.encoding",
        "sdk.envs.state_encoders.parts",
        "sdk.envs.state_encoders.deep_dive",
        "sdk.envs.state_encoders.fuji99",
        "sdk.envs.state_encoders.magnificent",
        "sdk.envs.state_encoders.merchants",
        "sdk.envs.state_encoders.underground_dice",
    ),
}
#: how `build_status` names each group
LABELS = {MERCHANTS: "Merchants of B99 engine", WRITERS: "request writers", ENVS: "training environments"}
#: every compiled module, of all groups
MODULES = tuple(module for modules in GROUPS.values() for module in modules)
#: the project folder that holds `referee/`
ROOT = Path(__file__).resolve().parent.parent
#: written by a build: {"groups": {group: {"modules": {module: sha256 of its source}} or {"failure": why not}}}
RECORD = ROOT / "referee" / "compiled.json"
#: set to 1 to run every module of every group as Python even where a build compiled it
PURE_PYTHON_ENV = "B99_PURE_PYTHON"


def group_of(module: str) -> str | None:
    """The group `module` is compiled in, or None."""
    for group, modules in GROUPS.items():
        if module in modules:
            return group
    return None


def source_path(module: str) -> Path:
    """The .py file of one of MODULES."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(module: str) -> str:
    """SHA-256 of a module's source as it is now."""
    import hashlib

    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def read_record(record: Path | None = None) -> dict[str, dict[str, Any]]:
    """Each group's entry in the build record ({} where there is no readable record)."""
    import json

    try:
        data = json.loads((record or RECORD).read_text())
    except (OSError, ValueError):
        return {}
    groups = data.get("groups") if isinstance(data, dict) else None
    return {name: entry for name, entry in groups.items() if isinstance(entry, dict)} if isinstance(groups, dict) else {}


def _write_entry(group: str, entry: dict[str, Any], record: Path | None = None) -> None:
    import json

    groups = {name: value for name, value in read_record(record).items() if name in GROUPS}
    groups[group] = entry
    (record or RECORD).write_text(json.dumps({"groups": groups}, indent=1) + "\n")


def write_record(group: str, record: Path | None = None) -> None:
    """Record the sources of `group` a build has just compiled (`setup.py`), in RECORD or `record`."""
    _write_entry(group, {"modules": {module: source_digest(module) for module in GROUPS[group]}}, record)


def write_failure(group: str, reason: str) -> None:
    """Record why a build left `group` as Python."""
    _write_entry(group, {"failure": reason})


def build_status(group: str | None = None) -> str:
    """One line on how `group` runs here, for `./scripts/setup` and the benchmarks; with no group, every group
    that lists modules, joined by "; "."""
    if group is None:
        return "; ".join(build_status(name) for name, modules in GROUPS.items() if modules)
    label = LABELS.get(group, group)
    if not GROUPS[group]:
        return f"{label}: nothing listed to compile (referee/compiled.py)"
    entry = read_record().get(group)
    if entry is None:
        return f"{label}: runs as Python, not compiled (no build record)"
    if "modules" not in entry:
        failure = str(entry.get("failure", "unknown"))
        failure = failure if len(failure) <= 200 else failure[:200] + "... (the build's output has the rest)"
        return f"{label}: runs as Python, compiling failed ({failure})"
    if pure_python_asked():
        return f"{label}: runs as Python, {PURE_PYTHON_ENV} is set"
    changed = changed_modules(group)
    if changed:
        return f"{label}: runs as Python, {', '.join(changed)} changed since the build"
    return f"{label}: compiled with mypyc ({len(GROUPS[group])} modules)"


def changed_modules(group: str) -> list[str]:
    """The modules of `group` whose source differs from what the last build compiled (all of them when the
    build did not compile the group)."""
    recorded = read_record().get(group, {}).get("modules")
    if not isinstance(recorded, dict):
        return list(GROUPS[group])
    return [module for module in GROUPS[group] if recorded.get(module) != source_digest(module)]


def pure_python_asked() -> bool:
    """True when B99_PURE_PYTHON asks for every module to run as Python."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


class _Guard:
    """On `sys.meta_path`, ahead of the path finders: at the first import of a group's module, decides whether
    the group runs compiled or from source, and then finds each module of a group run from source in its .py
    file (ahead of any compiled build of it). A module of no group costs one dict lookup."""

    def __init__(self) -> None:
        #: group -> True when it runs from source, once decided
        self.from_source: dict[str, bool] = {}
        self.group_of = {module: group for group, modules in GROUPS.items() for module in modules}

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> Any:  # noqa: ANN401 - a ModuleSpec
        group = self.group_of.get(fullname)
        if group is None:
            return None
        from_source = self.from_source.get(group)
        if from_source is None:
            from_source = self.from_source[group] = runs_from_source(group)
        if not from_source:
            return None
        import importlib.util

        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def runs_from_source(group: str) -> bool:
    """Whether `group` must run from source here (B99_PURE_PYTHON, or a source changed since the build);
    warns when a compiled build of a changed module would otherwise have run.

    All or none: a group's compiled modules call one another directly, so one module from source beside
    compiled ones would still leave the old code of that module running."""
    if pure_python_asked():
        return True
    changed = changed_modules(group)
    if not changed:
        return False
    if any(is_built(module) for module in changed):
        import warnings

        warnings.warn(f"{build_status(group)} (./scripts/setup compiles it again)", RuntimeWarning, stacklevel=3)
    return True


def install_guard() -> None:
    """Put the guard on `sys.meta_path` (once); `import referee` does, before any module of a group can load."""
    if not any(isinstance(finder, _Guard) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Guard())


#: the name the Merchants package calls the guard by
prefer_current_sources = install_guard


def is_built(module: str) -> bool:
    """True if a compiled file of `module` lies beside its source."""
    import importlib.machinery

    source = source_path(module)
    return any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def running_compiled(group: str | None = None) -> list[str]:
    """The modules of `group` (of every group when None) imported so far that run compiled."""
    modules = MODULES if group is None else GROUPS[group]
    return [
        module for module in modules
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
