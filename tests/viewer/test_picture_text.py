"""Every picture's words in a real headless Chromium, from the SVG's own bounding boxes: each text stays inside
the frame it belongs to (a seat's panel, a card), no two texts print over each other, and words are at least
11 px when the picture is shown at 1:1 (a component's own marks, class "glyph", scale with their miniature)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.replay import read_replay
from referee.viewer.headless import Browser, Page
from referee.viewer.svg import MIN_TEXT, fit, text_width, wrap
from referee.viewer.timeline import Timeline
from tests.viewer.games import CONFIGS, write_replay

CHECK = """(() => {
  const out = [], svg = document.querySelector("svg"), boxes = [];
  const whole = {x: 0, y: 0, width: Number(svg.getAttribute("width")), height: Number(svg.getAttribute("height"))};
  for (const t of svg.querySelectorAll("text")) {
    if (!t.textContent.trim() || t.closest(".glyph")) continue;
    const size = parseFloat(t.getAttribute("font-size") || "16");
    if (size < %(min)s) out.push(`${size} px: ${t.textContent}`);
    const g = t.closest("[data-frame]"), frame = g ? g.querySelector("rect").getBBox() : whole, b = t.getBBox();
    if (b.x < frame.x - 1 || b.y < frame.y - 1 || b.x + b.width > frame.x + frame.width + 1 || b.y + b.height > frame.y + frame.height + 1)
      out.push(`outside its frame: ${t.textContent}`);
    boxes.push([t.textContent, b]);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const p = boxes[i][1], q = boxes[j][1];
    const w = Math.min(p.x + p.width, q.x + q.width) - Math.max(p.x, q.x), h = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
    if (w > 2 && h > 3) out.push(`over each other: ${boxes[i][0]} / ${boxes[j][0]}`);
  }
  return out;
})()""" % {"min": MIN_TEXT}


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    tab = browser.page()
    yield tab
    tab.close()


#: The most players each game allows: the most words in a picture.
LARGEST = sorted({game_id: players for game_id, players in CONFIGS}.items())
#: More games at the largest tables (these seeds once printed a discard pile over a card and a poster slot
#: past its panel): the drawings fit their words for any position, not one game's.
EXTRA_SEEDS = (2, 23, 29)


def _problems(page: Page, tmp_path: Path, game_id: str, players: int, seed: int) -> list[str]:
    """What CHECK finds on five steps of one seeded game, from a spectator's and from seat 0's side."""
    timeline = Timeline.from_records(read_replay(write_replay(game_id, players, tmp_path, seed=seed)))
    last = len(timeline.steps) - 1
    problems = []
    for step in sorted({0, last // 4, last // 2, 3 * last // 4, last}):
        for seat in (None, 0):
            page.evaluate(f"document.body.innerHTML = {json.dumps(timeline.frame(step, seat))}")
            problems += [f"seed {seed} step {step} seat {seat}: {problem}" for problem in page.evaluate(CHECK)]
    return problems


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_words_stay_in_their_frames_readable_and_apart(page: Page, tmp_path: Path, game_id: str, players: int) -> None:
    problems = _problems(page, tmp_path, game_id, players, seed=5)
    assert problems == [], problems[:10]


@pytest.mark.parametrize("seed", EXTRA_SEEDS)
@pytest.mark.parametrize(("game_id", "players"), LARGEST)
def test_words_fit_in_other_games_at_the_largest_tables(page: Page, tmp_path: Path, game_id: str, players: int, seed: int) -> None:
    problems = _problems(page, tmp_path, game_id, players, seed)
    assert problems == [], problems[:10]


def test_long_words_are_cut_or_wrapped_to_the_width_given() -> None:
    """A line too long for its room ends in an ellipsis within the room; wrapping keeps to the lines allowed."""
    long = "discard (9): " + ", ".join(["Great Pit", "Rope Ladder", "Long Rope Ladder", "Lucky Charm"] * 5)
    cut = fit(long, 300, 11)
    assert cut.endswith("…") and text_width(cut, 11) <= 300 and long.startswith(cut[:-1])
    assert fit("short", 300, 11) == "short"
    rows = wrap(long, 200, 11, 3)
    assert len(rows) == 3 and rows[-1].endswith("…") and all(text_width(row, 11) <= 200 for row in rows)
    assert wrap("a few words", 200, 11, 3) == ["a few words"]


def test_underground_dice_choice_tiles_keep_their_words_inside(page: Page, tmp_path: Path) -> None:
    """The strip of choices under the table (guess totals, 4-5-6 faces, accept or accuse) on the deciding
    seat's picture: each kind's words stay inside the strip, readable and apart; no one else's picture has it."""
    from bots.random_bot import RandomBot
    from referee.match import BotSpec, MatchSpec, run_match

    path = tmp_path / "counterfeit.jsonl"
    bots = [BotSpec(name=f"random{i}", factory=lambda i=i: RandomBot(seed=i)) for i in range(2)]
    run_match(MatchSpec(game="underground_dice", bots=bots, seed=3, variants={"counterfeit": True}, replay_path=str(path)))
    timeline = Timeline.from_records(read_replay(path))
    kinds: dict[str, str] = {}
    for step in range(len(timeline.steps)):
        assert 'data-area="choices"' not in timeline.frame(step, None)
        for seat in (0, 1):
            frame = timeline.frame(step, seat)
            for kind in ('data-keys="guess:', 'data-keys="faces:', 'data-keys="accept'):
                if kind in frame and kind not in kinds:
                    kinds[kind] = frame
    assert len(kinds) == 3, sorted(kinds)
    for kind, frame in kinds.items():
        page.evaluate(f"document.body.innerHTML = {json.dumps(frame)}")
        assert page.evaluate(CHECK) == [], kind
