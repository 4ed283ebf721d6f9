"""Spectators of a running match see nothing a seat may not: the live timeline and step.json carry no
`how` (forced or asked) and no think times until the match is over, and Underground Dice asks its
`stake_fakes` and `pay_fakes` decisions even when forced (whether they are forced depends on the
seat's secret counterfeit make-up), so their timing is the bot's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bots.random_bot import RandomBot
from referee.local import play_local
from referee.replay import read_replay
from referee.viewer.app import ReplayPages
from referee.viewer.timeline import Timeline

GAME = "underground_dice"


def _counterfeit_replay(tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "match.jsonl"
    play_local(GAME, [RandomBot(1), RandomBot(2)], seed=11, variants={"counterfeit": True}, replay_path=str(path))
    return list(read_replay(path))


def _other_secrets(records: list[dict[str, Any]], seat: str) -> list[dict[str, Any]]:
    """The same match with seat `seat`'s decisions made otherwise: every one of its 'how' flipped
    between forced and asked, and other think times."""
    changed = []
    for record in records:
        record = json.loads(json.dumps(record))
        if record["type"] == "decision" and seat in record.get("choices", {}):
            how = record.setdefault("how", {})
            how[seat] = "forced" if how.get(seat, "bot") == "bot" else "bot"
            record.setdefault("seconds", {})[seat] = 7.25
        changed.append(record)
    return changed


def _live_bytes(records: list[dict[str, Any]]) -> list[bytes]:
    """What an anonymous spectator gets from the live pages at every point of the running match."""
    running = [record for record in records if record["type"] not in ("result", "seed")]
    timeline = Timeline(running[0])
    pages = ReplayPages(lambda: timeline, live=True)
    seen = []
    for record in running[1:]:
        timeline.feed([record])
        seen.append(pages.respond("timeline.json", {}).body)
        seen.append(pages.respond("step.json", {"n": str(len(timeline.steps) - 1)}).body)
        assert pages.respond("step.json", {"n": "0", "seat": "1"}).status == 403
    return seen


def test_the_live_pages_do_not_tell_forced_from_asked_nor_think_times(tmp_path: Path) -> None:
    records = _counterfeit_replay(tmp_path)
    assert any(record["type"] == "decision" and "forced" in record.get("how", {}).values() for record in records)
    first, second = _live_bytes(records), _live_bytes(_other_secrets(records, "1"))
    assert first == second
    assert not any(b'"how"' in body or b'"seconds"' in body for body in first)
    # once the match is over everything is shown, and the two differ
    finished = Timeline.from_records(records)
    step = next(i for i, s in enumerate(finished.steps) if s.kind == "decision" and 1 in s.choices)
    shown = json.loads(ReplayPages(lambda: finished).respond("step.json", {"n": str(step)}).body)
    assert all("how" in decision and "seconds" in decision for decision in shown["decisions"])


def test_counterfeit_decisions_are_asked_even_when_forced(tmp_path: Path) -> None:
    records = _counterfeit_replay(tmp_path)
    timeline = Timeline.from_records(records)
    asked = 0
    for step in timeline.steps:
        if step.kind != "decision":
            continue
        for decision in timeline.decisions(step.index):
            if decision.decision in ("stake_fakes", "pay_fakes"):
                assert decision.how == "bot", (step.index, decision)
                asked += 1
    assert asked > 0
