"""Shared helpers of the polyglot tests: which game to play, toolchain checks, process bots."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from referee.clock import TimeControl
from referee.match import BotSpec, MatchReport
from referee.registry import game_ids

ROOT = Path(__file__).resolve().parents[2]
JS_SDK = ROOT / "sdk" / "js"
CPP_SDK = ROOT / "sdk" / "cpp"
PROCESS_CLOCK = TimeControl(per_decision_seconds=5.0, bank_seconds=10.0, startup_seconds=30.0)


def test_game() -> str:
    """The game the cross-language tests play: Underground Dice when present, else the first registered."""
    ids = game_ids()
    if not ids:
        pytest.skip("no game is registered")
    return "underground_dice" if "underground_dice" in ids else ids[0]


test_game.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def node_or_skip() -> str:
    """The node executable with the JS SDK's packages installed, or skip (CI installs both)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    if not (JS_SDK / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.skip("the JS SDK's packages are not installed (npm ci --prefix sdk/js)")
    return node


def python_bot(name: str, *module_and_args: str) -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, "-m", *module_and_args))


def assert_clean(report: MatchReport) -> None:
    """Every seat played its own game to the end: no fault, nobody replaced, valid ranks."""
    for seat in report.seats:
        assert not seat.faults, json.dumps(seat.to_json(), indent=1)
        assert not seat.replaced
    assert min(report.ranks) == 1 and len(report.ranks) == len(report.seats)
    assert report.decisions > 0
