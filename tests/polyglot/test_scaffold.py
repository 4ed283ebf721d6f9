"""`b99 bot new`: a new bot that plays, with a README and a test against the random bot."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sdk.scaffold import bot_group
from tests.polyglot.helpers import JS_SDK, node_or_skip, test_game


def test_python_bot_is_created_and_its_own_test_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = test_game()
    result = CliRunner().invoke(bot_group, ["new", "my-bot", "--lang", "python", "--dir", str(tmp_path), "--game", game])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "my-bot"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "bot.py", "test_my_bot.py"]
    assert f"b99 match {game}" in (folder / "README.md").read_text()
    monkeypatch.syspath_prepend(str(folder))
    spec = importlib.util.spec_from_file_location("scaffolded_test", folder / "test_my_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.test_my_bot_plays_whole_games_against_random()
    sys.modules.pop("bot", None)


def test_js_bot_is_created_with_package_and_test(tmp_path: Path) -> None:
    result = CliRunner().invoke(bot_group, ["new", "jsbot", "--lang", "js", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "jsbot"
    package = json.loads((folder / "package.json").read_text())
    assert package["dependencies"]["b99-arena-sdk"] == f"file:{JS_SDK.as_posix()}"
    assert package["scripts"]["test"] == "node --test test/"
    assert (folder / "test" / "bot.test.js").is_file() and (folder / "README.md").is_file()


def test_js_bot_plays_a_match_over_grpc(tmp_path: Path) -> None:
    node = node_or_skip()
    CliRunner().invoke(bot_group, ["new", "jsbot", "--lang", "js", "--dir", str(tmp_path), "--game", test_game()])
    folder = tmp_path / "jsbot"
    # What `npm install --install-links` does (without the registry): copy the SDK, with its own
    # copy of the .proto files and its packages, into the bot's node_modules.
    subprocess.run([node, str(JS_SDK / "sync-protos.js")], check=True, timeout=60)
    shutil.copytree(JS_SDK, folder / "node_modules" / "b99-arena-sdk", symlinks=False)
    b99 = shutil.which("b99") or str(Path(sys.executable).with_name("b99"))
    if not Path(b99).exists():
        pytest.skip("the b99 command is not installed")
    completed = subprocess.run(
        [node, "--test", "test/"], cwd=folder, capture_output=True, text=True, timeout=120, env={"PATH": f"{Path(node).parent}:/usr/bin:/bin", "B99": b99}
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert "# pass 1" in completed.stdout


@pytest.mark.parametrize("name", ["9lives", "has space", "semi;colon"])
def test_bad_names_are_refused(tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(bot_group, ["new", name, "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "must start with a letter" in result.output


def test_an_existing_directory_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    result = CliRunner().invoke(bot_group, ["new", "taken", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "already exists" in result.output
