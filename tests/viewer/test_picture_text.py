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
from referee.viewer.svg import MIN_TEXT
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


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_words_stay_in_their_frames_readable_and_apart(page: Page, tmp_path: Path, game_id: str, players: int) -> None:
    timeline = Timeline.from_records(read_replay(write_replay(game_id, players, tmp_path)))
    last = len(timeline.steps) - 1
    problems = []
    for step in sorted({0, last // 4, last // 2, 3 * last // 4, last}):
        for seat in (None, 0):
            page.evaluate(f"document.body.innerHTML = {json.dumps(timeline.frame(step, seat))}")
            problems += [f"step {step} seat {seat}: {problem}" for problem in page.evaluate(CHECK)]
    assert problems == [], problems[:10]
