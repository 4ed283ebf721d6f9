"""A bot author's machine for the tests: a fresh virtual environment holding only the SDK's wheel
and its two dependencies, grpcio and protobuf (taken from this installation, so no network is
needed), with its own HOME and config directory."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path



def _closure(names: list[str]) -> list[importlib.metadata.Distribution]:
    """The distributions `names` need, with theirs (markers for extras left out), as installed here."""
    from packaging.requirements import Requirement

    found: dict[str, importlib.metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in found:
            continue
        distribution = importlib.metadata.distribution(name)
        found[name] = distribution
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(found.values())


def dependency_site(target: Path, names: tuple[str, ...] = ("grpcio", "protobuf")) -> Path:
    """A directory holding `names` and what they need (links to this installation's copies, with
    their metadata), and nothing else."""
    target.mkdir(parents=True, exist_ok=True)
    for distribution in _closure(list(names)):
        tops = {Path(str(file)).parts[0] for file in distribution.files or [] if not str(file).startswith("..")}
        for top in tops:
            source = Path(str(distribution.locate_file(top)))
            if top == "google":  # a namespace shared by several distributions: link only this one's packages
                (target / "google").mkdir(exist_ok=True)
                for inner in {Path(str(file)).parts[1] for file in distribution.files or [] if Path(str(file)).parts[0] == "google"}:
                    if not (target / "google" / inner).exists():
                        (target / "google" / inner).symlink_to(source / inner)
            elif source.exists() and not (target / top).exists() and top != "__pycache__":
                (target / top).symlink_to(source)
    return target


@dataclass
class Stranger:
    """A machine with only the SDK wheel: its Python, its b99, its environment."""

    root: Path
    venv: Path

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def b99(self) -> str:
        return str(self.venv / "bin" / "b99")

    def env(self, **extra: str) -> dict[str, str]:
        """A plain environment whose PATH starts with the venv (as an activated one), with its own HOME."""
        keep = {key: value for key, value in os.environ.items() if key in ("LANG", "LC_ALL", "TMPDIR")}
        path = f"{self.venv / 'bin'}:/usr/local/bin:/usr/bin:/bin"
        return {**keep, "PATH": path, "HOME": str(self.root / "home"), "XDG_CONFIG_HOME": str(self.root / "home" / ".config"),
                "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}

    def run(self, *argv: str, check: bool = True, timeout: float = 240, **extra: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([self.b99, *argv], env=self.env(**extra), cwd=self.root / "home", capture_output=True,
                                text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError(f"b99 {' '.join(argv)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
        return result


def make_stranger(root: Path, wheel: Path | str | None) -> Stranger:
    """A fresh venv in `root` with the wheel installed (a local file or a URL; None: not yet). pip
    resolves its dependencies without an index: they are already on the venv's path."""
    venv = root / "venv"
    (root / "home").mkdir(parents=True, exist_ok=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=180)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "b99-deps.pth").write_text(str(dependency_site(root / "deps")) + "\n")
    if wheel is not None:
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check", "--no-index", str(wheel)],
                       check=True, capture_output=True, timeout=180, cwd=root)
    return Stranger(root, venv)
