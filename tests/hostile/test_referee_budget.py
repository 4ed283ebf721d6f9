"""The referee's connections and memory are bounded before any token is read: a seat's listener holds
SEAT_CONNECTIONS connections and SEAT_UNAUTHENTICATED streams waiting for a hello, and a hello is at
most HELLO_MAX_BYTES. The worst of these at once (5 x 230 idle connections, 64 streams each sending the
largest message the transport takes as a hello) leaves the referee under its memory budget, with few
descriptors held, and the other seat still connects and is served."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

import b99.arena_pb2 as arena_pb2
from referee.arena_server import HELLO_MAX_BYTES, SEAT_CONNECTIONS, TRANSPORT_MAX_BYTES

#: docs/security.md: what a referee may reach under any of the attacks of its hostile suite.
REFEREE_BUDGET_MB = 250

SERVER = """
import json, os, sys, time
from referee.arena_server import ArenaServer, SeatLine
server = ArenaServer(None).start()
lines = [SeatLine(seat, f"token-{seat}") for seat in range(2)]
print(json.dumps([server.open_seat(line, f"unix:{sys.argv[1]}/seat{line.seat}.sock") for line in lines]), flush=True)
for command in sys.stdin:
    if command.strip() == "report":
        status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
        print(json.dumps({"peak_rss_mb": int(status["VmHWM"].split()[0]) / 1024,
                          "descriptors": len(os.listdir("/proc/self/fd")),
                          "seat1_connected": lines[1].connected.wait(10),
                          "seat1_hello": lines[1].hello.bot_name if lines[1].hello else None}), flush=True)
        break
server.stop()
"""


def _play(channel: grpc.Channel, metadata: tuple[tuple[str, str], ...] | None = None):  # type: ignore[no-untyped-def]
    return channel.stream_stream("/b99.arena.Arena/Play", request_serializer=lambda raw: raw,
                                 response_deserializer=arena_pb2.RefereeMessage.FromString)


def test_idle_connections_and_big_hellos_stay_within_the_referee_budget(tmp_path: Path) -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=Path(__file__).parents[2])
    assert server.stdin is not None and server.stdout is not None
    try:
        seat0, seat1 = json.loads(server.stdout.readline())
        # 64 streams on 8 connections, each sending as its hello the largest message the transport takes
        hello = arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token="token-0", bot_name="x" * (TRANSPORT_MAX_BYTES - 64)))
        raw = hello.SerializeToString()
        assert HELLO_MAX_BYTES < len(raw) <= TRANSPORT_MAX_BYTES
        channels = [grpc.insecure_channel(seat0, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(8)]
        calls = [_play(channels[index % 8])(iter([raw]), timeout=10) for index in range(64)]
        replies: list[str] = []

        def drain(call) -> None:  # type: ignore[no-untyped-def]
            try:
                for message in call:
                    replies.append(message.error.message)
            except grpc.RpcError as error:
                replies.append(str(error.code()))

        threads = [threading.Thread(target=drain, args=(call,)) for call in calls]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        # 5 x 230 idle connections to seat 0's listener (gRPC closes all but SEAT_CONNECTIONS as it accepts them)
        idle = []
        for _ in range(5 * 230):
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.settimeout(1.0)
            try:
                connection.connect(seat0.removeprefix("unix:"))
                idle.append(connection)
            except OSError:
                connection.close()
        # the other seat connects and is served meanwhile
        good = arena_pb2.BotMessage(hello=arena_pb2.Hello(seat_token="token-1", bot_name="good")).SerializeToString()
        good_channel = grpc.insecure_channel(seat1)
        good_call = _play(good_channel)(iter([good]), metadata=(("b99-seat-token", "token-1"),), timeout=10)
        server.stdin.write("report\n")
        server.stdin.flush()
        report = json.loads(server.stdout.readline())
        for thread in threads:
            thread.join(15)
        good_call.cancel()
        for channel in [*channels, good_channel]:
            channel.close()
        for connection in idle:
            connection.close()
    finally:
        server.kill()
        server.wait(10)
    assert report["seat1_connected"] and report["seat1_hello"] == "good", report
    assert report["peak_rss_mb"] < REFEREE_BUDGET_MB, report
    # the idle connections cost the referee at most its listeners' caps, not one descriptor each
    assert report["descriptors"] < 64 + 2 * SEAT_CONNECTIONS, report
    assert any("at most 4,096 bytes" in reply for reply in replies), replies[:5]
    print(report)
