"""`b99 bot new --lang python|js|cpp|go` (raw-python and raw-js: tests/docs/test_docs_run.py): each new bot's own test, run with the command the scaffold
prints from a plain shell (no activated environment, PATH=/usr/bin:/bin), plays over the real protocol."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sdk.scaffold import bot_group
from tests.polyglot.helpers import JS_SDK, node_or_skip, test_game
from tests.polyglot.test_cpp import build_cpp_bot

PLAIN_ENV = {"HOME": os.environ.get("HOME", "/root"), "PATH": "/usr/bin:/bin"}


def new_bot(tmp_path: Path, name: str, lang: str) -> tuple[Path, list[str]]:
    """Scaffold a bot; its directory and the commands the CLI printed (the first is `cd DIR`)."""
    result = CliRunner().invoke(bot_group, ["new", name, "--lang", lang, "--dir", str(tmp_path), "--game", test_game()])
    assert result.exit_code == 0, result.output
    commands = [line.strip() for line in result.output.splitlines()[1:]]
    assert commands[0].startswith("cd ")
    return tmp_path / name, commands[1:]


def plain(command: str, cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `command` as a person would in a fresh shell: nothing activated, the system PATH only."""
    return subprocess.run(["bash", "-c", command], cwd=cwd, env={**PLAIN_ENV, **env}, capture_output=True, text=True, timeout=timeout)


def test_python_bot_test_passes_with_the_printed_command(tmp_path: Path) -> None:
    folder, commands = new_bot(tmp_path, "my-bot", "python")
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "bot.py", "test_my_bot.py"]
    match_command, test_command = commands
    assert test_command in (folder / "README.md").read_text()
    completed = plain(test_command, folder)
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert "2 passed" in completed.stdout  # in-process games and one match over gRPC
    played = plain(match_command + " --json --sandbox none --replay " + str(tmp_path / "r.jsonl"), folder)
    assert played.returncode == 0, played.stderr[-2000:]
    assert all(seat["faults"] == [] for seat in json.loads(played.stdout)["seats"])


def test_js_bot_installs_a_copy_of_the_sdk_and_its_test_leaves_no_replay(tmp_path: Path) -> None:
    node = node_or_skip()
    folder, commands = new_bot(tmp_path, "jsbot", "js")
    package = json.loads((folder / "package.json").read_text())
    assert package["dependencies"]["b99-arena-sdk"] == f"file:{JS_SDK.as_posix()}"
    assert "install-links=true" in (folder / ".npmrc").read_text()  # a copy: the strict sandbox sees no symlink target
    assert commands[-1] == "npm test"
    # What `npm install` does with install-links (without the registry): copy the SDK, with its own
    # copy of the .proto files and its packages, into the bot's node_modules.
    subprocess.run([node, str(JS_SDK / "sync-protos.js")], check=True, timeout=60)
    shutil.copytree(JS_SDK, folder / "node_modules" / "b99-arena-sdk", symlinks=False)
    before = sorted(p.name for p in folder.iterdir())
    completed = plain(f"{node} --test test/", folder)  # `npm test` runs exactly this
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert "# pass 1" in completed.stdout
    assert sorted(p.name for p in folder.iterdir()) == before  # no runs/, no replay in the bot's folder


def test_cpp_bot_builds_and_its_test_plays_a_match(tmp_path: Path) -> None:
    cached = build_cpp_bot()  # the compiled stubs of the example, shared: only the bot's source compiles here
    folder, commands = new_bot(tmp_path, "cppbot", "cpp")
    assert commands[-1] == "make test"
    # Measured: `make` ran one job at a time (6 min 16 s for the stubs); the Makefile asks for one per core.
    assert "MAKEFLAGS += -j" in (folder / "Makefile").read_text()
    completed = plain(f"make test BUILD={cached.parent} 'CXXFLAGS=-O1 -std=c++17 -Wall'", folder)
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert "│ bot " in completed.stdout and "startup" not in completed.stdout


def test_go_bot_builds_from_debian_packages_and_its_test_plays_a_match(tmp_path: Path) -> None:
    missing = [tool for tool in ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"Go toolchain missing: {', '.join(missing)} (see .ci/apt-packages.txt)")
    folder, commands = new_bot(tmp_path, "gobot", "go")
    assert commands[-1] == "make test"
    completed = plain("make test", folder, GOCACHE=str(Path(os.environ.get("HOME", "/root")) / ".cache" / "go-build"))
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert "│ bot " in completed.stdout and "startup" not in completed.stdout


@pytest.mark.parametrize("name", ["9lives", "has space", "semi;colon"])
def test_bad_names_are_refused(tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(bot_group, ["new", name, "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "must start with a letter" in result.output


def test_an_existing_directory_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    result = CliRunner().invoke(bot_group, ["new", "taken", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "already exists" in result.output
