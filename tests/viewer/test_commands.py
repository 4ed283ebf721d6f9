"""`b99 replay render`, the viewer's JSON answers, and the terminal seat naming what each id is."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.replay import read_replay
from referee.viewer.app import ReplayPages
from referee.viewer.timeline import Timeline
from tests.viewer.games import write_replay


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_replay("merchants", 3, tmp_path_factory.mktemp("replays"))


def test_render_writes_one_frame_of_a_seat_or_the_spectator(replay: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    seat_frame, public_frame = tmp_path / "seat.svg", tmp_path / "public.svg"
    done = runner.invoke(main, ["replay", "render", str(replay), "--step", "40", "--seat", "1", "--out", str(seat_frame)])
    assert done.exit_code == 0, done.output
    assert "step 40" in done.output
    done = runner.invoke(main, ["replay", "render", str(replay), "--step", "40", "--out", str(public_frame)])
    assert done.exit_code == 0, done.output
    seat_svg, public_svg = seat_frame.read_text(), public_frame.read_text()
    ElementTree.fromstring(seat_svg)
    timeline = Timeline.from_records(read_replay(replay))
    assert seat_svg == timeline.frame(40, 1) and public_svg == timeline.frame(40, None)
    hand = timeline.view(40, 1)["hand"]
    assert hand and f'data-keys="tile:{hand[0]}"' in seat_svg and f'data-keys="tile:{hand[0]}"' not in public_svg


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--step", "100000"], "no step 100000"),
        (["--seat", "7"], "no seat 7"),
    ],
)
def test_render_bad_input_is_a_one_line_error(replay: Path, tmp_path: Path, arguments: list[str], message: str) -> None:
    done = CliRunner().invoke(main, ["replay", "render", str(replay), *arguments, "--out", str(tmp_path / "x.svg")])
    assert done.exit_code != 0
    assert message in done.output and len(done.output.strip().splitlines()) == 1


def test_render_of_a_missing_or_broken_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n")
    for path in (tmp_path / "missing.jsonl", broken):
        done = CliRunner().invoke(main, ["replay", "render", str(path), "--out", str(tmp_path / "x.svg")])
        assert done.exit_code != 0 and done.output.startswith("error:"), done.output


def test_step_json_has_options_offered_the_choice_and_think_time(replay: Path) -> None:
    timeline = Timeline.from_records(read_replay(replay))
    pages = ReplayPages(lambda: timeline)
    decision = next(i for i, step in enumerate(timeline.steps) if step.kind == "decision" and len(step.choices) > 1)
    # The panel of a step describes the position its picture shows: the options offered there, and the one
    # chosen at the step that follows.
    data = json.loads(pages.respond("step.json", {"n": str(decision - 1), "seat": "0"}).body)
    mine = next(d for d in data["decisions"] if d["seat"] == 0)
    offered = [option.id for option in timeline.state_at(decision - 1).legal_options(0)]
    assert [option["id"] for option in mine["options"]] == offered and mine["chosen"] in offered
    assert mine["seconds"] is not None and mine["how"] == "bot"
    records = [r for r in read_replay(replay) if r["type"] == "decision"]
    decisions_before = sum(1 for step in timeline.steps[:decision] if step.kind == "decision")
    assert mine["chosen"] == records[decisions_before]["choices"]["0"]
    summary = json.loads(pages.respond("timeline.json", {}).body)
    assert len(summary["steps"]) == len(timeline.steps) and summary["finished"]
    live = ReplayPages(lambda: timeline, live=True)
    assert live.respond("step.json", {"n": "3", "seat": "0"}).status == 200, "a finished match shows every perspective"
    assert pages.respond("step.json", {"n": "x"}).status == 400


def test_terminal_play_says_what_each_tile_is() -> None:
    done = CliRunner().invoke(main, ["play", "merchants", "--bot", "random", "--seed", "3"], input="1\n1\n1\nq\n")
    assert re.search(r"take [RBY]\d\d  \[tile:[RBY]\d\d\]  \([RBY]\d\d: (red|blue|yellow) (sword|staff|shield|armor), (fire|ice|thunder)", done.output), done.output[-2000:]
    assert "What the ids in your view are:" in done.output


def test_the_seat_page_refuses_an_option_not_offered_now() -> None:
    from referee.viewer.seat import WebSeat

    seat = WebSeat("deep_dive", "DEEP DIVE")
    seat.publish(options=[{"id": "flip", "label": "Flip"}], decision="at_depth")
    refused = seat.respond("POST", "/choose", {}, b'{"option": "dive"}')
    assert refused.status == 400 and b"not one of the options offered now" in refused.body  # type: ignore[union-attr]
    assert seat.respond("POST", "/choose", {}, b"not json").status == 400  # type: ignore[union-attr]
    accepted = seat.respond("POST", "/choose", {}, b'{"option": "flip"}')
    assert accepted.status == 200 and seat.answers.get_nowait() == "flip"  # type: ignore[union-attr]
    assert seat.respond("POST", "/choose", {}, b'{"option": "flip"}').status == 400, "an option is taken once"  # type: ignore[union-attr]


def test_live_replay_reads_lines_as_they_are_written(replay: Path, tmp_path: Path) -> None:
    from referee.viewer.app import LiveReplay

    lines = replay.read_text().splitlines(keepends=True)
    live_file, final = tmp_path / "m.jsonl.live", tmp_path / "m.jsonl"
    live = LiveReplay(live_file, final)
    live_file.write_text(lines[0] + lines[1][: len(lines[1]) // 2])
    assert len(live.timeline().steps) == 1
    with live_file.open("a") as handle:
        handle.write(lines[1][len(lines[1]) // 2 :] + "".join(lines[2:40]))
    middle = len(live.timeline().steps)
    assert middle > 1 and not live.timeline().finished
    final.write_text("".join(lines))
    live_file.unlink()
    assert live.timeline().finished and len(live.timeline().steps) > middle


def test_the_rules_link_serves_the_rules_as_a_page() -> None:
    from referee.viewer.app import ReplayPages, rules_link

    answer = ReplayPages(lambda: None).respond(rules_link("merchants"), {})  # type: ignore[arg-type, return-value]
    assert answer.status == 200 and answer.content_type.startswith("text/html")
    assert b"<h1>" in answer.body and b"<meta name=\"viewport\"" in answer.body and b"\n# " not in answer.body


def test_event_words_are_plain_and_in_a_stable_order() -> None:
    from referee.viewer.words import event_words

    one = event_words("scored", {"seat": 1, "points": 3, "bonus": {"b": 1, "a": 2}})
    other = event_words("scored", {"bonus": {"a": 2, "b": 1}, "points": 3, "seat": 1})
    assert one == other == "seat 1: scored (bonus (a 2, b 1), points 3)"
    final = event_words("final_scoring", {"seats": [{"total": 28, "seat": 0}, {"seat": 1, "total": 21}], "ranks": [1, 2]})
    assert final == "final scoring (ranks 1, 2, seats seat 0: total 28; seat 1: total 21)"
    assert "{" not in final and "'" not in final


def test_a_running_match_shows_no_hidden_information(replay: Path) -> None:
    """While a match runs: no seat's view, not every seat's, no position (it holds every hand), no choices."""
    records = read_replay(replay)
    running = Timeline.from_records([r for r in records if r["type"] not in ("result", "seed")])
    pages = ReplayPages(lambda: running, live=True)
    for query in ({"n": "3", "seat": "0"}, {"n": "3", "seat": "all"}):
        assert pages.respond("step.json", query).status == 403
    assert pages.respond("position.json", {"n": "3"}).status == 403
    summary = json.loads(pages.respond("timeline.json", {}).body)
    assert summary["seed"] is None and all("choices" not in step for step in summary["steps"])
    finished = ReplayPages(lambda: Timeline.from_records(records))
    assert json.loads(finished.respond("position.json", {"n": "-1"}).body)["position"]["format"] == "b99-position/1"
