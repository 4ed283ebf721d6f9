"""The gRPC LadderService over a real channel: health, reflection, reads, admin calls, replays, watch."""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from bots.random_bot import RandomBot
from ladder import queries
from ladder.api import SERVICE_NAME, serve_grpc
from ladder.challenges import schedule_challenges
from ladder.matches import claim_match, record_result, schedule_match
from ladder.registry import add_bot, bot_for_token, issue_token
from ladder.settings import LadderSettings
from referee.local import play_local
from tests.ladder.conftest import GAME

ADMIN = "admin-secret"
RANDOM = [sys.executable, "-m", "bots", "random"]


def play_one(settings: LadderSettings, bots: list[int], seed: int) -> None:
    job = claim_match(settings, schedule_match(settings, GAME, bots, seed=seed), "w", 60)
    assert not isinstance(job, str)
    settings.replays_dir.mkdir(parents=True, exist_ok=True)
    replay = settings.replays_dir / f"{job.uid}.jsonl"
    report = play_local(GAME, [RandomBot(seed), RandomBot(seed + 7)], seed=seed, replay_path=str(replay))
    assert record_result(settings, job, report)


@pytest.fixture
def api(sqlite_settings: LadderSettings):  # type: ignore[no-untyped-def]
    settings = sqlite_settings
    ids = [add_bot(settings, name, GAME, command=RANDOM, owner="o").id or 0 for name in ("x", "y")]
    for seed in range(3):
        play_one(settings, ids[:: 1 if seed % 2 else -1], seed)
    server, port = serve_grpc(settings, "127.0.0.1:0", admin_token=ADMIN)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield settings, ids, channel
    channel.close()
    server.stop(grace=None)


def test_health_and_reflection(api) -> None:  # type: ignore[no-untyped-def]
    _, _, channel = api
    health = health_pb2_grpc.HealthStub(channel)
    assert health.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME)).status == health_pb2.HealthCheckResponse.SERVING
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    [response] = list(stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {service.name for service in response.list_services_response.service}
    assert {SERVICE_NAME, "grpc.health.v1.Health"} <= names


def test_leaderboard_matches_and_replay(api) -> None:  # type: ignore[no-untyped-def]
    settings, ids, channel = api
    stub = pb_grpc.LadderServiceStub(channel)
    board = stub.GetLeaderboard(pb.LeaderboardRequest(game=GAME))
    assert [entry.bot.name for entry in board.entries] and {e.bot.id for e in board.entries} == set(ids)
    assert all(entry.games == 3 and entry.has_interval for entry in board.entries)
    assert board.entries[0].rating >= board.entries[1].rating
    matches = stub.ListMatches(pb.ListMatchesRequest(game=GAME, bot="x")).matches
    assert len(matches) == 3 and all(m.status == "done" and len(m.seats) == 2 and m.has_replay for m in matches)
    one = stub.GetMatch(pb.GetMatchRequest(match=matches[0].uid))
    assert one.id == matches[0].id and sorted(seat.rank for seat in one.seats) in ([1, 2], [1, 1])
    data = b"".join(chunk.data for chunk in stub.FetchReplay(pb.GetMatchRequest(match=str(one.id))))
    assert data and data.splitlines()[0].startswith(b"{")
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetMatch(pb.GetMatchRequest(match="nope"))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND


def test_admin_calls_need_the_admin_token(api) -> None:  # type: ignore[no-untyped-def]
    settings, _, channel = api
    stub = pb_grpc.LadderServiceStub(channel)
    request = pb.RegisterBotRequest(name="far", game=GAME, remote=True, owner="zed")
    with pytest.raises(grpc.RpcError) as denied:
        stub.RegisterBot(request)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as wrong:
        stub.RegisterBot(request, metadata=[("authorization", "Bearer nope")])
    assert wrong.value.code() == grpc.StatusCode.PERMISSION_DENIED
    auth = [("authorization", f"Bearer {ADMIN}")]
    bot = stub.RegisterBot(request, metadata=auth)
    assert bot.kind == "remote" and bot.owner == "zed"
    token = stub.IssueToken(pb.IssueTokenRequest(bot="far"), metadata=auth).token
    assert bot_for_token(settings, token).name == "far"  # type: ignore[union-attr]
    with pytest.raises(grpc.RpcError) as bad:
        stub.RegisterBot(pb.RegisterBotRequest(name="far", game=GAME, remote=True), metadata=auth)
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "already exists" in bad.value.details()


def test_watch_results_streams_backlog_then_new_results(api) -> None:  # type: ignore[no-untyped-def]
    settings, ids, channel = api
    stub = pb_grpc.LadderServiceStub(channel)
    stream = stub.WatchResults(pb.WatchResultsRequest(game=GAME, after_rating_seq=1), timeout=20)
    first, second = next(stream), next(stream)
    assert (first.rating_seq, second.rating_seq) == (2, 3)
    threading.Timer(0.3, play_one, args=(settings, ids, 99)).start()
    third = next(stream)
    assert third.rating_seq == 4 and third.seed == 99
    stream.cancel()


def test_register_an_uploaded_bot_over_grpc(api, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import io
    import tarfile

    settings, _, channel = api
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        data = b"print('hello')\n"
        info = tarfile.TarInfo("main.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    stub = pb_grpc.LadderServiceStub(channel)
    bot = stub.RegisterBot(
        pb.RegisterBotRequest(name="boxed", game=GAME, command=["python3", "main.py"], archive=buffer.getvalue()),
        metadata=[("authorization", f"Bearer {ADMIN}")],
    )
    assert bot.kind == "uploaded"
    from ladder.registry import get_bot

    stored = Path(get_bot(settings, "boxed").store_path or "")
    assert (stored / "main.py").read_bytes() == b"print('hello')\n"


def test_watch_every_game_streams_only_new_results(api) -> None:  # type: ignore[no-untyped-def]
    settings, ids, channel = api
    stub = pb_grpc.LadderServiceStub(channel)
    stream = stub.WatchResults(pb.WatchResultsRequest(), timeout=20)
    threading.Timer(0.5, play_one, args=(settings, ids, 77)).start()
    first = next(stream)
    assert first.seed == 77 and first.game == GAME  # the three earlier results are not replayed
    stream.cancel()


def test_a_running_match_keeps_its_seed_and_replay_secret(sqlite_settings: LadderSettings) -> None:
    """Its seed would predict every chance outcome: API and page show only the commitment until it is over."""
    import urllib.error
    import urllib.request

    from ladder.web import serve_http
    from referee.chance import seed_commitment

    settings = sqlite_settings
    ids = [add_bot(settings, name, GAME, command=RANDOM, owner="o").id or 0 for name in ("x", "y")]
    seed = 8_123_456_789_012_345
    match_id = schedule_match(settings, GAME, ids, seed=seed)
    job = claim_match(settings, match_id, "w", 60)
    assert not isinstance(job, str)
    server, port = serve_grpc(settings, "127.0.0.1:0", admin_token=ADMIN)
    http, http_port = serve_http(settings, "127.0.0.1:0")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.LadderServiceStub(channel)
            shown = stub.GetMatch(pb.GetMatchRequest(match=str(match_id)))
            assert shown.status == "running" and shown.seed == 0 and not shown.has_replay
            assert [m.seed for m in stub.ListMatches(pb.ListMatchesRequest(game=GAME)).matches] == [0]
            with pytest.raises(grpc.RpcError) as refused:
                list(stub.FetchReplay(pb.GetMatchRequest(match=str(match_id))))
            assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/matches/{match_id}") as response:
            page = response.read().decode()
        assert str(seed) not in page and seed_commitment(seed, job.uid) in page
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{http_port}/matches/{match_id}/replay.jsonl")
        assert missing.value.code == 404
        settings.replays_dir.mkdir(parents=True, exist_ok=True)
        report = play_local(GAME, [RandomBot(1), RandomBot(2)], seed=seed, replay_path=str(settings.replays_dir / "done.jsonl"))
        assert record_result(settings, job, report)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            assert pb_grpc.LadderServiceStub(channel).GetMatch(pb.GetMatchRequest(match=str(match_id))).seed == seed
    finally:
        http.shutdown()
        server.stop(grace=None)


def test_leaderboard_says_what_its_intervals_mean_and_who_is_better_than_next(api) -> None:  # type: ignore[no-untyped-def]
    """Over gRPC as on the game's page: each ranked bot but the last has the probability it is better than
    the bot below it, and the board says its intervals are 90% ones relative to the field's mean (1500)."""
    settings, ids, channel = api
    board = pb_grpc.LadderServiceStub(channel).GetLeaderboard(pb.LeaderboardRequest(game=GAME))
    assert board.field_mean == 1500.0 and board.interval_level == 0.9
    page = {row.bot_id: row for row in queries.leaderboard(settings, GAME)}
    first, last = board.entries[0], board.entries[-1]
    assert first.has_better_than_next and 0.0 < first.better_than_next < 1.0
    assert first.better_than_next == pytest.approx(page[first.bot.id].above_next)
    assert not last.has_better_than_next and last.better_than_next == 0.0
    for entry in board.entries:
        assert (entry.interval_low, entry.interval_high) == pytest.approx(page[entry.bot.id].interval)
        assert entry.strength == pytest.approx(page[entry.bot.id].strength)
    # The field's mean is the anchor: the strengths of a game's bots average to it.
    assert sum(entry.strength for entry in board.entries) / len(board.entries) == pytest.approx(board.field_mean, abs=1e-6)


def test_paused_and_validating_bots_are_listed_apart(api) -> None:  # type: ignore[no-untyped-def]
    from ladder.registry import set_status

    settings, ids, channel = api
    set_status(settings, "y", "paused", "too many faults")
    add_bot(settings, "new", GAME, command=RANDOM, validate=True)
    board = pb_grpc.LadderServiceStub(channel).GetLeaderboard(pb.LeaderboardRequest(game=GAME))
    assert [(entry.position, entry.bot.name) for entry in board.entries] == [(1, "x")]
    assert board.entries[0].has_interval and board.entries[0].interval_low < board.entries[0].strength < board.entries[0].interval_high
    assert {(entry.bot.name, entry.bot.status, entry.position) for entry in board.unranked} == {("y", "paused", 0), ("new", "validating", 0)}
    match = pb_grpc.LadderServiceStub(channel).ListMatches(pb.ListMatchesRequest(game=GAME)).matches[0]
    assert match.kind == "rated" and match.unrated_reason == ""


def test_an_owner_asks_for_a_challenge_over_grpc_and_reads_its_results(api) -> None:  # type: ignore[no-untyped-def]
    """With one of its bot's tokens an owner queues unrated games and reads them back; ratings stay."""
    settings, ids, channel = api
    stub = pb_grpc.LadderServiceStub(channel)
    board_before = {entry.bot.name: (entry.rating, entry.games) for entry in stub.GetLeaderboard(pb.LeaderboardRequest(game=GAME)).entries}
    x_token = issue_token(settings, "x")
    y_token = issue_token(settings, "y")
    request = pb.ChallengeRequest(bot="x", opponent="y", games=2)
    for metadata, code in (([], grpc.StatusCode.UNAUTHENTICATED), ([("authorization", "Bearer b99_nope")], grpc.StatusCode.UNAUTHENTICATED),
                           ([("authorization", f"Bearer {y_token}")], grpc.StatusCode.PERMISSION_DENIED)):
        with pytest.raises(grpc.RpcError) as refused:
            stub.RequestChallenge(request, metadata=metadata)
        assert refused.value.code() == code, refused.value.details()
    owner = [("authorization", f"Bearer {x_token}")]
    with pytest.raises(grpc.RpcError) as too_many:
        stub.RequestChallenge(pb.ChallengeRequest(bot="x", opponent="y", games=500), metadata=owner)
    assert too_many.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "1 to 200 games" in too_many.value.details()
    queued = stub.RequestChallenge(request, metadata=owner)
    assert (queued.bot, queued.opponent, queued.games, queued.finished) == ("x", "y", 2, 0)
    assert list(queued.matches) == []  # the running ladder queues a challenge's games within their share of the workers
    assert len(schedule_challenges(settings, 2, random.Random(1))) == 2
    queued = stub.GetChallenge(pb.GetChallengeRequest(id=queued.id))
    assert [match.status for match in queued.matches] == ["queued", "queued"]
    assert all(match.kind == "challenge" and match.seed == 0 for match in queued.matches)  # seeds stay secret until the end
    for number, match in enumerate(queued.matches):
        job = claim_match(settings, match.id, "w", 60)
        assert not isinstance(job, str)
        report = play_local(GAME, [RandomBot(number), RandomBot(number + 7)], seed=job.seed)
        assert record_result(settings, job, report)
    done = stub.GetChallenge(pb.GetChallengeRequest(id=queued.id))
    assert done.finished == 2 and done.wins + done.draws + done.losses == 2
    assert all(match.status == "done" and match.seed != 0 for match in done.matches)
    board_after = {entry.bot.name: (entry.rating, entry.games) for entry in stub.GetLeaderboard(pb.LeaderboardRequest(game=GAME)).entries}
    assert board_after == board_before
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetChallenge(pb.GetChallengeRequest(id=999))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
