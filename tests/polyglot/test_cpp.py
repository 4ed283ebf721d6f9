"""The C++ example bot (Debian's gRPC packages) plays whole games against Python bots over the protocol.

The build is cached in a directory under the system's temp dir named by a hash of its sources, so
only the first run after a change compiles (about a minute on two cores).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from referee.match import BotSpec, MatchSpec, run_match
from tests.polyglot.helpers import CPP_SDK, PROCESS_CLOCK, ROOT, assert_clean, python_bot, test_game

TOOLS = ("g++", "make", "protoc", "grpc_cpp_plugin", "pkg-config")


def build_cpp_bot() -> Path:
    """The compiled example bot, built once per source hash; skips when the toolchain is absent."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"C++ toolchain missing: {', '.join(missing)} (see .ci/apt-packages.txt)")
    if subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf"]).returncode != 0:
        pytest.skip("libgrpc++-dev / libprotobuf-dev are not installed")
    sources = [CPP_SDK / "Makefile", CPP_SDK / "random_bot.cc", *sorted((ROOT / "proto" / "b99").rglob("*.proto"))]
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.relative_to(ROOT).as_posix().encode())
        digest.update(source.read_bytes())
    build = Path(tempfile.gettempdir()) / f"b99-cpp-{digest.hexdigest()[:16]}"
    binary = build / "random_bot"
    if not binary.exists():
        completed = subprocess.run(
            ["make", "-C", str(CPP_SDK), f"BUILD={build}", "-j2", "CXXFLAGS=-O1 -std=c++17 -Wall"],
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-4000:]
    return binary


def test_cpp_example_bot_plays_whole_games_against_python_bots() -> None:
    binary = build_cpp_bot()
    game = test_game()
    for seed, transport in ((3, "unix"), (4, "tcp")):
        cpp = BotSpec(name="random-cpp", command=(str(binary),), env={"B99_BOT_SEED": str(seed)})
        python = python_bot("random", "bots", "random")
        bots = [cpp, python] if seed % 2 else [python, cpp]
        report = run_match(MatchSpec(game=game, bots=bots, seed=seed, time_control=PROCESS_CLOCK, transport=transport))
        assert_clean(report)
        cpp_seat = next(seat for seat in report.seats if seat.name == "random-cpp")
        assert f"playing {game}" in cpp_seat.stderr_tail
        assert "first view (type.googleapis.com/b99.games." in cpp_seat.stderr_tail  # the typed view was unpacked
