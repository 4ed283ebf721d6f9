"""The web server itself (uvicorn + Starlette) over real sockets: HEAD, 404 and 400, idle connections,
pages of matches and bots, the game's settings, and hostile input thrown at every route."""

from __future__ import annotations

import http.client
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.routing import Mount, Route

from ladder.game_settings import make_settings, save_games
from ladder.matches import schedule_match
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from ladder.web import build_app, serve_http
from tests.ladder.conftest import GAME
from tests.ladder.test_api import play_one

RANDOM = [sys.executable, "-m", "bots", "random"]
PAGE_SIZE = 8  # rows per page on the test's site (50 by default)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LadderSettings, int, dict[str, int]]]:
    from ladder.db import migrate, sqlite_url

    home = tmp_path_factory.mktemp("web-server")
    settings = LadderSettings(home=home, db_url=sqlite_url(home / "ladder.db"))
    migrate(settings.db_url)
    ids = [add_bot(settings, f"bot{i:02d}", GAME, command=RANDOM).id or 0 for i in range(PAGE_SIZE + 5)]
    play_one(settings, ids[:2], 3)
    for seed in range(2 * PAGE_SIZE + 3):  # 19 queued matches
        table = [ids[1], ids[2 + seed % 5]] if seed % 2 == 0 else ids[seed % 7: seed % 7 + 2]
        schedule_match(settings, GAME, table, seed=seed)
    save_games(home / "games.toml", {GAME: make_settings(GAME, {"time_per_decision": 2.5, "variants": {"counterfeit": True}})})
    server, port = serve_http(settings, "127.0.0.1:0", page_size=PAGE_SIZE)
    yield settings, port, {"first_bot": ids[0], "busy_bot": ids[1], "played": 1}  # busy_bot: 14 matches
    server.shutdown()


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def raw(port: int, data: bytes) -> bytes:
    """Send raw bytes as a request; the server's answer (b"" if it just closed the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)  # nothing more is coming: the server answers and closes
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, TimeoutError):
            pass
    return b"".join(chunks)


def test_head_is_answered_like_get_without_a_body(site) -> None:  # type: ignore[no-untyped-def]
    """Issue 13: HEAD requests got 501."""
    _, port, ids = site
    for path in ("/", f"/games/{GAME}", "/bots", f"/bots/{ids['first_bot']}", "/matches", "/matches/1",
                 "/matches/1/replay.jsonl", f"/api/games/{GAME}/leaderboard.json", "/static/ladder.css"):
        status, headers, body = request(port, "GET", path)
        head_status, head_headers, head_body = request(port, "HEAD", path)
        assert (status, head_status) == (200, 200), path
        assert head_body == b"" and head_headers["content-type"] == headers["content-type"], path
        if "content-length" in head_headers and not path.endswith("leaderboard.json") and path != f"/games/{GAME}":
            assert int(head_headers["content-length"]) == len(body), path


def test_ids_too_big_for_a_table_are_404_not_500(site) -> None:  # type: ignore[no-untyped-def]
    """Issue 13: /bots/99999999999999999999999 was a 500."""
    _, port, _ = site
    for path in ("/bots/99999999999999999999999", "/matches/99999999999999999999999",
                 "/matches/99999999999999999999999/replay.jsonl", "/bots/0", "/matches/0", "/bots/nobody",
                 "/games/chess", "/api/games/chess/leaderboard.json", "/static/nothing.css", "/static/../web.py",
                 "/nothing"):
        status, headers, body = request(port, "GET", path)
        assert status == 404, (path, status, body[:200])
    assert b"Not found" in request(port, "GET", "/bots/99999999999999999999999")[2]


def test_bad_query_parameters_are_400(site) -> None:  # type: ignore[no-untyped-def]
    _, port, _ = site
    for path in ("/matches?page=0", "/matches?page=-1", "/matches?page=abc", "/matches?page=99999999999999999999",
                 "/matches?status=lost", "/matches?game=chess", "/matches?bot=nobody", "/bots?page=%00",
                 f"/games/{GAME}?page=x", "/bots?game=../../etc"):
        status, _, body = request(port, "GET", path)
        assert status == 400, (path, status)
        assert b"Bad request" in body
    assert request(port, "POST", "/matches")[0] == 405


def test_matches_and_bots_come_a_page_at_a_time(site) -> None:  # type: ignore[no-untyped-def]
    _, port, ids = site
    total = 2 * PAGE_SIZE + 3 + ids["played"]
    first = request(port, "GET", "/matches")[2].decode()
    assert first.count('<tr class="status-') == PAGE_SIZE
    assert f"page 1 of 3 · {total} in all" in first and 'rel="next" href="/matches?page=2"' in first
    last = request(port, "GET", "/matches?page=3")[2].decode()
    assert last.count('<tr class="status-') == total - 2 * PAGE_SIZE and 'href="/matches/1"' in last
    assert 'rel="prev"' in last and 'rel="next"' not in last
    done = request(port, "GET", "/matches?status=done")[2].decode()
    assert done.count('<tr class="status-done"') == 1 and "page 1 of" not in done
    bots = request(port, "GET", f"/bots?game={GAME}&page=2")[2].decode()
    assert bots.count("<tr data-bot-id=") == 5 and "page 2 of 2" in bots
    board = request(port, "GET", f"/games/{GAME}?page=2")[2].decode()
    assert board.count("<tr data-bot-id=") == 5
    bot_page = request(port, "GET", f"/bots/{ids['busy_bot']}")[2].decode()
    assert bot_page.count('<tr class="status-') == PAGE_SIZE
    busy = request(port, "GET", f"/matches?bot={ids['busy_bot']}")[2].decode()
    assert "page 1 of 2 · 14 in all" in busy and "page 1 of 2 · 14 in all" in bot_page and f'rel="next" href="/bots/{ids["busy_bot"]}?page=2"' in bot_page


def test_the_game_page_shows_the_games_settings(site) -> None:  # type: ignore[no-untyped-def]
    _, port, _ = site
    page = request(port, "GET", f"/games/{GAME}")[2].decode()
    settings = page[page.index('id="game-settings"'):page.index("</dl>")]
    assert "<dd>2</dd>" in settings and "per decision seconds 2.5" in settings and "counterfeit = true" in settings


def test_idle_connections_hold_no_thread(site) -> None:  # type: ignore[no-untyped-def]
    """Issue 13: each idle HTTP connection held a thread (300 idle sockets, 309 threads)."""
    _, port, _ = site
    before = threading.active_count()
    idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(300)]
    try:
        for sock in idle[:150]:  # half have had a page and keep the connection alive
            sock.sendall(b"GET /static/ladder.css HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        time.sleep(0.5)
        assert threading.active_count() - before < 10
        assert request(port, "GET", "/")[0] == 200
    finally:
        for sock in idle:
            sock.close()


HOSTILE = ["99999999999999999999999", "-1%00%ff%fe", "..%2f..%2fetc%2fpasswd", "x" * 5000, "%E2%80%AE<script>alert(1)</script>",
           "%zz%"]


def test_hostile_input_at_every_route_never_breaks_the_server(site) -> None:  # type: ignore[no-untyped-def]
    settings, port, _ = site
    app = build_app(settings)
    templates: list[str] = []
    for route in app.routes:
        if isinstance(route, Route):
            templates.append(route.path)
        elif isinstance(route, Mount):
            templates.append(route.path + "/{path}")
    assert len(templates) >= 9
    for template in templates:
        for value in HOSTILE:
            path = re.sub(r"\{\w+\}", value, template)
            for query in ("", f"?page={value}&game={value}&status={value}&bot={value}"):
                for method in ("GET",) if query else ("GET", "HEAD", "POST", "DELETE", "OPTIONS"):
                    status, _, body = request(port, method, path + query)
                    # 303: signing out; 401 and 403: the owner's forms without a session or with a stale form token
                    assert status in (200, 303, 400, 401, 403, 404, 405), (method, path[:60], query[:60], status, body[:300])
                    assert b"<script>alert" not in body
    for data in (b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 70000 + b"\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00",
                 b"GET / HTTP/1.1\r\nContent-Length: -5\r\n\r\n", b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n"):
        answer = raw(port, data)
        assert answer == b"" or re.match(rb"HTTP/1\.1 [1234]\d\d ", answer), answer[:200]  # never a 5xx
    assert request(port, "GET", "/")[0] == 200  # still serving


def test_extra_routes_are_mounted_before_the_ladders_pages(tmp_path: Path, sqlite_settings: LadderSettings) -> None:
    from starlette.responses import PlainTextResponse

    def live(request):  # type: ignore[no-untyped-def]
        return PlainTextResponse(f"live {request.path_params['key']}")

    server, port = serve_http(sqlite_settings, "127.0.0.1:0", routes=[Route("/matches/{key}/live", live)])
    try:
        status, _, body = request(port, "GET", "/matches/7/live")
        assert (status, body) == (200, b"live 7")
        assert request(port, "GET", "/matches/7")[0] == 404
    finally:
        server.shutdown()


def test_connections_that_stay_silent_are_closed(sqlite_settings: LadderSettings) -> None:
    server, port = serve_http(sqlite_settings, "127.0.0.1:0", keep_alive_seconds=1)
    try:
        silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(20)]
        kept = socket.create_connection(("127.0.0.1", port), timeout=10)
        kept.sendall(b"GET /static/ladder.css HTTP/1.1\r\nHost: x\r\n\r\n")
        assert kept.recv(65536).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        for sock in silent:
            assert sock.recv(1) == b""  # the server closed it
        while kept.recv(65536):  # the rest of the page, then the close
            pass
        assert time.monotonic() - started < 8
        assert request(port, "GET", "/")[0] == 200
    finally:
        server.shutdown()
