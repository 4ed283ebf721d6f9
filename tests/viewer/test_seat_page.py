"""The browser seat in a real headless Chromium: every clickable kind answers for its own seat's area only,
Underground Dice's parts are clickable, and the picture is redrawn at game over."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from referee.match import BotSpec, MatchSpec, run_match
from referee.viewer.headless import Browser, Page
from referee.viewer.seat import WebHumanBot, WebSeat
from referee.viewer.server import serve
from tests.viewer.games import CONFIGS


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    tab = browser.page()
    yield tab
    tab.close()


class SeatGame:
    """A match with a person in seat 0 (the page) against random bots, played in a thread."""

    def __init__(self, game_id: str, name: str, players: int, tmp_path: Path, seed: int) -> None:
        self.web = WebSeat(game_id, name, str(tmp_path / "seat.jsonl"))
        self.server, self.url = serve(self.web.respond)
        bots = [BotSpec(name="human", factory=lambda: WebHumanBot(self.web))]
        # Seeded opponents: the same game every run, so the decisions a test waits for come every time.
        bots += [BotSpec(name=f"random{i}", factory=lambda i=i: RandomBot(seed=seed + i)) for i in range(1, players)]
        spec = MatchSpec(game=game_id, bots=bots, seed=seed, replay_path=self.web.replay_path)
        self.thread = threading.Thread(target=run_match, args=(spec,), daemon=True)
        self.thread.start()

    def answer_until(self, wanted: Callable[[list[str]], bool], timeout: float = 90.0) -> list[str]:
        """Answer with the first option until the seat is offered options `wanted` accepts; returns them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.thread.is_alive():
            ids = [option["id"] for option in self.web.options]
            if ids and wanted(ids):
                return ids
            if ids:
                self.web.choose(ids[0])
            time.sleep(0.002)
        raise AssertionError(f"the seat was never offered such options (match running: {self.thread.is_alive()}, chosen: {self.web.chosen[-5:]})")

    def finish(self) -> None:
        while self.thread.is_alive():
            ids = [option["id"] for option in self.web.options]
            if ids:
                self.web.choose(ids[-1])
            time.sleep(0.002)

    def close(self) -> None:
        self.server.shutdown()


def picture_bindings(page: Page, version: int) -> list[dict[str, str]]:
    page.wait_for(f"Number(document.body.dataset.version) >= {version} && document.querySelector('#options button') !== null")
    return page.evaluate(
        "[...document.querySelectorAll('#picture [data-option]')].map(n => ({option: n.dataset.option, tag: n.tagName,"
        " fill: n.getAttribute('fill') || '', area: (n.closest('[data-seat-area]') || {dataset: {}}).dataset.seatArea || ''}))"
    )


def click(page: Page, selector: str) -> None:
    """A real mouse click in the middle of the element."""
    x, y = page.evaluate(f"(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }})()")
    page.click_at(x, y)


def test_merchants_places_on_empty_cells_of_its_own_shop_only(page: Page, tmp_path: Path) -> None:
    game = SeatGame("merchants", "Merchants of B99", 2, tmp_path, seed=3)
    try:
        page.errors.clear()
        page.goto(game.url)
        game.answer_until(lambda ids: any(i.startswith("place:") for i in ids))
        bound = picture_bindings(page, game.web.version)
        places = [b for b in bound if b["option"].startswith("place:")]
        assert places and all(b["area"] == "0" for b in bound), bound
        assert any(b["fill"] == "transparent" for b in places), "an empty cell is clickable"
        # A click on an opponent's empty cell plays nothing; a click on one of one's own plays it.
        page.evaluate("window.scrollTo(0, 0)")
        other = "#picture [data-seat-area='1'] rect[data-keys^='place:']"
        assert page.evaluate(f"document.querySelector(\"{other}\") !== null")
        chosen_before = list(game.web.chosen)
        page.evaluate(f"document.querySelector(\"{other}\").scrollIntoView()")
        click(page, other.replace("'", '"'))
        time.sleep(0.3)
        assert game.web.chosen == chosen_before, "a click on seat 1's shop played a move for seat 0"
        mine = "#picture [data-seat-area='0'] rect[data-option]"
        target = page.evaluate(f"document.querySelector(\"{mine}\").dataset.option")
        page.evaluate(f"document.querySelector(\"{mine}\").scrollIntoView()")
        click(page, mine.replace("'", '"'))
        deadline = time.monotonic() + 10
        while game.web.chosen == chosen_before and time.monotonic() < deadline:
            time.sleep(0.02)
        assert game.web.chosen[-1] == target
        # At game over the picture shows the end: each shop's total and its final scoring.
        game.finish()
        page.wait_for("document.body.dataset.final === '1'", timeout=30)
        picture = page.evaluate("document.getElementById('picture').textContent")
        assert "total" in picture and "{'" not in picture and "': " not in picture, "no Python notation"
        assert page.errors == []
    finally:
        game.close()


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_every_clickable_kind_plays_its_option_and_only_in_its_own_area(page: Page, tmp_path: Path, game_id: str, players: int) -> None:
    """Every game at its smallest and largest count: at the person's first decisions each part of the picture
    bound to an option lies in the person's own area or on the common table, and a click on one part of each
    kind (the option id's prefix) plays exactly that option."""
    from referee.registry import get_game

    game = SeatGame(game_id, get_game(game_id).name, players, tmp_path, seed=4)
    try:
        page.errors.clear()
        page.goto(game.url)
        clicked: set[str] = set()
        for _ in range(DECISIONS_LOOKED_AT):
            try:
                game.answer_until(lambda ids: True)
            except AssertionError:
                break  # the game ended first
            version = game.web.version
            bound = picture_bindings(page, version)
            assert all(b["area"] in ("", "0") for b in bound), bound
            fresh = [b for b in bound if b["option"].split(":")[0] not in clicked]
            if not fresh:
                game.web.choose(game.web.options[-1]["id"])
                continue
            option = fresh[0]["option"]
            chosen = len(game.web.chosen)
            page.evaluate(f"document.querySelector('#picture [data-option=\"{option}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}}))")
            deadline = time.monotonic() + 10
            while len(game.web.chosen) == chosen and time.monotonic() < deadline:
                time.sleep(0.01)
            assert game.web.chosen[-1] == option
            clicked.add(option.split(":")[0])
        game.finish()
        assert page.errors == []
    finally:
        game.close()


#: The person's decisions the test above looks at in each game (the first ones: every kind shows early).
DECISIONS_LOOKED_AT = 8


def test_underground_dice_has_clickable_parts(page: Page, tmp_path: Path) -> None:
    game = SeatGame("underground_dice", "Underground Dice", 2, tmp_path, seed=4)
    try:
        page.errors.clear()
        page.goto(game.url)
        for prefix in ("pins:", "stake:"):
            ids = game.answer_until(lambda ids, prefix=prefix: any(i.startswith(prefix) for i in ids))
            bound = picture_bindings(page, game.web.version)
            assert any(b["option"].startswith(prefix) for b in bound), (prefix, ids, bound)
            assert all(b["area"] in ("", "0") for b in bound)
            assert page.evaluate("document.getElementById('hint').textContent").startswith("Click a highlighted part")
            chosen = len(game.web.chosen)
            selector = f"#picture [data-option^=\"{prefix}\"]"
            page.evaluate(f"document.querySelector('{selector}').scrollIntoView()")
            click(page, selector)
            deadline = time.monotonic() + 10
            while len(game.web.chosen) == chosen and time.monotonic() < deadline:
                time.sleep(0.02)
            assert game.web.chosen[-1].startswith(prefix)
        game.finish()
        page.wait_for("document.body.dataset.final === '1'", timeout=30)
        assert page.errors == []
    finally:
        game.close()
