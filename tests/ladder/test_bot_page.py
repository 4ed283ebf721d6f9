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


def _add_rated_matches(settings: LadderSettings, count: int, bots: list[int], start: int) -> dict[int, list[int]]:
    """`count` finished rated matches of bots[0] against the others in turn, written in bulk; returns
    bots[0]'s wins, draws and losses per opponent."""
    import random
    import uuid

    from sqlalchemy import func, insert
    from sqlmodel import select

    from ladder.db import write_session
    from ladder.models import GameCounter, Match, MatchKind, MatchStatus, Seat, utcnow

    rng = random.Random(start)
    record: dict[int, list[int]] = {}
    with write_session(settings.db_url) as session:
        first = int(session.exec(select(func.max(Match.id))).one() or 0) + 1
        now = utcnow()
        session.execute(insert(Match), [
            {"id": first + i, "uid": uuid.uuid4().hex, "game": GAME, "config": {"game": GAME, "players": 2}, "seed": i,
             "status": MatchStatus.DONE, "kind": MatchKind.RATED, "rating_seq": start + i, "finished_at": now,
             "created_at": now, "attempts": 1, "dispatches": 1, "result_attempt": 1}
            for i in range(count)
        ])
        seats = []
        for i in range(count):
            opponent = bots[1 + i % (len(bots) - 1)]
            ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
            outcome = record.setdefault(opponent, [0, 0, 0])
            outcome[0 if ranks == (1, 2) else 2 if ranks == (2, 1) else 1] += 1
            faults = [{"kind": "timeout", "detail": "slow", "decision_index": 3}] if i % 10 == 0 else []
            for seat, (bot, rank) in enumerate(zip((bots[0], opponent), ranks)):
                seats.append({"match_id": first + i, "seat": seat, "bot_id": bot, "rank": rank, "score": 0.0,
                              "faults": faults if bot == bots[0] else [], "replaced": False, "rating_before": 1500.0,
                              "rating_after": 1500.0 + rng.uniform(-50, 50), "stderr_tail": ""})
        session.execute(insert(Seat), seats)
        counter = session.get(GameCounter, GAME) or GameCounter(game=GAME)
        counter.rating_seq = start + count
        session.add(counter)
    return record


def test_a_bot_page_stays_small_with_thousands_of_games(sqlite_settings: LadderSettings) -> None:
    """Measured: a bot page with about 800 games was 114 KB and took 2.4-2.9 s (every rated match in
    its history table and chart, head to head counted in Python from every seat). Now the page's
    size and its number of SQL queries do not grow with the games: the history shows the latest
    rows, the chart a bounded number of points, head to head and by-seat are counted by the database."""
    from sqlalchemy import event

    from ladder.db import get_engine

    settings = sqlite_settings
    bots = [add_bot(settings, name, GAME, command=RANDOM).id or 0 for name in ("busy", "rival", "third")]
    small = _add_rated_matches(settings, 100, bots, 1)
    statements: list[str] = []
    engine = get_engine(settings.db_url)

    def count(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    server, port = serve_http(settings, "127.0.0.1:0")
    event.listen(engine, "before_cursor_execute", count)
    try:
        def page() -> tuple[str, int]:
            statements.clear()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/bots/{bots[0]}", timeout=60) as response:
                return response.read().decode(), len(statements)

        page()  # warms the strength fit's cache
        before, queries_before = page()
        large = _add_rated_matches(settings, 3000, bots, 101)
        page()
        after, queries_after = page()
    finally:
        event.remove(engine, "before_cursor_execute", count)
        server.shutdown()
    assert queries_after == queries_before
    assert len(after.encode()) < 80_000, len(after.encode())
    assert "3100 rated matches" in after and "(the latest 50)" in after
    assert after.count("<circle") == 0 and after.count("/matches/") < 200
    h2h = {r.opponent_id: r for r in queries.head_to_head(settings, bots[0])}
    for opponent in bots[1:]:
        wins, draws, losses = (a + b for a, b in zip(small[opponent], large[opponent]))
        assert (h2h[opponent].wins, h2h[opponent].draws, h2h[opponent].losses) == (wins, draws, losses)
    [seat0] = [r for r in queries.results_by_seat(settings, bots[0]) if r.seat == 0]
    assert seat0.games == 3100 and seat0.faults == 310
    assert len(queries.bot_faults(settings, bots[0])) == 50
