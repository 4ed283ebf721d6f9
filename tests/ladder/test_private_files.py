"""The ladder's own files are its owner's alone: home, database, replays, live replays and the bot store
are 0700/0600, and the uid a `basic` bot runs as reads none of them (the seeds of running matches, the
relay secret, other bots' files and logs). An uploaded bot cannot be registered at `basic`."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import ladder
from ladder.registry import LadderError, add_bot
from ladder.settings import LadderSettings
from referee.sandbox import users
from referee.sandbox.bubblewrap import drop_privileges
from tests.ladder.conftest import GAME

SETPRIV = shutil.which("setpriv") or next((path for path in ("/usr/bin/setpriv", "/bin/setpriv") if os.path.exists(path)), None)

READ_ALL = """
import os, sys
leaked = []
for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        leaked.append(path)
    except OSError:
        pass
print("LEAKED " + " ".join(leaked) if leaked else "nothing read")
"""


@pytest.fixture
def home(tmp_path: Path) -> Iterator[LadderSettings]:
    """A ladder made by `b99 ladder init`, with an uploaded bot, a replay and a live replay in it, in a
    directory every uid may walk through (pytest's own temporary directories are not)."""
    base = Path(tempfile.mkdtemp(prefix="b99-private-files-", dir="/tmp"))
    os.chmod(base, 0o755)
    try:
        yield _made_ladder(base, tmp_path)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _made_ladder(base: Path, tmp_path: Path) -> LadderSettings:
    settings = LadderSettings.create(base / "ladder")
    result = CliRunner().invoke(ladder, ["--home", str(settings.home), "init"])
    assert result.exit_code == 0, result.output
    settings.admin_token()
    bot = tmp_path / "upload"
    bot.mkdir()
    (bot / "main.py").write_text("print('secret strategy')\n")
    add_bot(settings, "uploaded", GAME, command=["python3", "main.py"], upload=bot)
    settings.replays_dir.mkdir(exist_ok=True)
    settings.secure()
    for name in ("m-1.jsonl", "m-2.jsonl.live"):
        (settings.replays_dir / name).write_text('{"type": "header", "seed": 42}\n')  # as the referee writes them
    return settings


def _private_paths(settings: LadderSettings) -> list[Path]:
    return [settings.home, settings.home / "ladder.db", settings.home / "admin-token", settings.replays_dir,
            settings.replays_dir / "m-1.jsonl", settings.replays_dir / "m-2.jsonl.live", settings.store_dir,
            *settings.store_dir.rglob("main.py")]


def test_the_ladder_s_home_and_database_are_its_owner_s_alone(home: LadderSettings) -> None:
    for path in (home.home, home.replays_dir, home.store_dir):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700, path
    for path in (home.home / "ladder.db", home.home / "admin-token"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


@pytest.mark.skipif(os.geteuid() != 0 or SETPRIV is None, reason="needs root and setpriv to run as a basic bot's uid")
def test_a_basic_bot_s_uid_reads_none_of_the_ladder_s_files(home: LadderSettings) -> None:
    paths = _private_paths(home)
    assert len(paths) >= 8 and all(path.exists() for path in paths)
    uid = users.allocate_uid()
    run = subprocess.run([*drop_privileges(SETPRIV, uid), sys.executable, "-I", "-c", READ_ALL, *map(str, paths)],
                         capture_output=True, text=True, timeout=60, cwd="/")
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "nothing read", run.stdout


def test_an_uploaded_bot_is_refused_at_basic(home: LadderSettings, tmp_path: Path) -> None:
    with pytest.raises(LadderError, match="strict sandbox"):
        add_bot(home, "basic-upload", GAME, command=["python3", "main.py"], upload=tmp_path / "upload", sandbox="basic")
