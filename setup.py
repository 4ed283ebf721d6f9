"""Build hook: compiles each module group `referee/compiled.py` lists with mypyc where it can.

Everything else about the package is in pyproject.toml. Each group is compiled on its own: where mypyc or
a C compiler fails for one, the build goes on without it (its modules then run as Python), says why, and
still compiles the others.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent))
from referee import compiled  # noqa: E402 - the standard library only, importable before installing

MYPY_FLAGS = ["--ignore-missing-imports", "--follow-imports=silent", "--python-version=3.11"]


def _warn(group: str, message: str) -> None:
    """Say why a group stays Python, in the build's output and in the record `./scripts/setup` reads."""
    print(f"warning: {message}; the {compiled.LABELS.get(group, group)} run as Python", file=sys.stderr)
    compiled.write_failure(group, message)


def _group_extensions(group: str) -> list[Any]:
    """mypyc's extension modules for one group, or none where mypyc cannot make them."""
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _warn(group, f"mypyc is not installed ({error})")
        return []
    paths = [str(compiled.source_path(module).relative_to(compiled.ROOT)) for module in compiled.GROUPS[group]]
    said = io.StringIO()  # mypy's report (its type errors), passed on and quoted in the record
    try:
        with contextlib.redirect_stdout(said):
            # A build directory per group: each mypyc run writes its own C files and listings.
            return mypycify([*MYPY_FLAGS, *paths], opt_level="3", group_name=group, target_dir=os.path.join("build", group))
    except (Exception, SystemExit) as error:  # mypyc stops with SystemExit on a type error
        errors = [line for line in said.getvalue().splitlines() if ": error:" in line]
        why = f"{errors[0]}{f' and {len(errors) - 1} more' if len(errors) > 1 else ''}" if errors else repr(error)
        _warn(group, f"mypyc could not compile the {compiled.LABELS.get(group, group)} ({why})")
        return []
    finally:
        sys.stdout.write(said.getvalue())


def _extensions() -> list[Any]:
    """Every group's extension modules, each tagged with its group."""
    extensions = []
    for group, modules in compiled.GROUPS.items():
        if not modules:
            continue
        for extension in _group_extensions(group):
            extension.b99_group = group
            extensions.append(extension)
    return extensions


class BuildCompiled(build_ext):
    """build_ext that compiles group by group, records what it compiled, and leaves a group whose C compile
    fails as Python (dropping its extensions, so that nothing of it is installed)."""

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        groups: dict[str, list[Any]] = {}
        for extension in self.extensions:
            groups.setdefault(getattr(extension, "b99_group", ""), []).append(extension)
        built: list[Any] = []
        for group, extensions in groups.items():
            try:
                for extension in extensions:
                    self.build_extension(extension)
            except Exception as error:  # a missing or failing C compiler
                _warn(group, f"compiling the {compiled.LABELS.get(group, group)} failed ({error})")
                continue
            built.extend(extensions)
            compiled.write_record(group)
            if not self.inplace:  # a wheel: the record travels with the compiled modules
                installed = Path(self.build_lib, *compiled.RECORD.relative_to(compiled.ROOT).parts)
                installed.parent.mkdir(parents=True, exist_ok=True)
                compiled.write_record(group, installed)
        self.extensions = built

    def run(self) -> None:
        if not self.extensions:
            return
        super().run()


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildCompiled})
