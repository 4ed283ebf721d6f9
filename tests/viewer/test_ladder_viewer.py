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
        # The match page embeds the live viewer; once the match is over the page around it shows the result.
        page.goto(f"{base}/matches/{match_id}")
        frame = "document.getElementById('viewer').contentDocument.body"
        page.wait_for(f"{frame} && {frame}.dataset.ready === '1'")
        first = int(page.wait_for(f"{frame}.dataset.liveSteps"))
        page.wait_for(f"Number({frame}.dataset.liveSteps) > {first + 2}", timeout=30)
        runner.join(120)
        page.wait_for("document.querySelector('strong.status-running') === null && document.querySelector('td.rank').textContent.trim() !== '-'", timeout=30)
        assert "/view/" in page.evaluate("document.getElementById('viewer').src")
        # The embedded viewer takes the window's width (the page's text column would leave it unreadable).
        assert page.evaluate("document.getElementById('viewer').getBoundingClientRect().width >= 0.9 * innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
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


def test_the_finished_viewer_cache_is_bounded_by_bytes(tmp_path: Path) -> None:
    """The least recently used timelines go first once their replays' bytes pass the limit."""
    from ladder.viewer_pages import TimelineCache
    from tests.viewer.games import write_replay

    paths = [write_replay(GAME, 2, tmp_path / str(seed), seed=seed) for seed in (1, 2, 3) if (tmp_path / str(seed)).mkdir() is None]
    sizes = [path.stat().st_size for path in paths]
    cache = TimelineCache(limit_bytes=sizes[0] + sizes[1] + min(sizes) // 2)
    loads: list[str] = []

    def load(path: str):  # type: ignore[no-untyped-def]
        from referee.replay import read_replay
        from referee.viewer.timeline import Timeline

        loads.append(Path(path).parent.name)
        return Timeline.from_records(read_replay(path))

    for path in (paths[0], paths[1], paths[0], paths[2]):
        cache.get(str(path), load)
    assert list(cache.entries) == [str(paths[0]), str(paths[2])], "the least recently used replay went first"
    assert cache.held_bytes == sizes[0] + sizes[2] <= cache.limit_bytes
    assert loads == ["1", "2", "3"], "a kept timeline is not read again"
    small = TimelineCache(limit_bytes=min(sizes) - 1)
    small.get(str(paths[0]), load)
    assert small.entries == {} and small.held_bytes == 0, "a replay bigger than the whole limit is not kept"
