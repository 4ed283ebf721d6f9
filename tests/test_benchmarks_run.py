"""`python -m benchmarks.run` (scripts/bench): every benchmark module it collects can report, and hand-written notes survive."""

from __future__ import annotations

import importlib
from pathlib import Path

from benchmarks.run import NOTES_HEADING, ROOT, kept_notes


def test_every_collected_benchmark_module_has_a_run_section() -> None:
    """benchmarks.run imports every benchmarks/bench_*.py and calls its `run(quick=...)`: each must have one."""
    modules = sorted((ROOT / "benchmarks").glob("bench_*.py"))
    assert modules
    for path in modules:
        module = importlib.import_module(f"benchmarks.{path.stem}")
        assert callable(getattr(module, "run", None)), f"{path.name} has no run(quick) for benchmarks.run"


def test_notes_below_their_heading_are_kept(tmp_path: Path) -> None:
    written = tmp_path / "benchmarks.md"
    written.write_text(f"# Benchmarks\n\n| old | table |\n\n{NOTES_HEADING}\n\nMeasured by hand.\n", encoding="utf-8")
    assert kept_notes(written) == f"{NOTES_HEADING}\n\nMeasured by hand.\n"
    assert kept_notes(tmp_path / "missing.md") == ""


def test_the_benchmarks_file_keeps_its_notes() -> None:
    """docs/benchmarks.md holds the comparisons written by hand under the heading a new run keeps."""
    assert NOTES_HEADING in (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
