"""The viewer as a bot author's debugger, in a real headless Chromium: exact seeds, the live page reaching the
true last step, the panel describing the position the picture shows, fault marks, links to a step, the move
list, copy position, every seat's hidden information, keys, escaped names, phones and small windows."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bots.random_bot import RandomBot
from referee.match import BotSpec, MatchSpec, run_match
from referee.position import load_position
from referee.replay import live_path_of, read_replay
from referee.viewer.app import LiveReplay, ReplayPages
from referee.viewer.headless import Browser, Page
from referee.viewer.server import serve
from referee.viewer.timeline import Timeline
from sdk import Request
from tests.viewer.games import CONFIGS, write_replay

BIG_SEED = 2915163433906725852
HOSTILE_NAME = '<img src=x onerror="window.pwned=1">'


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    tab = browser.page()
    yield tab
    tab.close()


class Served:
    """A replay's viewer served on an ephemeral port."""

    def __init__(self, path: Path) -> None:
        self.timeline = Timeline.from_records(read_replay(path))
        pages = ReplayPages(lambda: self.timeline, replay_name=str(path))
        self.server, self.url = serve(lambda method, sub, query, body: pages.respond(sub.lstrip("/"), query))

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()


def open_viewer(page: Page, url: str) -> None:
    page.errors.clear()
    page.goto(url)
    page.wait_for("document.body && document.body.dataset.ready === '1'")


def wait_step(page: Page, step: int) -> None:
    page.wait_for(f"document.body.dataset.step === '{step}' && document.getElementById('step-label').textContent.startsWith('step {step} ')")


class FaultyBot(RandomBot):
    """Raises at its third decision: a crash fault, then the fallback plays its seat."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def choose(self, request: Request) -> str:
        self.asked += 1
        if self.asked == 3:
            raise RuntimeError("deliberate failure")
        return super().choose(request)


@pytest.fixture(scope="module")
def faulty_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DEEP DIVE match with a 64-bit seed, a hostile seat name and a seat that crashes."""
    path = tmp_path_factory.mktemp("faulty") / "faulty.jsonl"
    bots = [BotSpec(name=HOSTILE_NAME, factory=RandomBot), BotSpec(name="faulty", factory=FaultyBot)]
    run_match(MatchSpec(game="deep_dive", bots=bots, seed=BIG_SEED, replay_path=str(path)))
    return path


def test_seed_names_marks_moves_links_and_copy_position(page: Page, faulty_replay: Path) -> None:
    with Served(faulty_replay) as served:
        timeline, last = served.timeline, len(served.timeline.steps) - 1
        open_viewer(page, served.url + "?step=-1&seat=1")
        wait_step(page, last)
        # The seed's exact digits (a JavaScript number would round them).
        assert page.evaluate("document.getElementById('title').dataset.seed") == str(BIG_SEED)
        assert str(BIG_SEED) in page.evaluate("document.getElementById('title').textContent")
        # The link named the last step and seat 1's perspective; the URL keeps following the page.
        assert page.evaluate("document.getElementById('perspective').value") == "1"
        assert "view: seat 1" in page.evaluate("document.getElementById('picture').textContent")
        assert page.evaluate("location.search") == f"?step={last}&seat=1"
        # A hostile seat name is shown as text and never runs.
        assert page.evaluate("window.pwned === undefined && document.querySelector('img') === null")
        assert HOSTILE_NAME in page.evaluate("document.getElementById('perspective').textContent")
        # Fault marks on the slider, and "next fault" goes to the step where the fault happened.
        faulted = next(step.index for step in timeline.steps if step.faults)
        assert page.evaluate("[...document.querySelectorAll('#marks span')].map(s => s.dataset.step)")[0] == str(faulted)
        page.evaluate("document.getElementById('first').click()")
        wait_step(page, 0)
        page.evaluate("document.getElementById('next-fault').click()")
        wait_step(page, faulted)
        assert "seat 1: crash" in page.evaluate("document.getElementById('faults').textContent")
        # "My next decision" from seat 1's perspective: the next position where seat 1 decides.
        mine = next(i for i in range(faulted + 1, last) if 1 in timeline.steps[i + 1].choices)
        page.evaluate("document.getElementById('my-next').click()")
        wait_step(page, mine)
        visible = "(() => { const l = document.getElementById('moves'), r = l.querySelector('li.current'), a = l.getBoundingClientRect(),"
        visible += " b = r.getBoundingClientRect(); return r.dataset.step + ':' + (b.top >= a.top - 1 && b.bottom <= a.bottom + 1); })()"
        assert page.evaluate(visible) == f"{mine}:true", "the move list shows the current step"
        assert "seat 1 (faulty)" in page.evaluate("document.getElementById('decisions').textContent")
        # The move list: every step, filtered by seat, by kind and by a search, and a row goes to its step.
        assert page.evaluate("document.querySelectorAll('#moves li').length") == last + 1
        page.evaluate("(() => { const s = document.getElementById('move-kind'); s.value = 'fault'; s.dispatchEvent(new Event('change')); })()")
        marked = [str(s.index) for s in timeline.steps if s.faults or "fallback" in s.how.values()]
        assert page.evaluate("[...document.querySelectorAll('#moves li')].map(li => li.dataset.step)") == marked
        page.evaluate("(() => { const s = document.getElementById('move-kind'); s.value = ''; s.dispatchEvent(new Event('change')); })()")
        page.evaluate("(() => { const s = document.getElementById('move-seat'); s.value = '0'; s.dispatchEvent(new Event('change')); })()")
        rows = page.evaluate("[...document.querySelectorAll('#moves li')].map(li => Number(li.dataset.step))")
        assert rows and all(0 in timeline.steps[i].choices or any(f.get("seat") == 0 for f in timeline.steps[i].faults) for i in rows)
        page.evaluate("(() => { const s = document.getElementById('move-search'); s.value = 'chance'; s.dispatchEvent(new Event('input')); })()")
        assert page.evaluate("document.querySelectorAll('#moves li').length") == 0, "seat 0's rows hold no chance step"
        page.evaluate("(() => { const s = document.getElementById('move-seat'); s.value = ''; s.dispatchEvent(new Event('change')); })()")
        chance = [str(s.index) for s in timeline.steps if s.kind == "chance"]
        assert page.evaluate("[...document.querySelectorAll('#moves li')].map(li => li.dataset.step)") == chance
        page.evaluate(f"document.querySelector('#moves li[data-step=\"{chance[1]}\"]').click()")
        wait_step(page, int(chance[1]))
        # Copy position: the JSON `b99 replay position` writes, and the commands that play on from it.
        page.evaluate("document.getElementById('copy-position').click()")
        page.wait_for(f"document.body.dataset.copied === '{chance[1]}'")
        box = page.evaluate("document.getElementById('position-box').textContent")
        commands, _, position = box.partition("\n\n")
        assert f"b99 replay position {faulty_replay} --step {chance[1]} --out" in commands and "b99 match deep_dive" in commands and "--from" in commands
        assert load_position(json.loads(position)).is_chance_node() == timeline.state_at(int(chance[1])).is_chance_node()
        # Every seat's hidden information once the match is over.
        page.evaluate("(() => { const s = document.getElementById('perspective'); s.value = 'all'; s.dispatchEvent(new Event('change')); })()")
        page.wait_for("document.getElementById('picture').textContent.includes(\"seat 1's view\")")
        assert "seat 0's view" in page.evaluate("document.getElementById('picture').textContent")
        assert page.errors == [] and page.evaluate("document.body.dataset.scriptError") is None


def test_keys_step_decisions_and_space_never_presses_a_button_again(page: Page, faulty_replay: Path) -> None:
    with Served(faulty_replay) as served:
        timeline = served.timeline
        decisions = [i for i in range(len(timeline.steps) - 1) if timeline.steps[i + 1].kind == "decision"]
        open_viewer(page, served.url + "?step=0")
        # With the slider focused, → goes to the next position that asks for a decision (not one further).
        box = page.evaluate("(() => { const r = document.getElementById('slider').getBoundingClientRect(); return [r.left, r.top + r.height / 2]; })()")
        page.click_at(box[0] + 2, box[1])
        wait_step(page, 0)
        page.press("ArrowRight", key_code=39)
        wait_step(page, next(i for i in decisions if i > 0))
        page.press("ArrowLeft", key_code=37)
        wait_step(page, 0)
        # Space after a click on "decision ▶": plays (or pauses), never presses "decision ▶" again.
        button = page.evaluate("(() => { const r = document.getElementById('next').getBoundingClientRect(); return [r.left + 5, r.top + 5]; })()")
        page.evaluate("document.getElementById('next').focus()")
        page.press(" ", code="Space", key_code=32)
        assert page.evaluate("document.getElementById('play').textContent") == "pause"
        assert page.evaluate("document.body.dataset.step") == "0"
        page.press(" ", code="Space", key_code=32)
        assert page.evaluate("document.getElementById('play').textContent") == "play"
        page.click_at(*button)
        step = int(page.wait_for("document.body.dataset.step !== '0' && document.body.dataset.step"))
        page.evaluate("document.getElementById('play').click(); document.getElementById('play').click()")  # play, pause
        page.press(" ", code="Space", key_code=32)
        page.press(" ", code="Space", key_code=32)
        time.sleep(0.2)
        assert int(page.evaluate("document.body.dataset.step")) == step, "Space pressed the focused button again"
        assert page.errors == []


def test_the_panel_describes_the_position_the_picture_shows(page: Page, tmp_path: Path) -> None:
    """The Magnificent: the die a seat takes is still in the tent on the picture beside that choice."""
    with Served(write_replay("magnificent", 2, tmp_path)) as served:
        timeline = served.timeline
        steps = [i for i in range(len(timeline.steps) - 1) if timeline.steps[i + 1].kind == "decision"
                 and any(o.startswith("die:") for o in timeline.steps[i + 1].choices.values())]
        for index in steps[:3]:
            seat, chosen = next((s, o) for s, o in timeline.steps[index + 1].choices.items() if o.startswith("die:"))
            open_viewer(page, served.url + f"?step={index}&seat={seat}")
            wait_step(page, index)
            marked = page.evaluate("[...document.querySelectorAll('#picture .chosen-mark')].map(n => n.getAttribute('data-keys'))")
            assert any(chosen in keys.split(" ") for keys in marked), (index, chosen, marked)
            assert page.evaluate("document.querySelector('#decisions li.chosen').textContent").endswith(f"[{chosen}]")
            offered = [o.id for o in timeline.state_at(index).legal_options(seat)]
            assert page.evaluate("[...document.querySelectorAll('#decisions ul.offered li')].map(li => li.textContent.match(/\\[(.*)\\]$/)[1])") == offered
        assert page.errors == []


class SlowRandom(RandomBot):
    def choose(self, request: Request) -> str:
        time.sleep(0.01)
        return super().choose(request)


def test_the_live_page_joined_midway_reaches_the_true_last_step(page: Page, tmp_path: Path) -> None:
    replay = tmp_path / "live.jsonl"
    bots = [BotSpec(name=f"slow{i}", factory=SlowRandom) for i in range(2)]
    spec = MatchSpec(game="deep_dive", bots=bots, seed=11, replay_path=str(replay), live_replay=True)
    match = threading.Thread(target=run_match, args=(spec,), daemon=True)
    match.start()
    deadline = time.monotonic() + 10
    while not live_path_of(replay).exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    live = LiveReplay(live_path_of(replay), replay)
    pages = ReplayPages(live.timeline, live=True)

    def respond(method: str, path: str, query: dict[str, str], body: bytes) -> Any:  # noqa: ANN401
        if path == "/events":
            time.sleep(0.4)  # the match moves on between the page's timeline and its stream
            return live.stream(query, poll_seconds=0.05)
        return pages.respond(path.lstrip("/"), query)

    server, url = serve(respond)
    try:
        time.sleep(0.3)
        open_viewer(page, url)
        page.wait_for("document.body.dataset.liveSteps")
        match.join(60)
        page.wait_for("document.body.dataset.over === '1'", timeout=30)
        timeline = Timeline.from_records(read_replay(replay))
        last = len(timeline.steps) - 1
        wait_step(page, last)
        assert page.evaluate("document.getElementById('status').textContent") == "finished"
        assert page.evaluate("document.getElementById('result').textContent").startswith("result: seat 0 (slow0) rank")
        assert page.evaluate("document.querySelectorAll('#moves li').length") == last + 1, "a step was lost"
        assert page.evaluate("document.getElementById('step-label').textContent").startswith(f"step {last} of {last} ")
        assert "finished" in page.evaluate("document.getElementById('picture').textContent") or timeline.state_at(last).is_terminal()
        assert page.errors == []
    finally:
        server.shutdown()


def _layout(page: Page) -> dict[str, float]:
    return page.evaluate(
        "(() => { const p = document.getElementById('picture'), s = p.querySelector('svg'), a = document.querySelector('aside');"
        " const m = document.querySelector('main'), cs = getComputedStyle(m);"
        " const avail = m.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);"
        " const sr = s.getBoundingClientRect(), ar = a.getBoundingClientRect(), pr = p.getBoundingClientRect();"
        " return {svg: sr.width, svgHeight: sr.height, column: pr.width, avail, asideTop: ar.top, pictureBottom: pr.bottom,"
        " asideLeft: ar.left, pictureRight: pr.right, pageWidth: document.documentElement.scrollWidth, window: innerWidth}; })()"
    )


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_phone_and_desktop_windows_give_the_picture_the_width(page: Page, tmp_path: Path, game_id: str, players: int) -> None:
    with Served(write_replay(game_id, players, tmp_path)) as served:
        try:
            page.resize(390, 844, mobile=True)
            open_viewer(page, served.url + "?step=-1&seat=0")
            phone = _layout(page)
            assert phone["svg"] >= 0.9 * phone["avail"] and phone["svgHeight"] > 100, phone
            assert phone["asideTop"] >= phone["pictureBottom"] - 1, "on a phone the panel goes below the picture"
            assert phone["pageWidth"] <= phone["window"] + 1, "nothing wider than the phone"
            page.resize(1280, 720)
            open_viewer(page, served.url + "?step=-1&seat=0")
            desktop = _layout(page)
            assert desktop["svg"] >= 0.9 * desktop["column"] and desktop["column"] >= 0.6 * desktop["avail"], desktop
            assert desktop["asideLeft"] >= desktop["pictureRight"] - 1, "beside the picture on a desktop"
            assert page.errors == []
        finally:
            page.resize(1320, 1000)


def test_a_bots_own_output_shows_beside_its_decisions(page: Page, tmp_path: Path) -> None:
    """What a process bot prints (stdout, which a `print` in an SDK bot writes) and writes to stderr, captured
    per decision into the replay, is shown at that decision in the owner's local viewer and nowhere public."""
    import sys

    replay = tmp_path / "chatty.jsonl"
    command = (sys.executable, str(Path(__file__).with_name("chatty_bot.py")))
    bots = [BotSpec(name="chatty", command=command), BotSpec(name="random", factory=RandomBot)]
    run_match(MatchSpec(game="deep_dive", bots=bots, seed=5, replay_path=str(replay), decision_logs=True))
    records = read_replay(replay)
    logs = [r for r in records if r["type"] == "logs"]
    assert logs and all(set(r["seats"]) == {"0"} for r in logs)
    timeline = Timeline.from_records(records)
    both = [i for i, step in enumerate(timeline.steps) if "printed at decision" in step.logs.get(0, "") and "stderr at decision" in step.logs.get(0, "")]
    assert both, "a print and a stderr line, each beside a decision"
    step = both[len(both) // 2]
    pages = ReplayPages(lambda: timeline, show_logs=True)
    server, url = serve(lambda method, sub, query, body: pages.respond(sub.lstrip("/"), query))
    try:
        open_viewer(page, url + f"?step={step - 1}&seat=0")
        wait_step(page, step - 1)
        shown = page.evaluate("document.querySelector('#decisions pre.log').textContent")
        assert shown == timeline.steps[step].logs[0]
        assert "[stdout]" in shown and "[stderr]" in shown
    finally:
        server.shutdown()
    public = ReplayPages(lambda: timeline)
    assert b"printed at decision" not in public.respond("step.json", {"n": str(step - 1), "seat": "0"}).body
