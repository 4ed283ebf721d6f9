"""Build hook: compiles the engine modules `referee/compiled.py` lists with mypyc where it can.

Everything else about the package is in pyproject.toml. Where mypyc or a C compiler fails, the build
goes on without them (the modules then run as Python) and says why.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent))
from referee import compiled  # noqa: E402 - the standard library only, importable before installing

MYPY_FLAGS = ["--ignore-missing-imports", "--follow-imports=silent", "--python-version=3.11"]


def _warn(message: str) -> None:
    """Say why the engine stays Python, in the build's output and in the record `./scripts/setup` reads."""
    print(f"warning: {message}; the engine runs as Python", file=sys.stderr)
    compiled.write_failure(message)


def _extensions() -> list[Any]:
    """mypyc's extension modules for every compiled module, or none where mypyc cannot make them."""
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _warn(f"mypyc is not installed ({error})")
        return []
    paths = [str(compiled.source_path(module).relative_to(compiled.ROOT)) for module in compiled.MODULES]
    try:
        return mypycify([*MYPY_FLAGS, *paths], opt_level="3", group_name=compiled.GROUP)
    except (Exception, SystemExit) as error:  # mypyc stops with SystemExit on a type error
        _warn(f"mypyc could not compile the engine ({error!r})")
        return []


class BuildCompiled(build_ext):
    """build_ext that records what it compiled, and leaves the engine as Python if compiling fails."""

    def run(self) -> None:
        if not self.extensions:
            return
        compiled.RECORD.unlink(missing_ok=True)
        try:
            super().run()
        except Exception as error:  # a missing or failing C compiler
            _warn(f"compiling the engine failed ({error})")
            return
        compiled.write_record()
        if not self.inplace:  # a wheel: the record travels with the compiled modules
            installed = Path(self.build_lib, *compiled.RECORD.relative_to(compiled.ROOT).parts)
            installed.parent.mkdir(parents=True, exist_ok=True)
            compiled.write_record(installed)


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildCompiled})
