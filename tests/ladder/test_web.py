"""The web pages, rendered by a real headless Chromium (Debian package `chromium`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from ladder.execute import execute_match
from ladder.matches import claim_match, record_result, schedule_match
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from ladder.web import serve_http
from referee.local import play_local
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no headless browser (Debian package: chromium)")


def browse(url: str, screenshot: Path | None = None) -> str:
    """The DOM of `url` after its scripts ran, from headless Chromium (optionally a screenshot too)."""
    with tempfile.TemporaryDirectory() as profile:
        argv = [chromium(), "--headless", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", "--virtual-time-budget=1500"]
        if os.geteuid() == 0:
            argv.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        if screenshot is not None:
            shot = subprocess.run([*argv, f"--screenshot={screenshot}", "--window-size=1100,900", url],
                                  capture_output=True, timeout=60)
            assert screenshot.exists(), shot.stderr.decode()[-2000:]
        done = subprocess.run([*argv, "--dump-dom", url], capture_output=True, timeout=60, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from ladder.db import migrate, sqlite_url

    home = tmp_path_factory.mktemp("web")
    settings = LadderSettings(home=home, db_url=sqlite_url(home / "ladder.db"))
    migrate(settings.db_url)
    ann = add_bot(settings, "ann", GAME, command=RANDOM, owner="ann@example.org")
    ben = add_bot(settings, "ben", GAME, command=RANDOM)
    crash = add_bot(settings, "crashy", GAME, command=[sys.executable, "-c", "import sys; sys.exit(2)"])
    settings.replays_dir.mkdir(parents=True)
    for seed in range(5):
        job = claim_match(settings, schedule_match(settings, GAME, [ann.id, ben.id][:: 1 if seed % 2 else -1], seed=seed), "w", 60)  # type: ignore[list-item]
        assert not isinstance(job, str)
        replay = settings.replays_dir / f"{job.uid}.jsonl"
        assert record_result(settings, job, play_local(GAME, [RandomBot(seed), RandomBot(seed + 1)], seed=seed, replay_path=str(replay)))
    faulty = schedule_match(settings, GAME, [crash.id, ann.id], seed=42)  # type: ignore[list-item]
    assert execute_match(settings, faulty) == "done"
    server, port = serve_http(settings, "127.0.0.1:0")
    yield settings, f"http://127.0.0.1:{port}", {"ann": ann.id, "ben": ben.id, "crashy": crash.id, "faulty": faulty}
    server.shutdown()


def test_leaderboard_page_and_its_live_script(site) -> None:  # type: ignore[no-untyped-def]
    _, base, ids = site
    dom = browse(f"{base}/games/{GAME}")
    assert "underground_dice leaderboard" in dom
    for name in ("ann", "ben", "crashy"):
        assert f">{name}</a>" in dom
    assert "ann@example.org" in dom and "90% interval" in dom
    assert "live updates: 3 bots, updated" in dom  # the page's script fetched the JSON and ran
    index = browse(f"{base}/")
    assert f'href="/games/{GAME}"' in index


def test_bot_page_has_a_rating_chart(site, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, base, ids = site
    shot = tmp_path / "bot.png"
    dom = browse(f"{base}/bots/{ids['ann']}", screenshot=shot)
    assert "<h1>ann" in dom and "Rating history" in dom
    assert 'id="rating-chart"' in dom and 'd="M' in dom
    assert dom.count('class="dot"') == 7  # the start and six rated matches
    assert "6 rated matches" in dom
    assert shot.stat().st_size > 5000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_match_page_shows_ranks_faults_and_the_replay(site) -> None:  # type: ignore[no-untyped-def]
    settings, base, ids = site
    dom = browse(f"{base}/matches/{ids['faulty']}")
    assert f"Match #{ids['faulty']}" in dom and "crashy" in dom
    assert "ranked last" in dom and 'class="fault"' in dom
    assert 'id="replay"' in dom
    with urllib.request.urlopen(f"{base}/matches/{ids['faulty']}/replay.jsonl") as response:
        assert response.headers["Content-Disposition"].startswith("attachment")
        data = response.read()
    from ladder import queries

    from ladder.replays import load_replay

    row = queries.match(settings, ids["faulty"])
    # A match played by a worker keeps its replay in the database (compressed), not in a file.
    assert row is not None and row.has_replay and row.replay_path is None
    assert data == load_replay(settings, row.id) and data.startswith(b"{")
    assert not list(settings.replays_dir.glob(f"{row.uid}-*"))


def test_unknown_pages_are_404(site) -> None:  # type: ignore[no-untyped-def]
    _, base, _ = site
    for path in ("/bots/nobody", "/matches/999999", "/games/chess", "/nothing"):
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(f"{base}{path}")
        assert error.value.code == 404
