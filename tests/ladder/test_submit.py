"""`b99 submit` against a running ladder: the folder packed without what .b99ignore names, uploaded
over gRPC, its validation followed live; versions that replace each other only when admitted,
rollback, retirement, and the per-account quotas."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from ladder import queries
from ladder.accounts import register
from ladder.models import BotStatus
from ladder.settings import LadderSettings
from sdk.client.cli import main as client_main
from sdk.client.config import LadderLogin, save_login
from sdk.client.ladder import LadderClient
from sdk.client.pack import pack_folder
from tests.ladder.accounts_helpers import FAULTY_BOT, running_ladder, write_bot
from tests.ladder.conftest import GAME


def test_b99ignore_leaves_files_out(tmp_path: Path) -> None:
    data, names = pack_folder(write_bot(tmp_path / "bot"))
    assert names == ["bot.py", "notes.txt"]
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        assert sorted(archive.getnames()) == ["bot.py", "notes.txt"]


def test_versions_replace_each_other_only_when_admitted(sqlite_settings: LadderSettings, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n[quotas]\nsubmissions_per_hour = 3\narchive_bytes = 100000\n')
    account, key = register(settings, "ann")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = write_bot(tmp_path / "bot")
    with running_ladder(settings, grpc_address="127.0.0.1:0") as server:
        save_login(LadderLogin(f"127.0.0.1:{server.grpc_port}", "ann", key))
        submit = ["submit", str(folder), "--game", GAME, "--name", "picker", "--command", "python bot.py"]
        assert client_main(submit) == 0
        shown = capsys.readouterr().out
        assert "packed 2 files" in shown and "validation game" in shown and "version 1 admitted" in shown
        # version 2 faults: rejected, its stderr shown to its owner; version 1 keeps playing
        (folder / "bot.py").write_text(FAULTY_BOT)
        assert client_main(submit) == 1
        captured = capsys.readouterr()
        assert "FAULT" in captured.out and "version 2 forgot how to count" in captured.out
        assert "picker version 2 was not admitted" in captured.err
        board = {row.name: row.status for row in queries.leaderboard(settings, GAME)}
        assert board["picker"] == BotStatus.ACTIVE and board["picker@2"] == BotStatus.REJECTED
        # version 3 fixed: admitted, takes the name; version 1 retires with its own record
        write_bot(folder)
        assert client_main(submit) == 0
        assert "version 3 admitted" in capsys.readouterr().out
        with LadderClient(LadderLogin(f"127.0.0.1:{server.grpc_port}", "ann", key)) as client:
            [mine] = client.mybots().bots
            versions = {v.version: (v.name, v.status, v.current) for v in mine.versions}
            assert versions == {"3": ("picker", "active", True), "2": ("picker@2", "rejected", False),
                                "1": ("picker@1", "retired", False)}
            v1 = next(v for v in mine.versions if v.version == "1")
            validation_of_v1 = queries.matches(settings, bot_id=v1.id, limit=50)
            assert validation_of_v1 and all(any(seat.bot == "picker@1" for seat in row.seats) for row in validation_of_v1)
            # a fourth submission is over the hourly quota
            assert client_main(submit) == 1
            assert "at most 3 submissions per hour" in capsys.readouterr().err
            # roll back to version 1, then retire the bot
            client.rollback("picker", "1")
            [mine] = client.mybots().bots
            assert {v.version: (v.name, v.status) for v in mine.versions if v.version in "13"} == {
                "1": ("picker", "active"), "3": ("picker@3", "retired")}
            with pytest.raises(Exception, match="never admitted"):
                client.rollback("picker", "2")
            client.retire("picker")
            assert all(v.status in ("retired", "rejected") for v in client.mybots().bots[0].versions)
        assert client_main(["mybots"]) == 0
        assert "picker (underground_dice, uploaded)" in capsys.readouterr().out


def test_an_archive_over_the_quota_is_refused(sqlite_settings: LadderSettings, tmp_path: Path) -> None:
    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n[quotas]\narchive_bytes = 2000\nbots_per_game = 1\n')
    _, key = register(settings, "ann")
    folder = write_bot(tmp_path / "bot")
    (folder / "noise.txt").write_bytes(__import__("os").urandom(5000))
    from ladder.api import serve_grpc

    server, port = serve_grpc(settings, "127.0.0.1:0")
    try:
        with LadderClient(LadderLogin(f"127.0.0.1:{port}", "ann", key)) as client:
            import grpc

            with pytest.raises(grpc.RpcError) as too_big:
                client.submit("big", GAME, ["python", "bot.py"], pack_folder(folder)[0])
            assert too_big.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "over 2000 bytes" in too_big.value.details()
            client.submit("first", GAME, [], None, remote=True)
            with pytest.raises(grpc.RpcError) as second:
                client.submit("second", GAME, [], None, remote=True)
            assert second.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "at most 1 bots in underground_dice" in second.value.details()
            client.submit("first", GAME, [], None, remote=True)  # a new version of a bot it has is no new bot
    finally:
        server.stop(grace=None)
