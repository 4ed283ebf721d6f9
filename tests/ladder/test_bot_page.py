"""What authors see on their bot's page: every fault with its stderr (to the owner only), results
by opponent and by seat, the rating over time with dates."""

from __future__ import annotations

import sys
import urllib.request

from ladder import queries
from ladder.execute import execute_match
from ladder.matches import schedule_match
from ladder.accounts import register
from ladder.registry import add_bot, issue_token, set_status
from ladder.settings import LadderSettings
from ladder.web import serve_http
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]
CRASH = [sys.executable, "-c", "import sys; print('Traceback (most recent call last):\\nImportError: no module named mybrain', file=sys.stderr); sys.exit(1)"]


def signed_in(port: int, key: str) -> str:
    """The Cookie header of a session signed in with `key` (the form the sign-in page posts)."""
    import http.client
    from urllib.parse import urlencode

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/account/sign-in", urlencode({"key": key}), {"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    assert response.status == 303, response.read()
    cookie = response.getheader("set-cookie") or ""
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and key not in cookie
    return cookie.split(";", 1)[0]


def test_the_owner_sees_each_fault_with_stderr_and_results_by_opponent_and_seat(sqlite_settings: LadderSettings) -> None:
    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')
    ann, ann_key = register(settings, "ann")
    _, bob_key = register(settings, "bob")
    flaky = add_bot(settings, "flaky", GAME, command=CRASH, owner="ann", account_id=ann.id)
    steady = add_bot(settings, "steady", GAME, command=RANDOM)
    other = add_bot(settings, "other", GAME, command=RANDOM)
    for seed, table in enumerate([[flaky.id, steady.id], [steady.id, flaky.id], [steady.id, other.id]]):
        assert execute_match(settings, schedule_match(settings, GAME, table, seed=seed)) == "done"  # type: ignore[arg-type]

    [record] = queries.head_to_head(settings, flaky.id or 0)
    assert (record.opponent, record.games, record.wins, record.losses) == ("steady", 2, 0, 2)
    steady_h2h = {r.opponent: r for r in queries.head_to_head(settings, steady.id or 0)}
    assert steady_h2h["flaky"].wins == 2 and steady_h2h["other"].games == 1
    assert [(r.seat, r.games, r.faults) for r in queries.results_by_seat(settings, flaky.id or 0)] == [(0, 1, 1), (1, 1, 1)]
    faults = queries.bot_faults(settings, flaky.id or 0)
    assert len(faults) == 2 and all("ImportError: no module named mybrain" in f.stderr_tail for f in faults)

    server, port = serve_http(settings, "127.0.0.1:0")
    try:
        def page(query: str = "", cookie: str = "") -> str:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/bots/{flaky.id}{query}", headers={"Cookie": cookie} if cookie else {})
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.read().decode()

        public = page()
        assert "startup" in public and "exited before saying hello" in public  # the fault itself is public
        assert "mybrain" not in public  # its stderr is not
        assert "mybrain" not in page(f"?token={issue_token(settings, 'flaky')}")  # no secret in a URL opens anything
        owner = page(cookie=signed_in(port, ann_key))
        assert "ImportError: no module named mybrain" in owner
        assert 'id="head-to-head"' in owner and "steady" in owner and 'id="by-seat"' in owner
        assert "mybrain" in page(cookie=signed_in(port, settings.admin_token()))
        assert "mybrain" not in page(cookie=signed_in(port, bob_key))  # another account
        history = urllib.request.urlopen(f"http://127.0.0.1:{port}/bots/{steady.id}", timeout=10).read().decode()
        assert 'id="rating-history"' in history and history.count("<tr><td>20") >= 3  # dated rows

        set_status(settings, "flaky", "paused", "keeps crashing")
        board = urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{GAME}", timeout=10).read().decode()
        ranked, apart = board.split('id="unranked"')
        assert ">flaky</a>" not in ranked and ">steady</a>" in ranked and "90% interval" in ranked
        assert ">flaky</a>" in apart and "keeps crashing" in apart
    finally:
        server.shutdown()
