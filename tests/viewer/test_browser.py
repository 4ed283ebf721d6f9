"""The viewer, the live page and the browser seat in a real headless Chromium (Debian package `chromium`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from referee.match import BotSpec, MatchSpec, run_match
from referee.replay import live_path_of, read_replay
from referee.viewer.app import LiveReplay, ReplayPages
from referee.viewer.headless import Browser, Page
from referee.viewer.seat import WebHumanBot, WebSeat
from referee.viewer.server import serve
from referee.viewer.timeline import Timeline
from tests.viewer.games import CONFIGS, write_replay


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    tab = browser.page()
    yield tab
    tab.close()


def seats_shown(page: Page) -> set[str]:
    return set(page.evaluate("[...document.querySelectorAll('#picture [data-seat-area]')].map(n => n.dataset.seatArea)"))


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_viewer_pages_at_start_middle_and_end(page: Page, tmp_path: Path, game_id: str, players: int) -> None:
    """Every game at one seat (where allowed) and its most seats: the page loads, steps, and shows every seat."""
    timeline = Timeline.from_records(read_replay(write_replay(game_id, players, tmp_path)))
    pages = ReplayPages(lambda timeline=timeline: timeline)
    server, url = serve(lambda method, path, query, body, pages=pages: pages.respond(path.lstrip("/"), query))
    try:
        page.errors.clear()
        page.goto(url)
        page.wait_for("document.body && document.body.dataset.ready === '1'")
        last = len(timeline.steps) - 1
        for step, perspective in ((0, ""), (last // 2, "0"), (last, "")):
            page.evaluate(f"document.getElementById('perspective').value = '{perspective}'")
            page.evaluate(f"(() => {{ const s = document.getElementById('slider'); s.value = {step}; s.dispatchEvent(new Event('input')); }})()")
            page.wait_for(f"document.body.dataset.step === '{step}'")
            assert seats_shown(page) >= {str(s) for s in range(players)}, (game_id, players, step)
        assert page.evaluate("document.getElementById('result').textContent").startswith("result:")
        assert page.evaluate("document.body.dataset.scriptError") is None
        assert page.errors == [], (game_id, page.errors)
    finally:
        server.shutdown()


class SlowRandom(RandomBot):
    """Thinks a little per decision so the live page can be watched changing."""

    def choose(self, request):  # type: ignore[no-untyped-def]
        time.sleep(0.02)
        return super().choose(request)


def test_live_page_updates_while_the_match_runs(page: Page, tmp_path: Path) -> None:
    replay = tmp_path / "live.jsonl"
    bots = [BotSpec(name=f"slow{i}", factory=SlowRandom) for i in range(2)]
    spec = MatchSpec(game="deep_dive", bots=bots, seed=2, replay_path=str(replay), live_replay=True)
    match = threading.Thread(target=run_match, args=(spec,), daemon=True)
    match.start()
    deadline = time.monotonic() + 10
    while not live_path_of(replay).exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    live = LiveReplay(live_path_of(replay), replay)
    pages = ReplayPages(live.timeline, live=True)

    def respond(method, path, query, body):  # type: ignore[no-untyped-def]
        return live.stream(query, poll_seconds=0.05) if path == "/events" else pages.respond(path.lstrip("/"), query)

    server, url = serve(respond)
    try:
        page.errors.clear()
        page.goto(url)
        page.wait_for("document.body && document.body.dataset.ready === '1'")
        first = int(page.wait_for("document.body.dataset.liveSteps"))
        # More steps arrive while the match runs (unless it ran to its end meanwhile, on a busy machine).
        page.wait_for(f"Number(document.body.dataset.liveSteps) > {first + 3} || document.body.dataset.over === '1'", timeout=30)
        assert int(page.evaluate("document.body.dataset.liveSteps")) > first or page.evaluate("document.body.dataset.over") == "1"
        assert page.evaluate("document.getElementById('perspective').options.length") == 1, "spectator only while running"
        match.join(60)
        page.wait_for("document.getElementById('status').textContent === 'finished'", timeout=30)
        assert page.errors == []
    finally:
        server.shutdown()


def test_a_click_on_the_seat_page_reaches_the_referee(page: Page, tmp_path: Path) -> None:
    replay = tmp_path / "seat.jsonl"
    web = WebSeat("deep_dive", "DEEP DIVE", str(replay))
    server, url = serve(web.respond)
    spec = MatchSpec(
        game="deep_dive",
        bots=[BotSpec(name="human", factory=lambda: WebHumanBot(web)), BotSpec(name="random", factory=RandomBot)],
        seed=4,
        replay_path=str(replay),
    )
    reports = []
    match = threading.Thread(target=lambda: reports.append(run_match(spec)), daemon=True)
    match.start()
    try:
        page.errors.clear()
        page.goto(url)
        page.wait_for("document.querySelector('#options button') !== null")
        # The first click goes on the picture where an option is drawn there, otherwise on the labelled list.
        clicked = page.evaluate(
            "(() => { const n = document.querySelector('#picture [data-option]') || document.querySelector('#options button');"
            " n.dispatchEvent(new MouseEvent('click', {bubbles: true})); return n.dataset.option; })()"
        )
        deadline = time.monotonic() + 10
        while not web.chosen and time.monotonic() < deadline:
            time.sleep(0.02)
        assert web.chosen[0] == clicked
        # Then the rest of the game is answered through the same channel the page posts to.
        while match.is_alive():
            options = list(web.options)
            if options:
                web.choose(options[0]["id"])
            time.sleep(0.002)
        page.wait_for("document.body.dataset.over === '1'")
        assert page.evaluate("document.getElementById('replay-link') !== null")
        first_human = next(r for r in read_replay(replay) if r["type"] == "decision" and "0" in r["choices"] and r["how"]["0"] == "bot")
        assert first_human["choices"]["0"] == clicked
        assert reports and not reports[0].seats[0].replaced
        assert page.errors == []
    finally:
        server.shutdown()
