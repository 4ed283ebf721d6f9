"""The LadderService under pressure and abuse, over real channels: many watchers, caps per client and in
total, a private ladder's streams, malformed and hostile requests at every method, token rotation."""

from __future__ import annotations

import sys
import threading
import time

import grpc
import pytest

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from ladder.api import SERVICE, SERVICE_NAME, WatchLimits, serve_grpc
from ladder.registry import add_bot, bot_for_token, issue_token
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME
from tests.ladder.test_api import ADMIN, play_one

RANDOM = [sys.executable, "-m", "bots", "random"]
AUTH = [("authorization", f"Bearer {ADMIN}")]


@pytest.fixture
def ladder(sqlite_settings: LadderSettings) -> tuple[LadderSettings, list[int]]:
    ids = [add_bot(sqlite_settings, name, GAME, command=RANDOM).id or 0 for name in ("x", "y")]
    add_bot(sqlite_settings, "far", GAME, remote=True)
    play_one(sqlite_settings, ids, 1)
    return sqlite_settings, ids


def open_watch(stub: pb_grpc.LadderServiceStub, **kwargs: object) -> grpc.Future:
    """A WatchResults stream of the game's results after the first one."""
    return stub.WatchResults(pb.WatchResultsRequest(game=GAME, after_rating_seq=1), timeout=30, **kwargs)


def stream_error(stream: object, wait: float = 1.0) -> grpc.StatusCode | None:
    """The status a stream ended with within `wait` seconds, None if it is still open."""
    done = threading.Event()
    result: list[grpc.StatusCode | None] = [None]

    def read() -> None:
        try:
            next(stream)  # type: ignore[call-overload]
        except grpc.RpcError as error:
            result[0] = error.code()
        done.set()

    threading.Thread(target=read, daemon=True).start()
    done.wait(wait)
    return result[0]


def test_unary_calls_answer_while_many_watchers_are_connected(ladder) -> None:  # type: ignore[no-untyped-def]
    """Issue 13: 16 open WatchResults streams took every thread and GetLeaderboard timed out."""
    settings, ids = ladder
    server, port = serve_grpc(settings, "127.0.0.1:0", ADMIN, limits=WatchLimits(per_client=100, total=100))
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        stub = pb_grpc.LadderServiceStub(channel)
        streams = [open_watch(stub) for _ in range(40)]
        deadline = time.monotonic() + 10
        while sum(server.servicer.watching.values()) < 40:  # every stream has reached the server
            assert time.monotonic() < deadline, server.servicer.watching
            time.sleep(0.05)
        board = stub.GetLeaderboard(pb.LeaderboardRequest(game=GAME), timeout=5)
        assert {entry.bot.name for entry in board.entries} == {"x", "y", "far"}
        play_one(settings, ids, 2)  # every watcher gets the new result
        assert all(next(stream).rating_seq == 2 for stream in streams)
        for stream in streams:
            stream.cancel()
    finally:
        channel.close()
        server.stop(None)


def test_watchers_are_capped_per_client_and_in_total(ladder) -> None:  # type: ignore[no-untyped-def]
    settings, _ = ladder
    server, port = serve_grpc(settings, "[::]:0", ADMIN, limits=WatchLimits(per_client=2, total=3))
    first, second = grpc.insecure_channel(f"127.0.0.1:{port}"), grpc.insecure_channel(f"[::1]:{port}")
    try:
        near, far = pb_grpc.LadderServiceStub(first), pb_grpc.LadderServiceStub(second)
        held = [open_watch(near), open_watch(near)]
        assert [stream_error(stream, 0.3) for stream in held] == [None, None]
        assert stream_error(open_watch(near)) == grpc.StatusCode.RESOURCE_EXHAUSTED  # over this client's share
        other = open_watch(far)
        assert stream_error(other, 0.3) is None  # another client still gets in...
        assert stream_error(open_watch(far)) == grpc.StatusCode.RESOURCE_EXHAUSTED  # ...up to the total
        held[0].cancel()
        time.sleep(0.3)
        assert stream_error(open_watch(far), 0.3) is None  # a closed stream frees its place
        assert near.GetLeaderboard(pb.LeaderboardRequest(game=GAME), timeout=5).entries
    finally:
        first.close()
        second.close()
        server.stop(None)


def test_a_private_ladder_needs_a_token_for_streams(ladder) -> None:  # type: ignore[no-untyped-def]
    settings, _ = ladder
    token = issue_token(settings, "far")
    server, port = serve_grpc(settings, "127.0.0.1:0", ADMIN, private=True)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        stub = pb_grpc.LadderServiceStub(channel)
        assert stream_error(open_watch(stub)) == grpc.StatusCode.UNAUTHENTICATED
        assert stream_error(open_watch(stub, metadata=[("authorization", "Bearer b99_wrong")])) == grpc.StatusCode.UNAUTHENTICATED
        assert server.servicer.watching == {}  # refused before it held anything
        assert stream_error(open_watch(stub, metadata=[("authorization", f"Bearer {token}")]), 0.3) is None
        assert stream_error(open_watch(stub, metadata=AUTH), 0.3) is None
        replay = stub.FetchReplay(pb.GetMatchRequest(match="1"))
        with pytest.raises(grpc.RpcError) as refused:
            next(replay)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        stub.RevokeToken(pb.RevokeTokenRequest(bot="far"), metadata=AUTH)
        assert stream_error(open_watch(stub, metadata=[("authorization", f"Bearer {token}")])) == grpc.StatusCode.UNAUTHENTICATED
    finally:
        channel.close()
        server.stop(None)


def test_tokens_are_revoked_and_rotated_over_grpc(ladder) -> None:  # type: ignore[no-untyped-def]
    settings, _ = ladder
    server, port = serve_grpc(settings, "127.0.0.1:0", ADMIN)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        stub = pb_grpc.LadderServiceStub(channel)
        old = stub.IssueToken(pb.IssueTokenRequest(bot="far"), metadata=AUTH).token
        spare = stub.IssueToken(pb.IssueTokenRequest(bot="far"), metadata=AUTH).token
        new = stub.RotateToken(pb.IssueTokenRequest(bot="far"), metadata=AUTH).token
        assert bot_for_token(settings, old) is None and bot_for_token(settings, spare) is None
        assert bot_for_token(settings, new).name == "far"  # type: ignore[union-attr]
        assert stub.RevokeToken(pb.RevokeTokenRequest(bot="far", token=new), metadata=AUTH).revoked == 1
        assert bot_for_token(settings, new) is None
        for call, request in [(stub.RevokeToken, pb.RevokeTokenRequest(bot="far", token=new)),
                              (stub.RotateToken, pb.IssueTokenRequest(bot="nobody"))]:
            with pytest.raises(grpc.RpcError) as missing:
                call(request, metadata=AUTH)
            assert missing.value.code() == grpc.StatusCode.NOT_FOUND
            with pytest.raises(grpc.RpcError) as denied:
                call(request)  # no credentials at all
            assert denied.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        channel.close()
        server.stop(None)


def stub_health(channel: grpc.Channel) -> bool:
    """The server still says it is serving."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=5)
    return reply.status == health_pb2.HealthCheckResponse.SERVING


#: Hostile values for every string and number field a request has.
HOSTILE_STRINGS = ["", "99999999999999999999999", "-1", "0", "x" * 10000, "\u00e9\u0000\ud7ff", "../../etc/passwd", "1; DROP TABLE match"]
BROKEN_BYTES = [b"\xff", b"\x0a\xff\xff\xff\xff", b"\x0a\x05ab", b"\x12\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01",
                b"\x0c", b"\x0f", b"\x0a\x02\xc3\x28"]  # bad varints, truncated fields, stray end-group, bad wire type, invalid UTF-8


def parses(request_type: type, data: bytes) -> bool:
    try:
        request_type.FromString(data)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - any parse error
        return False
    return True


#: The calls an account makes with its API key (the others take the admin token here).
ACCOUNT_CALLS = {"WhoAmI", "ListKeys", "CreateKey", "RevokeKey", "SubmitBot", "FollowValidation", "MyBots", "RetireBot", "RollbackBot"}


def test_every_method_answers_malformed_and_hostile_requests_with_a_clear_status(ladder) -> None:  # type: ignore[no-untyped-def]
    """Issue 13: a malformed protobuf request was INTERNAL rather than INVALID_ARGUMENT."""
    from google.protobuf import message_factory

    from ladder.accounts import create_key, register

    settings, _ = ladder
    settings.home.mkdir(parents=True, exist_ok=True)
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    account, _ = register(settings, "prober")
    (settings.home / "ladder.toml").unlink()  # invitations again: CreateAccount refuses what it is sent

    def auth(method: str) -> list[tuple[str, str]]:
        """The admin token, or for an account's call a fresh key of an account (a call may rotate it)."""
        return [("authorization", f"Bearer {create_key(settings, account.id or 0)}")] if method in ACCOUNT_CALLS else AUTH

    server, port = serve_grpc(settings, "127.0.0.1:0", ADMIN)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        for method in SERVICE.methods:
            path = f"/{SERVICE_NAME}/{method.name}"
            call = (channel.unary_stream if method.server_streaming else channel.unary_unary)(path)
            request_type = message_factory.GetMessageClass(method.input_type)
            for data in BROKEN_BYTES:
                if method.name in ACCOUNT_CALLS and parses(request_type, data):
                    continue  # bytes this type reads (an unknown field): a valid request, which an account's call answers
                with pytest.raises(grpc.RpcError) as broken:
                    reply = call(data, metadata=auth(method.name), timeout=5)
                    if method.server_streaming:
                        list(reply)
                assert broken.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (method.name, data, broken.value)
            request_type = message_factory.GetMessageClass(method.input_type)
            for field in request_type.DESCRIPTOR.fields:
                values: list[object] = HOSTILE_STRINGS if field.type == field.TYPE_STRING else (
                    [2**64 - 1, 2**63, 0] if field.cpp_type in (field.CPPTYPE_UINT64, field.CPPTYPE_UINT32) else [])
                for value in values:
                    if field.cpp_type == field.CPPTYPE_UINT32 and isinstance(value, int):
                        value = min(value, 2**32 - 1)
                    request = request_type(**{field.name: value})
                    stub_call = (channel.unary_stream if method.server_streaming else channel.unary_unary)(
                        path, request_serializer=lambda m: m.SerializeToString(), response_deserializer=bytes)
                    try:
                        reply = stub_call(request, metadata=auth(method.name), timeout=0.5 if method.name == "WatchResults" else 5)
                        if method.server_streaming:
                            for _ in reply:
                                pass
                    except grpc.RpcError as error:
                        refusals = (grpc.StatusCode.PERMISSION_DENIED,) if method.name == "CreateAccount" else ()  # no invitation
                        assert error.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND,
                                                grpc.StatusCode.DEADLINE_EXCEEDED, *refusals), \
                            (method.name, field.name, repr(value)[:40], error.code(), error.details())
                        # Only a stream that follows results may still be open when the deadline comes.
                        assert error.code() != grpc.StatusCode.DEADLINE_EXCEEDED or method.name == "WatchResults"
        assert stub_health(channel)
    finally:
        channel.close()
        server.stop(None)
