"""Remote bots: a bot process dials the ladder's Arena endpoint over TCP with its hashed-token
identity and is matched while connected; the whole server (gRPC, web, gateway) runs on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

import b99.arena_pb2 as arena_pb2
import b99.arena_pb2_grpc as arena_pb2_grpc
import b99.ladder_pb2_grpc as ladder_grpc
from bots.random_bot import RandomBot
from ladder import queries
from ladder.models import MatchStatus
from ladder.recompute import recompute
from ladder.registry import add_bot, get_bot, issue_token, revoke_tokens
from ladder.server import LadderServer
from ladder.service import SchedulerOptions
from ladder.settings import LadderSettings
from sdk.run import run
from tests.ladder.conftest import GAME

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(sqlite_settings: LadderSettings):  # type: ignore[no-untyped-def]
    settings = sqlite_settings
    add_bot(settings, "near", GAME, command=[sys.executable, "-m", "bots", "random"])
    add_bot(settings, "far", GAME, remote=True, owner="someone far away")
    ladder_server = LadderServer(settings, SchedulerOptions(concurrency=1, max_matches=3, seed=1, tick_seconds=0.05),
                                 workers=1, grpc_address="127.0.0.1:0", http_address="127.0.0.1:0", arena_address="127.0.0.1:0")
    ladder_server.start()
    yield settings, ladder_server
    ladder_server.stop()


def test_a_remote_bot_plays_while_connected(server) -> None:  # type: ignore[no-untyped-def]
    """It asks for worlds (sdk.forward) and gets one with every request: the relay forwards want_world."""
    settings, ladder_server = server
    token = issue_token(settings, "far")
    loop = threading.Thread(target=ladder_server.run, kwargs={"until_idle": True}, daemon=True)
    loop.start()
    loop.join(1.0)
    assert queries.status_counts(settings) == {}  # only one local bot, the remote one is not connected
    env = {**os.environ, "B99_ARENA_ADDRESS": f"127.0.0.1:{ladder_server.arena.port}", "B99_SEAT_TOKEN": token,
           "PYTHONPATH": str(ROOT)}
    remote = subprocess.run([sys.executable, str(Path(__file__).with_name("remote_bot.py")), "3", "world"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert remote.returncode == 0, remote.stderr[-3000:]
    loop.join(60)
    assert not loop.is_alive()
    assert queries.status_counts(settings) == {MatchStatus.DONE: 3}
    for row in queries.matches(settings, limit=10):
        far = next(seat for seat in row.seats if seat.bot == "far")
        assert far.faults == [] and not far.replaced and far.rank in (1, 2)
    assert recompute(settings, GAME) == []
    # The same server also answers health checks and serves the pages.
    with grpc.insecure_channel(f"127.0.0.1:{ladder_server.grpc_port}") as channel:
        status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest()).status
        assert status == health_pb2.HealthCheckResponse.SERVING
    with urllib.request.urlopen(f"http://127.0.0.1:{ladder_server.http_port}/games/{GAME}") as page:
        assert b"far" in page.read()


def test_a_wrong_token_is_refused(server, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    settings, ladder_server = server
    issue_token(settings, "far")
    address = f"127.0.0.1:{ladder_server.arena.port}"
    with pytest.raises(SystemExit) as refused:
        run(RandomBot(), address=address, token="b99_not-a-real-token", backoff_seconds=0)
    assert refused.value.code == 3
    assert "rejected the seat token" in capsys.readouterr().err
    assert not ladder_server.online.available(2)


def test_a_relay_needs_the_ladder_s_ticket(server) -> None:  # type: ignore[no-untyped-def]
    _, ladder_server = server
    with grpc.insecure_channel(f"127.0.0.1:{ladder_server.arena.port}") as channel:
        stub = ladder_grpc.ArenaRelayStub(channel)
        metadata = [("b99-bot", "2"), ("b99-match", "m"), ("b99-seat", "0"), ("b99-ticket", "forged")]
        with pytest.raises(grpc.RpcError) as denied:
            list(stub.Attach(iter([arena_pb2.RefereeMessage()]), metadata=metadata))
        assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_a_remote_bot_plays_through_a_celery_worker(sqlite_settings: LadderSettings, redis_url: str, tmp_path: Path) -> None:
    """With the Celery executor, the worker's referee reaches the remote bot through the service's
    gateway: the relay finds the gateway's address and the ticket secret in the database."""
    settings = sqlite_settings
    add_bot(settings, "near", GAME, command=[sys.executable, "-m", "bots", "random"])
    add_bot(settings, "far", GAME, remote=True)
    token = issue_token(settings, "far")
    ladder_server = LadderServer(settings, SchedulerOptions(concurrency=1, max_matches=2, seed=2, tick_seconds=0.05),
                                 executor="celery", broker=redis_url, arena_address="127.0.0.1:0")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = subprocess.Popen(
        [sys.executable, "-c", "from referee.cli import main; main()", "ladder", "worker", "--broker", redis_url,
         "--concurrency", "1", "--scratch", str(tmp_path / "worker")],
        env=env, stdout=subprocess.DEVNULL, stderr=(tmp_path / "worker.log").open("wb"), start_new_session=True,
    )
    ladder_server.start()
    try:
        loop = threading.Thread(target=ladder_server.run, kwargs={"until_idle": True}, daemon=True)
        loop.start()
        remote_env = {**env, "B99_ARENA_ADDRESS": f"127.0.0.1:{ladder_server.arena.port}", "B99_SEAT_TOKEN": token}
        remote = subprocess.run([sys.executable, str(Path(__file__).with_name("remote_bot.py")), "2"], env=remote_env,
                                capture_output=True, text=True, timeout=120)
        assert remote.returncode == 0, remote.stderr[-3000:] + (tmp_path / "worker.log").read_text()[-3000:]
        loop.join(60)
        assert not loop.is_alive()
    finally:
        ladder_server.stop()
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(10)
    assert queries.status_counts(settings) == {MatchStatus.DONE: 2}
    for row in queries.matches(settings, limit=10):
        far = next(seat for seat in row.seats if seat.bot == "far")
        assert far.faults == [] and not far.replaced
        assert str(row.worker).rsplit(":", 1)[1] != str(os.getpid())  # played by the Celery worker's process
    assert recompute(settings, GAME) == []
def test_idle_streams_do_not_shut_out_a_remote_bot(server) -> None:  # type: ignore[no-untyped-def]
    settings, ladder_server = server
    token = issue_token(settings, "far")
    address = f"127.0.0.1:{ladder_server.arena.port}"
    # 100 streams that never say anything, over connections of their own (more than any worker pool).
    channels = [grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(13)]
    silent: list[object] = []
    never = threading.Event()

    def nothing():  # type: ignore[no-untyped-def]
        never.wait()
        yield from ()

    for index in range(100):
        silent.append(arena_pb2_grpc.ArenaStub(channels[index % len(channels)]).Play(nothing()))
    try:
        loop = threading.Thread(target=ladder_server.run, kwargs={"until_idle": True}, daemon=True)
        loop.start()
        env = {**os.environ, "B99_ARENA_ADDRESS": address, "B99_SEAT_TOKEN": token, "PYTHONPATH": str(ROOT)}
        remote = subprocess.run([sys.executable, str(Path(__file__).with_name("remote_bot.py")), "1"], env=env,
                                capture_output=True, text=True, timeout=120)
        assert remote.returncode == 0, remote.stderr[-3000:]
        deadline = time.monotonic() + 30
        while queries.status_counts(settings).get(MatchStatus.DONE, 0) < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert queries.status_counts(settings).get(MatchStatus.DONE, 0) >= 1
    finally:
        never.set()
        for call in silent:
            call.cancel()  # type: ignore[attr-defined]
        for channel in channels:
            channel.close()


def test_revoking_a_token_closes_the_waiting_connection(server) -> None:  # type: ignore[no-untyped-def]
    """A remote bot connected and waiting for a seat is told its token is revoked, and the SDK stops
    (exit code 3, no reconnect loop); the ladder no longer counts it as online."""
    settings, ladder_server = server
    token = issue_token(settings, "far")
    far_id = get_bot(settings, "far").id
    env = {**os.environ, "B99_ARENA_ADDRESS": f"127.0.0.1:{ladder_server.arena.port}", "B99_SEAT_TOKEN": token,
           "PYTHONPATH": str(ROOT)}
    remote = subprocess.Popen([sys.executable, str(Path(__file__).with_name("remote_bot.py")), "1"], env=env,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not ladder_server.online.available(far_id) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ladder_server.online.available(far_id), "the remote bot never connected"
        assert revoke_tokens(settings, "far") == 1
        _, stderr = remote.communicate(timeout=30)
    finally:
        if remote.poll() is None:
            remote.kill()
            remote.wait()
    assert remote.returncode == 3, stderr[-2000:]
    assert "unknown or revoked ladder token" in stderr
    assert not ladder_server.online.available(far_id)


def test_a_remote_bot_is_validated_once_it_connects(sqlite_settings: LadderSettings) -> None:
    """Issue 14: a remote bot plays its validation games too, queued only while it is connected."""
    settings = sqlite_settings
    add_bot(settings, "near", GAME, command=[sys.executable, "-m", "bots", "random"])
    far = add_bot(settings, "far", GAME, remote=True, validate=True)
    assert far.status == "validating"
    token = issue_token(settings, "far")
    ladder_server = LadderServer(settings, SchedulerOptions(concurrency=1, max_matches=1, seed=2, tick_seconds=0.05),
                                 workers=1, grpc_address="127.0.0.1:0", http_address="127.0.0.1:0", arena_address="127.0.0.1:0")
    ladder_server.start()
    try:
        loop = threading.Thread(target=ladder_server.run, kwargs={"until_idle": True}, daemon=True)
        loop.start()
        loop.join(1.0)
        assert queries.matches(settings, limit=10) == []  # not connected: nothing is queued for it, nothing faulted
        env = {**os.environ, "B99_ARENA_ADDRESS": f"127.0.0.1:{ladder_server.arena.port}", "B99_SEAT_TOKEN": token,
               "PYTHONPATH": str(ROOT)}
        remote = subprocess.run([sys.executable, str(Path(__file__).with_name("remote_bot.py")), "3"], env=env,
                                capture_output=True, text=True, timeout=120)
        assert remote.returncode == 0, remote.stderr[-3000:]
        loop.join(60)
        assert not loop.is_alive()
    finally:
        ladder_server.stop()
    assert get_bot(settings, "far").status == "active"
    rows = queries.matches(settings, limit=10)
    assert sorted(row.kind for row in rows) == ["rated", "validation", "validation"]
    for row in rows:
        far_seat = next(seat for seat in row.seats if seat.bot == "far")
        assert row.status == "done" and far_seat.faults == [] and not far_seat.replaced


def _waiting_stream(address: str, token: str, messages):  # type: ignore[no-untyped-def]
    channel = grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
    call = arena_pb2_grpc.ArenaStub(channel).Play(messages, metadata=(("b99-seat-token", token),), timeout=30)
    return channel, call


def test_a_waiting_remote_bot_cannot_flood_the_gateway(server) -> None:  # type: ignore[no-untyped-def]
    """A remote bot with a valid token, waiting for a seat, sends decisions nobody reads: after the
    inbox bound (32 messages or 1 MiB) it is cut; a message over the receive limit is refused unread;
    one token holds at most MAX_WAITING_PER_BOT waiting connections."""
    from ladder.remote import GATEWAY_MAX_RECEIVE_BYTES, MAX_WAITING_PER_BOT

    settings, ladder_server = server
    token = issue_token(settings, "far")
    address = f"127.0.0.1:{ladder_server.arena.port}"
    hello = arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token=token, bot_name="far"))
    decision = arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=1, option_id="x" * (200 * 1024)))

    def flood():  # type: ignore[no-untyped-def]
        yield hello
        for _ in range(5000):  # 1 GB if it were all kept
            yield decision

    channel, call = _waiting_stream(address, token, flood())
    replies = [message.error.message for message in call]
    channel.close()
    assert any(reply.startswith("flood: more than 32 messages or 1024 KiB") for reply in replies), replies

    huge = arena_pb2.BotMessage(decision=arena_pb2.Decision(request_id=1, option_id="x" * GATEWAY_MAX_RECEIVE_BYTES))
    channel, call = _waiting_stream(address, token, iter([hello, huge]))
    with pytest.raises(grpc.RpcError) as refused:
        list(call)
    channel.close()
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED

    never = threading.Event()

    def wait_forever():  # type: ignore[no-untyped-def]
        yield hello
        never.wait()

    far_id = get_bot(settings, "far").id
    opened = [_waiting_stream(address, token, wait_forever()) for _ in range(MAX_WAITING_PER_BOT)]
    try:
        deadline = time.monotonic() + 20
        while len(ladder_server.arena.waiting.get(far_id, [])) < MAX_WAITING_PER_BOT and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(ladder_server.arena.waiting.get(far_id, [])) == MAX_WAITING_PER_BOT
        extra = [_waiting_stream(address, token, wait_forever()) for _ in range(3)]
        opened += extra
        refusals = [next(iter(call)).error.message for _, call in extra]
        assert all("connections waiting for a seat" in text for text in refusals), refusals
        assert len(ladder_server.arena.waiting.get(far_id, [])) == MAX_WAITING_PER_BOT
    finally:
        never.set()
        for channel, call in opened:
            call.cancel()
            channel.close()


def test_revoking_a_token_keeps_a_scheduled_game(server) -> None:  # type: ignore[no-untyped-def]
    """Measured: a token revoked between scheduling and the start of the game closed the waiting
    connection the match had been given, and the bot took a rated loss with a `disconnect` fault.
    A connection already matched to a match is kept for that game, which ends normally."""
    import asyncio

    settings, ladder_server = server
    token = issue_token(settings, "far")
    far_id = get_bot(settings, "far").id
    env = {**os.environ, "B99_ARENA_ADDRESS": f"127.0.0.1:{ladder_server.arena.port}", "B99_SEAT_TOKEN": token,
           "PYTHONPATH": str(ROOT)}
    remote = subprocess.Popen([sys.executable, str(Path(__file__).with_name("remote_bot.py")), "1"], env=env,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not ladder_server.online.available(far_id) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ladder_server.online.available(far_id), "the remote bot never connected"
        match_id = ladder_server.ladder.schedule_one(GAME)  # matched: its waiting connection is this match's
        assert match_id is not None
        assert revoke_tokens(settings, "far") == 1
        gateway = ladder_server.arena
        asyncio.run_coroutine_threadsafe(gateway._drop_refused(), gateway._loop).result(10)  # the periodic recheck
        ladder_server.ladder.dispatch()
        _, stderr = remote.communicate(timeout=60)
    finally:
        if remote.poll() is None:
            remote.kill()
            remote.wait()
    assert remote.returncode == 0, stderr[-2000:]
    deadline = time.monotonic() + 30
    while queries.match(settings, match_id).status != MatchStatus.DONE and time.monotonic() < deadline:  # type: ignore[union-attr]
        time.sleep(0.05)
    row = queries.match(settings, match_id)
    assert row is not None and row.status == MatchStatus.DONE
    far = next(seat for seat in row.seats if seat.bot == "far")
    assert far.faults == [] and not far.replaced
    assert not ladder_server.online.available(far_id)
    assert ladder_server.ladder.schedule_one(GAME) is None  # a revoked token opens no new connection
