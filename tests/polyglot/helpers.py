"""Shared helpers of the polyglot tests: which game to play, toolchain checks, process bots."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from referee.clock import TimeControl
from referee.match import BotSpec, MatchReport
from referee.registry import game_ids

ROOT = Path(__file__).resolve().parents[2]
JS_SDK = ROOT / "sdk" / "js"
CPP_SDK = ROOT / "sdk" / "cpp"
GO_SDK = ROOT / "sdk" / "go"
PROCESS_CLOCK = TimeControl(per_decision_seconds=5.0, bank_seconds=10.0, startup_seconds=30.0)


def test_game() -> str:
    """The game the cross-language tests play: Underground Dice when present, else the first registered."""
    ids = game_ids()
    if not ids:
        pytest.skip("no game is registered")
    return "underground_dice" if "underground_dice" in ids else ids[0]


test_game.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def node_or_skip() -> str:
    """The node executable with the JS SDK's packages installed (`npm ci --prefix sdk/js` once if
    they are missing and npm is there); skips only when Node itself is absent."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    installed = JS_SDK / "node_modules" / "@grpc" / "grpc-js"
    if not installed.is_dir():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed, and the JS SDK's packages are missing")
        with open(Path(tempfile.gettempdir()) / "b99-npm-ci.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers: one install at a time
            if not installed.is_dir():
                completed = subprocess.run(
                    [npm, "ci", "--prefix", str(JS_SDK), "--no-audit", "--no-fund"],
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                assert completed.returncode == 0, completed.stderr[-3000:]
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


def build_go_bot() -> Path:
    """sdk/go's example bot, built once per source hash (Debian's Go packages, no module proxy); skips
    when the toolchain is absent."""
    import hashlib

    missing = [tool for tool in ("go", "make", "protoc", "protoc-gen-go", "protoc-gen-go-grpc") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"Go toolchain missing: {', '.join(missing)} (see .ci/apt-packages.txt)")
    digest = hashlib.sha256()
    for source in [GO_SDK / "Makefile", *sorted(GO_SDK.glob("*.go")), *sorted((ROOT / "proto" / "b99").rglob("*.proto"))]:
        digest.update(source.relative_to(ROOT).as_posix().encode())
        digest.update(source.read_bytes())
    build = Path(tempfile.gettempdir()) / f"b99-go-{digest.hexdigest()[:16]}"
    binary = build / "random_bot"
    if not binary.exists():
        completed = subprocess.run(["make", "-C", str(GO_SDK), f"BUILD={build}"], capture_output=True, text=True, timeout=900)
        assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-4000:]
    return binary
