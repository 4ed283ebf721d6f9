"""The compiled Merchants of B99 engine: in use after set-up, the same games as the Python source, and a
build never shadowing a source edited after it (referee/compiled.py)."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee.games.merchants  # noqa: F401 - the guard runs at the package's import
from referee import compiled
from referee.bot_resolution import resolve_bot
from referee.chance import sample_outcome
from referee.clock import TimeControl
from referee.engine import GameState
from referee.launcher import launch
from referee.match import MatchSpec, run_match
from referee.registry import get_game
from referee.sandbox import Limits, SandboxRequest, machine_support
from sdk.forward import decode_world, encode_world
from tests.games.golden import GOLDEN_PATH, config_key, configs, playout_digest

ROOT = Path(__file__).resolve().parent.parent


def _pure_python(code: str, stdin: bytes = b"", timeout: float = 300) -> bytes:
    """Run `code` in a fresh interpreter of this checkout with every engine module from source; its stdout."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'proto'}", compiled.PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, input=stdin, capture_output=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    return done.stdout


def _mid_game(seed: int) -> GameState:
    """A four-player game in its second round, hands and reputation cards dealt, played at random."""
    game = get_game("merchants")
    state = game.new_initial_state(game.make_config(4))
    rng = random.Random(seed)
    while state.is_chance_node() or state.round < 2 or state.pick < 2:  # type: ignore[attr-defined]
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
        else:
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
    return state


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
def test_the_engine_runs_compiled_after_set_up() -> None:
    assert compiled.running_compiled() == list(compiled.MODULES), compiled.build_status()
    assert compiled.build_status().endswith(f"compiled with mypyc ({len(compiled.MODULES)} modules)")


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
@pytest.mark.skipif(not machine_support().available("strict"), reason="no strict sandbox here")
def test_a_bot_in_the_strict_sandbox_loads_the_compiled_engine(tmp_path: Path) -> None:
    """Everything the build made must lie where the sandbox binds the engine (nothing at the project's top)."""
    probe = "import referee.games.merchants; from referee import compiled; print('compiled', len(compiled.running_compiled()))"
    process = launch(0, (sys.executable, "-c", probe), {}, tmp_path / "seat0", None, SandboxRequest("strict", Limits()))
    code = process.wait(60)
    process.stop()
    output = process.stdout_tail() + process.stderr_tail()
    assert code == 0, output
    assert f"compiled {len(compiled.MODULES)}" in output


@pytest.mark.skipif(not machine_support().available("strict"), reason="no strict sandbox here")
def test_reference_bots_play_merchants_in_the_strict_sandbox_without_a_fault() -> None:
    seats = [resolve_bot(name, "merchants", sandbox="strict") for name in ("heuristic", "random", "heuristic", "random")]
    timing = TimeControl(per_decision_seconds=10.0, bank_seconds=30.0, startup_seconds=30.0)
    report = run_match(MatchSpec("merchants", seats, seed=5, time_control=timing))
    assert report.status == "complete", report
    assert all(not seat.faults for seat in report.seats), [(seat.name, seat.faults, seat.stderr_tail) for seat in report.seats]


def test_the_python_source_plays_the_recorded_games() -> None:
    """The golden playouts (also checked in this process, on the build) played again by the source."""
    cases = [f"{game_id} {config_key(config)}" for game_id, config in configs() if game_id == "merchants"]
    code = (
        "import json\n"
        "from referee import compiled\n"
        "from tests.games.golden import SEEDS, config_key, configs, playout_digest\n"
        "digests = {f'merchants {config_key(c)}': [playout_digest('merchants', c, s) for s in range(SEEDS)]\n"
        "           for g, c in configs() if g == 'merchants'}\n"
        "print(json.dumps({'compiled': compiled.running_compiled(), 'digests': digests}))\n"
    )
    result = json.loads(_pure_python(code))
    assert result["compiled"] == []
    golden = json.loads(GOLDEN_PATH.read_text())
    assert sorted(result["digests"]) == sorted(cases)
    for case in cases:
        assert result["digests"][case] == golden[case], f"{case}: the Python source plays other games"


MERCHANTS_CONFIGS = [config for game_id, config in configs() if game_id == "merchants"]


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
@settings(max_examples=4, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(MERCHANTS_CONFIGS) - 1), st.integers(0, 2**32 - 1)), min_size=4, max_size=4))
def test_the_build_plays_the_same_games_as_the_source_for_any_seed(games: list[tuple[int, int]]) -> None:
    """Any seed, any player count and variant set: the same options, chance, events, views and result."""
    here = [playout_digest("merchants", MERCHANTS_CONFIGS[index], seed) for index, seed in games]
    code = (
        "import json, sys\n"
        "from tests.games.golden import configs, playout_digest\n"
        "merchants = [c for g, c in configs() if g == 'merchants']\n"
        "games = json.loads(sys.stdin.read())\n"
        "print(json.dumps([playout_digest('merchants', merchants[i], seed) for i, seed in games]))\n"
    )
    assert json.loads(_pure_python(code, stdin=json.dumps(games).encode())) == here


def test_the_build_plays_the_same_games_as_the_source_from_a_mid_game_world() -> None:
    """A world pickled by one kind of engine continues in the other exactly as it would in its own."""
    state = _mid_game(11)
    world = encode_world(state, 2, random.Random(4))
    here = decode_world(world)
    digest_here = playout_digest_from(here)
    code = (
        "import sys\n"
        "from sdk.forward import decode_world\n"
        "from tests.test_compiled_engine import playout_digest_from\n"
        "print(playout_digest_from(decode_world(sys.stdin.buffer.read())))\n"
    )
    assert _pure_python(code, stdin=world).decode().strip() == digest_here


def test_a_world_from_the_python_source_loads_in_the_build() -> None:
    code = (
        "import random, sys\n"
        "from sdk.forward import encode_world\n"
        "from tests.test_compiled_engine import _mid_game\n"
        "sys.stdout.buffer.write(encode_world(_mid_game(5), 1, random.Random(2)))\n"
    )
    world = decode_world(_pure_python(code))
    original = _mid_game(5)
    assert world.private_view(1) == original.private_view(1)
    assert world.public_view() == original.public_view()
    assert playout_digest_from(world)  # and it plays on to the end


def playout_digest_from(state: GameState) -> str:
    """Digest of a seeded random continuation of `state` to the end: its events and final view."""
    rng = random.Random(9)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
        else:
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
    record = [repr(event) for event in state.events] + [json.dumps(state.public_view(), sort_keys=True, default=str)]
    return hashlib.sha256("\n".join(record).encode()).hexdigest()


def test_a_source_changed_since_the_build_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "compiled.json"
    digests = {module: compiled.source_digest(module) for module in compiled.MODULES}
    digests["referee.games.merchants.shop"] = "0" * 64
    record.write_text(json.dumps({"modules": digests}))
    monkeypatch.setattr(compiled, "RECORD", record)
    monkeypatch.delenv(compiled.PURE_PYTHON_ENV, raising=False)
    assert compiled.changed_modules() == ["referee.games.merchants.shop"]
    assert "referee.games.merchants.shop changed since the build" in compiled.build_status()


def test_every_module_is_found_in_its_source_once_one_changed() -> None:
    finder = compiled._SourceFirst(compiled.MODULES)  # noqa: SLF001 - the guard's own finder
    for module in compiled.MODULES:
        spec = finder.find_spec(module)
        assert spec is not None and spec.origin == str(compiled.source_path(module))
    assert finder.find_spec("referee.games.merchants.data") is None


def test_a_failed_build_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "RECORD", tmp_path / "compiled.json")
    assert "not compiled (no build record)" in compiled.build_status()
    compiled.write_failure("gcc: command not found")
    assert compiled.build_status() == "Merchants of B99 engine: runs as Python, compiling failed (gcc: command not found)"
    assert compiled.changed_modules() == list(compiled.MODULES)


def test_a_pickled_state_carries_every_field() -> None:
    """`MerchantsState.__reduce__` pickles whatever fields the state has, compiled or not."""
    state = _mid_game(3)
    twin = pickle.loads(pickle.dumps(state))
    fields, twin_fields = compiled.instance_fields(state), compiled.instance_fields(twin)
    assert set(twin_fields) == set(fields)
    assert {"events", "players_state", "_options", "game", "config", "data"} <= set(fields)
    assert twin.data is state.data  # the shared component data is loaded again, not copied
    assert twin.private_view(0) == state.private_view(0)
    assert decode_world(encode_world(state, 0, random.Random(1))).private_view(0) == state.private_view(0)
