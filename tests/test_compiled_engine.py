"""The compiled module groups (the Merchants of B99 engine, the request writers): in use after set-up, the
same games as the Python source, and a build never shadowing a source edited after it, group by group
(referee/compiled.py)."""

from __future__ import annotations

import hashlib
import importlib
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
from referee.registry import all_games, get_game
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


#: the groups that list modules, each compiled at set-up
LISTED = [group for group, modules in compiled.GROUPS.items() if modules]
#: imports every listed module, then prints {group: the modules running compiled}
RUNNING = (
    "import importlib, json\n"
    "from referee import compiled\n"
    "for module in compiled.MODULES:\n"
    "    importlib.import_module(module)\n"
    "print(json.dumps({group: compiled.running_compiled(group) for group in compiled.GROUPS}))\n"
)


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
@pytest.mark.parametrize("group", LISTED)
def test_each_group_runs_compiled_after_set_up(group: str) -> None:
    for module in compiled.GROUPS[group]:
        importlib.import_module(module)
    assert compiled.running_compiled(group) == list(compiled.GROUPS[group]), compiled.build_status(group)
    assert compiled.build_status(group).endswith(f"compiled with mypyc ({len(compiled.GROUPS[group])} modules)")


def test_the_groups_and_their_libraries() -> None:
    """The writers group holds the arena's writers and every game's but Merchants of B99's, compiled with its engine
    (whose state it reads); each library lies inside a package."""
    writers = set(compiled.GROUPS[compiled.WRITERS])
    assert {"referee.wire", "referee.messages", "referee.games.merchants.event_wire"} <= writers
    assert {f"referee.games.{game.id}.wire" for game in all_games() if game.id != "merchants"} <= writers
    assert "referee.games.merchants.wire" in compiled.GROUPS[compiled.MERCHANTS]
    assert len(compiled.MODULES) == len(set(compiled.MODULES)), "a module in two groups"
    for group, modules in compiled.GROUPS.items():
        assert compiled.ROOT.joinpath(*group.split(".")[:-1], "__init__.py").is_file(), group
        assert all(compiled.source_path(module).is_file() and compiled.group_of(module) == group for module in modules)
    assert compiled.group_of("referee.match") is None


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
@pytest.mark.skipif(not machine_support().available("strict"), reason="no strict sandbox here")
def test_a_bot_in_the_strict_sandbox_loads_the_compiled_groups(tmp_path: Path) -> None:
    """Everything the build made must lie where the sandbox binds the project (nothing at the project's top)."""
    probe = RUNNING.replace("print(json.dumps(", "print('compiled', json.dumps(")
    process = launch(0, (sys.executable, "-c", probe), {}, tmp_path / "seat0", None, SandboxRequest("strict", Limits()))
    code = process.wait(60)
    process.stop()
    output = process.stdout_tail() + process.stderr_tail()
    assert code == 0, output
    running = json.loads(output.split("compiled ", 1)[1].splitlines()[0])
    assert running == {group: list(modules) for group, modules in compiled.GROUPS.items()}, output


def _running_with_record(record: Path, environment: dict[str, str] | None = None) -> dict[str, list[str]]:
    """{group: modules running compiled} in a fresh interpreter whose build record is `record`."""
    code = f"from pathlib import Path\nfrom referee import compiled\ncompiled.RECORD = Path({str(record)!r})\n" + RUNNING
    env = {name: value for name, value in os.environ.items() if name != compiled.PURE_PYTHON_ENV}
    env.update(PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'proto'}", **(environment or {}))
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], cwd=ROOT, env=env, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    return json.loads(done.stdout)


def _record_with(tmp_path: Path, changed: str | None = None, failed: str | None = None) -> Path:
    """A build record of every listed group as built now, with `changed`'s digest wrong and `failed` not compiled."""
    groups: dict[str, object] = {}
    for group in LISTED:
        digests = {module: compiled.source_digest(module) for module in compiled.GROUPS[group]}
        if changed in digests:
            digests[changed] = "0" * 64
        groups[group] = {"failure": "gcc: command not found"} if group == failed else {"modules": digests}
    record = tmp_path / "compiled.json"
    record.write_text(json.dumps({"groups": groups}))
    return record


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
def test_a_changed_source_sends_only_its_group_to_python(tmp_path: Path) -> None:
    running = _running_with_record(_record_with(tmp_path, changed="referee.games.fuji99.wire"))
    assert running[compiled.WRITERS] == []
    assert running[compiled.MERCHANTS] == list(compiled.GROUPS[compiled.MERCHANTS])
    running = _running_with_record(_record_with(tmp_path, changed="referee.games.merchants.shop"))
    assert running[compiled.MERCHANTS] == []
    assert running[compiled.WRITERS] == list(compiled.GROUPS[compiled.WRITERS])


@pytest.mark.skipif(compiled.pure_python_asked(), reason=f"{compiled.PURE_PYTHON_ENV} asks for the Python source")
def test_a_group_that_failed_to_compile_runs_as_python_beside_the_others(tmp_path: Path) -> None:
    running = _running_with_record(_record_with(tmp_path, failed=compiled.WRITERS))
    assert running[compiled.WRITERS] == []
    assert running[compiled.MERCHANTS] == list(compiled.GROUPS[compiled.MERCHANTS])


def test_pure_python_runs_every_group_from_source(tmp_path: Path) -> None:
    running = _running_with_record(_record_with(tmp_path), {compiled.PURE_PYTHON_ENV: "1"})
    assert running == {group: [] for group in compiled.GROUPS}


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
    monkeypatch.setattr(compiled, "RECORD", _record_with(tmp_path, changed="referee.games.merchants.shop"))
    monkeypatch.delenv(compiled.PURE_PYTHON_ENV, raising=False)
    assert compiled.changed_modules(compiled.MERCHANTS) == ["referee.games.merchants.shop"]
    assert compiled.changed_modules(compiled.WRITERS) == []
    assert "referee.games.merchants.shop changed since the build" in compiled.build_status(compiled.MERCHANTS)
    assert compiled.build_status(compiled.WRITERS).endswith(f"compiled with mypyc ({len(compiled.GROUPS[compiled.WRITERS])} modules)")


def test_every_module_of_a_group_run_from_source_is_found_in_its_source(monkeypatch: pytest.MonkeyPatch) -> None:
    guard = compiled._Guard()  # noqa: SLF001 - the guard's own finder
    guard.from_source = {compiled.MERCHANTS: True, compiled.WRITERS: False}
    for module in compiled.GROUPS[compiled.MERCHANTS]:
        spec = guard.find_spec(module)
        assert spec is not None and spec.origin == str(compiled.source_path(module))
    assert guard.find_spec("referee.wire") is None  # its group stays compiled
    assert guard.find_spec("referee.games.merchants.data") is None  # in no group


def test_a_failed_build_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "RECORD", tmp_path / "compiled.json")
    assert "not compiled (no build record)" in compiled.build_status(compiled.WRITERS)
    compiled.write_failure(compiled.WRITERS, "gcc: command not found")
    compiled.write_record(compiled.MERCHANTS)
    assert compiled.build_status(compiled.WRITERS) == "request writers: runs as Python, compiling failed (gcc: command not found)"
    assert compiled.changed_modules(compiled.WRITERS) == list(compiled.GROUPS[compiled.WRITERS])
    assert compiled.changed_modules(compiled.MERCHANTS) == []
    assert compiled.build_status(compiled.ENVS) == "training environments: runs as Python, not compiled (no build record)"
    monkeypatch.setitem(compiled.GROUPS, compiled.ENVS, ())
    assert compiled.build_status(compiled.ENVS) == "training environments: nothing listed to compile (referee/compiled.py)"


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


def test_the_guard_is_in_place_before_the_environments_load() -> None:
    """`import referee` puts the guard on sys.meta_path; sdk.envs (the envs group's package) must import it
    before any of its own modules, or a module of the group could load compiled past a changed source."""
    code = (
        "import json, sys\n"
        "import sdk.envs\n"
        "print(json.dumps([name for name in sys.modules if name == 'referee' or name.startswith('sdk.envs.')]))\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'proto'}"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    loaded = json.loads(done.stdout)
    packages = {name for name in loaded if name != "referee" and compiled.ROOT.joinpath(*name.split("."), "__init__.py").is_file()}
    modules = [name for name in loaded if name != "referee" and name not in packages]
    assert modules and loaded.index("referee") < min(loaded.index(name) for name in modules), loaded
