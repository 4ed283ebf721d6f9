"""The ladder's match page: the viewer for a finished match, and a running match watched live in Chromium."""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from sqlmodel import select

from ladder.db import migrate, read_session, sqlite_url
from ladder.execute import execute_match
from ladder.matches import schedule_match
from ladder.models import LiveChunk
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from ladder.web import serve_http
from referee.viewer.headless import Browser

SLOW = [sys.executable, str(Path(__file__).parents[1] / "ladder" / "slow_bot.py")]
GAME = "deep_dive"


@pytest.fixture
def ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[LadderSettings, str, list[int]]]:
    monkeypatch.setenv("B99_SLOW_SECONDS", "0.015")  # long enough to watch, short enough for the suite
    settings = LadderSettings(home=tmp_path, db_url=sqlite_url(tmp_path / "ladder.db"))
    migrate(settings.db_url)
    bots = [add_bot(settings, name, GAME, command=SLOW, sandbox="none").id for name in ("s1", "s2")]
    server, port = serve_http(settings, "127.0.0.1:0")
    yield settings, f"http://127.0.0.1:{port}", [int(b) for b in bots if b is not None]
    server.shutdown()


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_running_match_is_watched_live_then_replayed(ladder, browser: Browser) -> None:  # type: ignore[no-untyped-def]
    settings, base, bots = ladder
    match_id = schedule_match(settings, GAME, bots, seed=3)
    runner = threading.Thread(target=execute_match, args=(settings, match_id), daemon=True)
    runner.start()
    page = browser.page()
    try:
        deadline = time.monotonic() + 30
        while get(f"{base}/matches/{match_id}/live/timeline.json")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert b"watch live" in get(f"{base}/matches/{match_id}")[1]
        status, body = get(f"{base}/matches/{match_id}/live/step.json?n=0&seat=0")
        assert status == 403 and b"spectator" in body, "no seat's view while the match runs"
        page.goto(f"{base}/matches/{match_id}/live/")
        page.wait_for("document.body && document.body.dataset.ready === '1'")
        first = int(page.wait_for("document.body.dataset.liveSteps"))
        page.wait_for(f"Number(document.body.dataset.liveSteps) > {first + 2}", timeout=30)
        runner.join(120)
        page.wait_for("document.getElementById('status').textContent === 'finished'", timeout=30)
        assert page.errors == []
        # Finished: the match page embeds the viewer with every seat's perspective.
        assert b'src="/matches/%d/view/"' % match_id in get(f"{base}/matches/{match_id}")[1]
        page.goto(f"{base}/matches/{match_id}/view/")
        page.wait_for("document.body && document.body.dataset.ready === '1'")
        assert page.evaluate("document.getElementById('perspective').options.length") == 4  # spectator, two seats, every seat
        assert set(page.evaluate("[...document.querySelectorAll('#picture [data-seat-area]')].map(n => n.dataset.seatArea)")) >= {"0", "1"}
        status, body = get(f"{base}/matches/{match_id}/view/step.json?n=5&seat=1")
        assert status == 200 and json.loads(body)["step"] == 5
        assert page.errors == []
    finally:
        page.close()
    assert get(f"{base}/matches/999999/view/")[0] == 404


def test_a_match_on_another_machine_is_watched_live(ladder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A worker that shares only the database with the service (its own home, so no replay file the
    service could read) still feeds the live page: it writes the replay's lines into the database."""
    settings, base, bots = ladder
    monkeypatch.setenv("B99_SLOW_SECONDS", "0.03")
    monkeypatch.delenv("B99_LADDER_WORKER_KIND", raising=False)  # a Celery worker, not a local match process
    elsewhere = LadderSettings(home=tmp_path / "other-machine", db_url=settings.db_url)
    match_id = schedule_match(settings, GAME, bots, seed=4)
    runner = threading.Thread(target=execute_match, args=(elsewhere, match_id), daemon=True)
    runner.start()
    seen: list[int] = []
    deadline = time.monotonic() + 60
    while runner.is_alive() and time.monotonic() < deadline:
        status, body = get(f"{base}/matches/{match_id}/live/timeline.json")
        if status == 200:
            timeline = json.loads(body)
            seen.append(len(timeline["steps"]))
            if timeline.get("finished"):  # the game's last line arrived (the thread may still be recording the result)
                assert timeline.get("result"), "the page showed an end without the game's result"
                break
        time.sleep(0.2)
    runner.join(60)
    assert not settings.replays_dir.exists() or not any(settings.replays_dir.iterdir()), "the service's disk was used"
    growing = sorted(set(seen))
    assert len(growing) >= 3 and growing[-1] > growing[0], f"the live page did not follow the match: {seen}"
    status, body = get(f"{base}/matches/{match_id}/live/timeline.json")
    assert status == 200 and json.loads(body)["finished"]  # the stored replay takes over at the end
    with read_session(settings.db_url) as session:
        assert session.exec(select(LiveChunk)).all() == []  # chunks go when the result is recorded
