"""Hostile bot archives through the ladder's two front doors, `b99 ladder add-bot --upload` and
`RegisterBot` over gRPC: each is refused with a one-line reason, no bot is registered, nothing is left
in the bot store and nothing is written outside it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from click.testing import CliRunner

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from ladder.api import serve_grpc
from ladder.cli import ladder
from ladder.db import migrate, sqlite_url
from ladder.queries import count_bots
from ladder.settings import LadderSettings
from tests.hostile.archives import ESCAPE_PROOF, FORMATS, Member, bomb, build, chain, files_named, many_files

GAME = "underground_dice"
ADMIN = "admin-secret"
HOSTILE = {"link-chain": chain(), "bomb": bomb(32 * 1024 * 1024), "many-files": many_files(40)}


def hostile(case: str, fmt: str) -> list[Member]:
    """A corpus entry; a plain tar bomb is only as large as needed (it travels uncompressed)."""
    return bomb(2 * 1024 * 1024) if case == "bomb" and fmt == "tar" else HOSTILE[case]


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("B99_ARCHIVE_MAX_BYTES", str(1024 * 1024))
    monkeypatch.setenv("B99_ARCHIVE_MAX_MEMBERS", "30")


@pytest.fixture
def deep_ladder(tmp_path: Path) -> LadderSettings:
    """A ladder three levels below tmp_path, so an escape three levels up still lands where the test looks."""
    home = tmp_path / "x" / "y" / "z" / "ladder"
    settings = LadderSettings(home=home, db_url=sqlite_url(home / "ladder.db"))
    migrate(settings.db_url)
    return settings


def _nothing_kept(settings: LadderSettings, root: Path) -> None:
    assert files_named(root, ESCAPE_PROOF) == []
    assert not settings.store_dir.exists() or os.listdir(settings.store_dir) == []
    assert count_bots(settings) == 0


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_add_bot_upload_refuses_a_hostile_archive(small_limits: None, deep_ladder: LadderSettings, tmp_path: Path,
                                                   fmt: str, case: str) -> None:
    archive = build(tmp_path / f"{case}.{fmt}", fmt, hostile(case, fmt))
    result = CliRunner().invoke(ladder, ["--home", str(deep_ladder.home), "add-bot", "evil", "--game", GAME,
                                         "--upload", str(archive), "--command", "python3 main.py"])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "refused" in lines[0], result.output
    _nothing_kept(deep_ladder, tmp_path)


@pytest.fixture
def ladder_api(deep_ladder: LadderSettings) -> Iterator[pb_grpc.LadderServiceStub]:
    server, port = serve_grpc(deep_ladder, "127.0.0.1:0", admin_token=ADMIN)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield pb_grpc.LadderServiceStub(channel)
    channel.close()
    server.stop(grace=None)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_register_bot_refuses_a_hostile_archive(small_limits: None, deep_ladder: LadderSettings,
                                                ladder_api: pb_grpc.LadderServiceStub, tmp_path: Path,
                                                fmt: str, case: str) -> None:
    archive = build(tmp_path / f"{case}.{fmt}", fmt, hostile(case, fmt)).read_bytes()
    request = pb.RegisterBotRequest(name="evil", game=GAME, command=["python3", "main.py"], archive=archive)
    with pytest.raises(grpc.RpcError) as refused:
        ladder_api.RegisterBot(request, metadata=[("authorization", f"Bearer {ADMIN}")])
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    details = refused.value.details() or ""
    assert "refused" in details and "\n" not in details
    _nothing_kept(deep_ladder, tmp_path)
