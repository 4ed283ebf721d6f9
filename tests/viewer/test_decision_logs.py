"""A bot's output cut per decision: only what is new since its last decision, bounded per decision and per match."""

from __future__ import annotations

from pathlib import Path

from referee.decision_logs import DecisionLogs


def test_output_is_cut_per_decision_and_bounded(tmp_path: Path) -> None:
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    out.write_text("")
    err.write_text("first line\n")
    logs = DecisionLogs(per_decision=16, per_seat=40)
    streams = {"stdout": out, "stderr": err}
    assert logs.record({0: streams}) == {"type": "logs", "seats": {"0": "first line"}}
    assert logs.record({0: streams}) is None, "nothing new, nothing recorded"
    with out.open("a") as handle:
        handle.write("x" * 30 + "tail\n")
    text = logs.take(0, streams)
    assert text.startswith("[stdout]\n(the first 19 bytes are not kept)\n") and text.endswith("xxxxxxxxxxxtail")
    with err.open("a") as handle:
        handle.write("y" * 50)
    assert logs.take(0, streams).endswith("y" * 13), "what is left of the match's budget"
    with err.open("a") as handle:
        handle.write("more")
    assert "budget of 40 bytes is spent" in logs.take(0, streams)
