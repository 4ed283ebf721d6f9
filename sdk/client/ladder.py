"""Calls to a ladder's LadderService for an account: a channel (TLS verified when the ladder
serves it), the API key in every call's metadata, and one function per thing an author does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from sdk.client.config import LadderLogin

#: Bytes per SubmitBot message.
CHUNK = 64 * 1024


def open_channel(address: str, tls: bool = False, ca_file: str = "") -> grpc.Channel:
    """A channel to `address`: TLS (verified against `ca_file`, else the system's roots) when `tls`
    or a CA file is given, plaintext otherwise."""
    if tls or ca_file:
        roots = Path(ca_file).read_bytes() if ca_file else None
        return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=roots))
    return grpc.insecure_channel(address)


class LadderClient:
    """One account's calls on one ladder."""

    def __init__(self, login: LadderLogin, timeout: float = 30.0) -> None:
        self.login = login
        self.timeout = timeout
        self.channel = open_channel(login.address, login.tls, login.ca_file)
        self.stub = pb_grpc.LadderServiceStub(self.channel)
        self.metadata = (("authorization", f"Bearer {login.key}"),)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> LadderClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def whoami(self) -> pb.AccountInfo:
        return self.stub.WhoAmI(pb.WhoAmIRequest(), metadata=self.metadata, timeout=self.timeout)

    def submit(self, name: str, game: str, command: list[str], archive: bytes | None, remote: bool = False) -> pb.Submission:
        def chunks() -> Iterator[pb.SubmitChunk]:
            yield pb.SubmitChunk(header=pb.SubmitHeader(name=name, game=game, command=command, remote=remote))
            data = archive or b""
            for start in range(0, len(data), CHUNK):
                yield pb.SubmitChunk(data=data[start:start + CHUNK])

        return self.stub.SubmitBot(chunks(), metadata=self.metadata, timeout=max(self.timeout, 120.0))

    def follow(self, name: str, version: str = "", timeout: float | None = None) -> Iterator[pb.ValidationEvent]:
        return self.stub.FollowValidation(pb.FollowValidationRequest(bot=name, version=version), metadata=self.metadata, timeout=timeout)

    def mybots(self) -> pb.MyBotList:
        return self.stub.MyBots(pb.MyBotsRequest(), metadata=self.metadata, timeout=self.timeout)

    def retire(self, name: str) -> pb.MyBot:
        return self.stub.RetireBot(pb.BotRequest(bot=name), metadata=self.metadata, timeout=self.timeout)

    def rollback(self, name: str, version: str) -> pb.MyBot:
        return self.stub.RollbackBot(pb.RollbackRequest(bot=name, version=version), metadata=self.metadata, timeout=self.timeout)

    def keys(self) -> pb.KeyList:
        return self.stub.ListKeys(pb.ListKeysRequest(), metadata=self.metadata, timeout=self.timeout)

    def create_key(self, label: str) -> str:
        return self.stub.CreateKey(pb.CreateKeyRequest(label=label), metadata=self.metadata, timeout=self.timeout).key

    def revoke_key(self, key_id: int) -> str:
        """Revoke key `key_id`; 0 rotates the key in use and returns its replacement."""
        return self.stub.RevokeKey(pb.RevokeKeyRequest(id=key_id), metadata=self.metadata, timeout=self.timeout).key

    def token(self, bot: str, action: str = "issue") -> str | int:
        """A bot's token: issue (a further one), rotate (revoke all, issue one) or revoke (all; returns the count)."""
        if action == "revoke":
            return self.stub.RevokeToken(pb.RevokeTokenRequest(bot=bot), metadata=self.metadata, timeout=self.timeout).revoked
        call = self.stub.RotateToken if action == "rotate" else self.stub.IssueToken
        return call(pb.IssueTokenRequest(bot=bot), metadata=self.metadata, timeout=self.timeout).token

    def challenge(self, bot: str, opponent: str, games: int) -> pb.ChallengeStatus:
        return self.stub.RequestChallenge(pb.ChallengeRequest(bot=bot, opponent=opponent, games=games), metadata=self.metadata,
                                          timeout=self.timeout)

    def get_challenge(self, challenge_id: int) -> pb.ChallengeStatus:
        return self.stub.GetChallenge(pb.GetChallengeRequest(id=challenge_id), metadata=self.metadata, timeout=self.timeout)

    def cancel_challenge(self, challenge_id: int) -> pb.ChallengeStatus:
        return self.stub.CancelChallenge(pb.GetChallengeRequest(id=challenge_id), metadata=self.metadata, timeout=self.timeout)


def create_account(address: str, name: str, invite: str = "", tls: bool = False, ca_file: str = "") -> LadderLogin:
    """Open an account on the ladder at `address`; returns the login to store."""
    channel = open_channel(address, tls, ca_file)
    try:
        reply = pb_grpc.LadderServiceStub(channel).CreateAccount(pb.CreateAccountRequest(name=name, invite=invite), timeout=30)
    finally:
        channel.close()
    return LadderLogin(address=address, account=reply.account, key=reply.key, tls=tls or bool(ca_file), ca_file=ca_file)
