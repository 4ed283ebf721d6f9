"""A bot's own output on the ladder: kept per decision for its owner, shown on the owner's signed-in page,
never in the public replay, the match page or to another account."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from pathlib import Path

from ladder.accounts import register
from ladder.execute import execute_match
from ladder.matches import schedule_match
from ladder.registry import add_bot
from ladder.replays import load_replay
from ladder.settings import LadderSettings
from ladder.web import serve_http
from tests.ladder.conftest import GAME
from tests.ladder.test_bot_page import signed_in

CHATTY = [sys.executable, str(Path(__file__).parents[1] / "viewer" / "chatty_bot.py")]


def test_the_owner_alone_reads_what_its_bot_wrote_at_each_decision(sqlite_settings: LadderSettings) -> None:
    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    ann, ann_key = register(settings, "ann")
    _, bob_key = register(settings, "bob")
    chatty = add_bot(settings, "chatty", GAME, command=CHATTY, owner="ann", account_id=ann.id)
    steady = add_bot(settings, "steady", GAME, command=[sys.executable, "-m", "tests.bots.misbehaving", "good"])
    match_id = schedule_match(settings, GAME, [chatty.id, steady.id], seed=4)  # type: ignore[list-item]
    assert execute_match(settings, match_id) == "done"
    replay = load_replay(settings, match_id)
    assert b"printed at decision" not in replay and b"stderr at decision" not in replay and b'"logs"' not in replay
    assert not list(settings.replays_dir.glob("*.output.jsonl"))  # the side file is scratch

    server, port = serve_http(settings, "127.0.0.1:0")
    base = f"http://127.0.0.1:{port}"

    def get(path: str, cookie: str = "") -> tuple[int, str]:
        request = urllib.request.Request(base + path, headers={"Cookie": cookie} if cookie else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    try:
        ann_cookie = signed_in(port, ann_key)
        status, mine = get(f"/account/matches/{match_id}/output", ann_cookie)
        assert status == 200 and "Seat 0 · chatty" in mine and "Seat 1" not in mine  # only the owner's seat
        assert "printed at decision 1" in mine and "stderr at decision 1" in mine and "<td>1</td>" in mine
        rows = mine.count("<tr><td>")
        assert rows >= 1 and all(f"<tr><td>{n}</td><td><pre class=\"stderr\">[stdout]\nprinted at decision {n}" in mine for n in range(1, rows + 1)), mine
        # one row per decision, numbered as the bot counts them
        assert f"/account/matches/{match_id}/output" in get("/account", ann_cookie)[1]  # linked from "my bots"
        for who, cookie in (("anonymous", ""), ("another account", signed_in(port, bob_key))):
            status, page = get(f"/account/matches/{match_id}/output", cookie)
            assert status in (401, 404) and "printed at decision" not in page, who
        for public in (f"/matches/{match_id}", f"/bots/{chatty.id}"):
            assert "printed at decision" not in get(public, ann_cookie)[1]
        assert get("/account/matches/999999/output", ann_cookie)[0] == 404
    finally:
        server.shutdown()


def test_a_fault_on_the_ladder_names_the_seats_own_decision(sqlite_settings: LadderSettings) -> None:
    """A bot that crashes at its third decision: the match page, and the LadderService's Fault, say so in the
    seat's own count, not the match's."""
    import grpc

    import b99.ladder_pb2 as pb
    import b99.ladder_pb2_grpc as pb_grpc
    from ladder.api import serve_grpc

    settings = sqlite_settings
    crash = [sys.executable, "-m", "tests.bots.misbehaving", "crash"]
    crasher = add_bot(settings, "crasher", GAME, command=crash)
    # Its opponent plays seeded random options: the same game every run, long enough for a third decision.
    steady = add_bot(settings, "steady", GAME, command=[sys.executable, "-m", "tests.bots.misbehaving", "good"])
    match_id = schedule_match(settings, GAME, [steady.id, crasher.id], seed=4)  # type: ignore[list-item]
    assert execute_match(settings, match_id) == "done"
    server, port = serve_grpc(settings, "127.0.0.1:0")
    web, web_port = serve_http(settings, "127.0.0.1:0")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            match = pb_grpc.LadderServiceStub(channel).GetMatch(pb.GetMatchRequest(match=str(match_id)))
        [fault] = [fault for seat in match.seats for fault in seat.faults]
        assert fault.kind == "crash" and fault.seat_decision == 3 and fault.decision_index > 3
        page = urllib.request.urlopen(f"http://127.0.0.1:{web_port}/matches/{match_id}", timeout=10).read().decode()
        assert "crash at its decision 3: " in page and f"at decision {fault.decision_index}" not in page
    finally:
        server.stop(grace=None)
        web.shutdown()
