"""Accounts over a real gRPC channel: invitations or open registration, API keys listed, rotated and
revoked by their owner, suspension by the operator, and an account that sees and changes only its
own bots."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from ladder.accounts import create_invite
from ladder.api import serve_grpc
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME

ADMIN = "admin-secret"


@pytest.fixture
def stub(sqlite_settings: LadderSettings):  # type: ignore[no-untyped-def]
    server, port = serve_grpc(sqlite_settings, "127.0.0.1:0", admin_token=ADMIN)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    stub = pb_grpc.LadderServiceStub(channel)
    stub.address = f"127.0.0.1:{port}"  # type: ignore[attr-defined]
    yield sqlite_settings, stub
    channel.close()
    server.stop(grace=None)


def auth(key: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {key}")]


def refused(call, code: grpc.StatusCode) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as error:
        call()
    assert error.value.code() == code, error.value.details()
    return error.value.details()


def test_accounts_open_by_invitation_unless_the_operator_opens_registration(stub) -> None:  # type: ignore[no-untyped-def]
    settings, ladder = stub
    assert "invitation only" in refused(lambda: ladder.CreateAccount(pb.CreateAccountRequest(name="ann")), grpc.StatusCode.PERMISSION_DENIED)
    code = create_invite(settings, uses=1)
    ann = ladder.CreateAccount(pb.CreateAccountRequest(name="ann", invite=code))
    assert ann.account == "ann" and ann.key.startswith("b99k_")
    assert "used-up" in refused(lambda: ladder.CreateAccount(pb.CreateAccountRequest(name="bob", invite=code)), grpc.StatusCode.PERMISSION_DENIED)
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    assert ladder.CreateAccount(pb.CreateAccountRequest(name="bob")).account == "bob"
    assert "already exists" in refused(lambda: ladder.CreateAccount(pb.CreateAccountRequest(name="bob")), grpc.StatusCode.INVALID_ARGUMENT)
    assert "bad account name" in refused(lambda: ladder.CreateAccount(pb.CreateAccountRequest(name="b ob")), grpc.StatusCode.INVALID_ARGUMENT)
    info = ladder.WhoAmI(pb.WhoAmIRequest(), metadata=auth(ann.key))
    assert info.name == "ann" and {quota.name for quota in info.quotas} >= {"bots_per_game", "submissions_per_hour"}


def test_keys_are_listed_rotated_and_revoked_by_their_owner(stub) -> None:  # type: ignore[no-untyped-def]
    settings, ladder = stub
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    first = ladder.CreateAccount(pb.CreateAccountRequest(name="ann")).key
    other = ladder.CreateAccount(pb.CreateAccountRequest(name="bob")).key
    second = ladder.CreateKey(pb.CreateKeyRequest(label="laptop"), metadata=auth(first)).key
    keys = ladder.ListKeys(pb.ListKeysRequest(), metadata=auth(second)).keys
    assert [(key.label, key.hint, key.revoked) for key in keys] == [("first key", first[-4:], False), ("laptop", second[-4:], False)]
    assert all(second not in str(key) and first not in str(key) for key in keys)  # a list never shows a key
    bob_keys = ladder.ListKeys(pb.ListKeysRequest(), metadata=auth(other)).keys
    refused(lambda: ladder.RevokeKey(pb.RevokeKeyRequest(id=bob_keys[0].id), metadata=auth(first)), grpc.StatusCode.NOT_FOUND)
    rotated = ladder.RevokeKey(pb.RevokeKeyRequest(id=0), metadata=auth(first)).key
    assert rotated.startswith("b99k_") and rotated != first
    refused(lambda: ladder.WhoAmI(pb.WhoAmIRequest(), metadata=auth(first)), grpc.StatusCode.UNAUTHENTICATED)
    ladder.RevokeKey(pb.RevokeKeyRequest(id=keys[1].id), metadata=auth(rotated))
    refused(lambda: ladder.MyBots(pb.MyBotsRequest(), metadata=auth(second)), grpc.StatusCode.UNAUTHENTICATED)
    refused(lambda: ladder.MyBots(pb.MyBotsRequest()), grpc.StatusCode.UNAUTHENTICATED)
    assert ladder.WhoAmI(pb.WhoAmIRequest(), metadata=auth(rotated)).name == "ann"


def test_an_account_acts_only_on_its_own_bots_and_the_admin_can_suspend_it(stub) -> None:  # type: ignore[no-untyped-def]
    settings, ladder = stub
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    ann = ladder.CreateAccount(pb.CreateAccountRequest(name="ann")).key
    bob = ladder.CreateAccount(pb.CreateAccountRequest(name="bob")).key
    header = pb.SubmitChunk(header=pb.SubmitHeader(name="anns-bot", game=GAME, remote=True))
    submitted = ladder.SubmitBot(iter([header]), metadata=auth(ann))
    assert submitted.bot.name == "anns-bot" and submitted.bot.status == "validating" and submitted.token.startswith("b99_")
    add_bot(settings, "operators-bot", GAME, command=["python3"])
    # bob can neither see, take the name of, nor manage ann's bot, nor the operator's
    assert list(ladder.MyBots(pb.MyBotsRequest(), metadata=auth(bob)).bots) == []
    assert "another account" in refused(lambda: ladder.SubmitBot(iter([header]), metadata=auth(bob)), grpc.StatusCode.INVALID_ARGUMENT)
    for name in ("anns-bot", "operators-bot"):
        refused(lambda: ladder.IssueToken(pb.IssueTokenRequest(bot=name), metadata=auth(bob)), grpc.StatusCode.PERMISSION_DENIED)
        refused(lambda: ladder.RevokeToken(pb.RevokeTokenRequest(bot=name), metadata=auth(bob)), grpc.StatusCode.PERMISSION_DENIED)
        refused(lambda: ladder.RetireBot(pb.BotRequest(bot=name), metadata=auth(bob)), grpc.StatusCode.NOT_FOUND)
    refused(lambda: ladder.RequestChallenge(pb.ChallengeRequest(bot="anns-bot", opponent="operators-bot", games=1), metadata=auth(bob)),
            grpc.StatusCode.PERMISSION_DENIED)
    # ann manages her own bot's tokens
    assert ladder.RotateToken(pb.IssueTokenRequest(bot="anns-bot"), metadata=auth(ann)).token.startswith("b99_")
    assert ladder.RevokeToken(pb.RevokeTokenRequest(bot="anns-bot"), metadata=auth(ann)).revoked == 1
    [mine] = ladder.MyBots(pb.MyBotsRequest(), metadata=auth(ann)).bots
    assert (mine.name, mine.kind, [v.version for v in mine.versions]) == ("anns-bot", "remote", ["1"])
    # suspension: only the admin; the account may still read, not act
    refused(lambda: ladder.SuspendAccount(pb.SuspendAccountRequest(name="ann", suspended=True), metadata=auth(bob)),
            grpc.StatusCode.PERMISSION_DENIED)
    ladder.SuspendAccount(pb.SuspendAccountRequest(name="ann", suspended=True, reason="spam"), metadata=auth(ADMIN))
    assert "suspended: spam" in refused(lambda: ladder.SubmitBot(iter([header]), metadata=auth(ann)), grpc.StatusCode.PERMISSION_DENIED)
    assert ladder.WhoAmI(pb.WhoAmIRequest(), metadata=auth(ann)).status == "suspended"
    ladder.SuspendAccount(pb.SuspendAccountRequest(name="ann", suspended=False), metadata=auth(ADMIN))
    assert ladder.RetireBot(pb.BotRequest(bot="anns-bot"), metadata=auth(ann)).versions[0].status == "retired"


def test_the_cli_stores_the_key_readable_by_its_owner_only(stub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from ladder.cli import ladder as ladder_cli
    from sdk.client.cli import main as client_main

    settings, ladder = stub
    runner = CliRunner()
    made = runner.invoke(ladder_cli, ["--home", str(settings.home), "invite", "--uses", "2"])
    assert made.exit_code == 0, made.output
    code = made.output.split()[0]
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    address = ladder.address
    assert client_main(["login", "--ladder", address, "--invite", code, "--name", "cat"]) == 0
    stored = tmp_path / "config" / "b99" / "ladders.json"
    assert stored.stat().st_mode & 0o777 == 0o600
    assert client_main(["whoami"]) == 0
    assert client_main(["login", "--ladder", address, "--invite", "b99i_wrong", "--name", "dog"]) == 1
    listed = runner.invoke(ladder_cli, ["--home", str(settings.home), "accounts", "cat", "--suspend", "testing"])
    assert listed.exit_code == 0 and "cat: suspended (testing)" in listed.output
