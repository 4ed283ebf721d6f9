"""TLS: the LadderService and the Arena gateway serve it when given a certificate; the ladder
client and the SDK verify it (a CA file for a self-signed ladder) and refuse what does not verify."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from click.testing import CliRunner

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from ladder.accounts import create_invite
from ladder.api import serve_grpc
from ladder.settings import LadderSettings
from ladder.tls import TlsConfigError, TlsFiles
from sdk.client.cli import main as client_main
from tests.ladder.accounts_helpers import self_signed

ROOT = Path(__file__).resolve().parents[2]


def test_the_ladder_service_serves_tls_that_clients_verify(sqlite_settings: LadderSettings, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    cert, key = self_signed(tmp_path / "tls")
    other_cert, _ = self_signed(tmp_path / "other")
    server, port = serve_grpc(sqlite_settings, "127.0.0.1:0", tls=TlsFiles.load(cert, key))
    address = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(address) as plain:  # plaintext gets nowhere
            with pytest.raises(grpc.RpcError) as error:
                pb_grpc.LadderServiceStub(plain).GetLeaderboard(pb.LeaderboardRequest(), timeout=5)
            assert error.value.code() == grpc.StatusCode.UNAVAILABLE
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
        code = create_invite(sqlite_settings, 2)
        assert client_main(["login", "--ladder", address, "--ca-file", str(other_cert), "--invite", code, "--name", "eve"]) == 1
        assert client_main(["login", "--ladder", address, "--ca-file", str(cert), "--invite", code, "--name", "ann"]) == 0
        assert client_main(["whoami"]) == 0
    finally:
        server.stop(grace=None)


def test_bad_certificate_files_get_a_one_line_error(tmp_path: Path) -> None:
    from ladder.cli import ladder

    cert, key = self_signed(tmp_path / "tls")
    with pytest.raises(TlsConfigError, match="not a PEM certificate"):
        TlsFiles.load(key, key)
    with pytest.raises(TlsConfigError, match="No such file"):
        TlsFiles.load(tmp_path / "missing.pem", key)
    result = CliRunner().invoke(ladder, ["--home", str(tmp_path / "home"), "serve", "--tls-cert", str(cert), "--max-matches", "0"])
    assert result.exit_code != 0 and "--tls-cert and --tls-key go together" in result.output


@contextmanager
def _remote_bot_over_tls(settings: LadderSettings, tmp_path: Path) -> Iterator[dict[str, str]]:
    """A ladder with its Arena gateway on TLS (a self-signed certificate), a local bot and a remote one; yields the
    remote bot's environment: the gateway's address, its token and the certificate as its CA file."""
    from ladder.registry import add_bot, issue_token
    from tests.ladder.accounts_helpers import running_ladder

    cert, key = self_signed(tmp_path / "tls")
    add_bot(settings, "near", "underground_dice", command=[sys.executable, "-m", "bots", "random"])
    add_bot(settings, "far", "underground_dice", remote=True)
    token = issue_token(settings, "far")
    with running_ladder(settings, workers=1, arena_address="127.0.0.1:0", tls=TlsFiles.load(cert, key)) as server:  # type: ignore[arg-type]
        yield {**os.environ, "PYTHONPATH": str(ROOT), "B99_ARENA_ADDRESS": f"127.0.0.1:{server.arena.port}",
               "B99_SEAT_TOKEN": token, "B99_ARENA_CA_FILE": str(cert)}


def test_the_arena_gateway_serves_tls_to_a_remote_bot(sqlite_settings: LadderSettings, tmp_path: Path) -> None:
    """A remote bot verifies the gateway with the CA file and plays; the relays on the ladder's own
    machine reach the gateway over loopback."""
    with _remote_bot_over_tls(sqlite_settings, tmp_path) as env:
        bot = subprocess.run([sys.executable, str(ROOT / "tests" / "ladder" / "remote_bot.py"), "1"], env=env,
                             capture_output=True, text=True, timeout=150)
        assert bot.returncode == 0, bot.stderr[-2000:]
        env["B99_ARENA_CA_FILE"] = str(self_signed(tmp_path / "other")[0])
        once = "from bots.random_bot import RandomBot; from sdk.run import run; print('over:', run(RandomBot()))"
        refused = subprocess.run([sys.executable, "-c", once], env=env, capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0 or "over: None" in refused.stdout, refused.stdout


def test_with_tls_the_relays_of_other_machines_dial_the_advertised_plaintext_port(sqlite_settings: LadderSettings, tmp_path: Path) -> None:
    import b99.ladder_pb2_grpc as ladder_grpc
    from ladder.server import LadderServer
    from ladder.service import SchedulerOptions
    from tests.ladder.conftest import free_port

    cert, key = self_signed(tmp_path / "tls")
    advertised = f"127.0.0.1:{free_port()}"
    server = LadderServer(sqlite_settings, SchedulerOptions(), arena_address="127.0.0.1:0", arena_advertise=advertised,
                          tls=TlsFiles.load(cert, key))
    server.start()
    try:
        assert server.arena.relay_address == advertised
        with grpc.insecure_channel(advertised) as channel:  # the gateway itself answers (a relay without metadata)
            with pytest.raises(grpc.RpcError) as refused:
                list(ladder_grpc.ArenaRelayStub(channel).Attach(iter(()), timeout=5))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.value
        with grpc.insecure_channel(f"127.0.0.1:{server.arena.port}") as channel:  # the public port speaks only TLS
            with pytest.raises(grpc.RpcError) as plain:
                list(ladder_grpc.ArenaRelayStub(channel).Attach(iter(()), timeout=5))
            assert plain.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop()


@pytest.mark.parametrize("language", ["cpp", "go"])
def test_the_cpp_and_go_example_bots_verify_the_gateway(sqlite_settings: LadderSettings, tmp_path: Path, language: str) -> None:
    """The C++ and Go example bots read B99_ARENA_CA_FILE as the Python and JS SDKs do: with the
    ladder's certificate they play a game over TLS; with another one they stop with an error."""
    from tests.polyglot.helpers import build_go_bot
    from tests.polyglot.test_cpp import build_cpp_bot

    binary = build_cpp_bot() if language == "cpp" else build_go_bot()
    with _remote_bot_over_tls(sqlite_settings, tmp_path) as env:
        played = subprocess.run([str(binary)], env=env, capture_output=True, text=True, timeout=120)
        assert played.returncode == 0 and "game over: rank" in played.stderr, played.stderr[-2000:]
        env["B99_ARENA_CA_FILE"] = str(self_signed(tmp_path / "other")[0])
        refused = subprocess.run([str(binary)], env=env, capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0 and "game over" not in refused.stderr, refused.stderr[-2000:]
        assert "certificate" in refused.stderr, refused.stderr[-2000:]  # the cause, in the bot's own output
