"""What a bot's author sees of its faults: `b99 match`'s default table and `b99 tournament` print
each fault with the last lines of the bot's stderr, the bridge's own reason included."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

BROKEN = "import sys; print('loading my model', file=sys.stderr); raise SystemExit('cannot find weights.bin')"


def broken_bot() -> str:
    return shlex.join([sys.executable, "-c", BROKEN])


def test_match_table_shows_each_fault_with_the_stderr_tail(tmp_path: Path) -> None:
    bridge = shlex.join([sys.executable, "-m", "referee.bridge", "sh", "-c", "python9 my_bot.py"])
    result = CliRunner().invoke(
        main,
        ["match", "underground_dice", "--bot", broken_bot(), "--bot", bridge, "--sandbox", "none", "--seed", "1",
         "--startup-time", "20", "--replay", str(tmp_path / "r.jsonl")],
        terminal_width=200,
    )
    assert result.exit_code == 1, result.output  # a seat did not start
    output = " ".join(result.output.split())  # the table wraps long lines
    assert "seat 0 (" in output and "startup: exited before saying hello (exit code 1)" in output
    assert "| loading my model" in output and "| cannot find weights.bin" in output
    # The bridge started, then its command was not found: the shell's words and the bridge's reason.
    assert "python9: not found" in output
    assert "exited with code 127 (command not found)" in output


def test_a_match_nobody_played_says_void(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["match", "fuji99", "--bot", broken_bot(), "--bot", broken_bot(), "--sandbox", "none", "--seed", "1", "--json",
         "--replay", str(tmp_path / "r.jsonl")],
    )
    assert result.exit_code == 1
    report = json.loads(result.output[: result.output.rindex("}") + 1])
    assert report["status"] == "void" and report["ranks"] == []
    shown = CliRunner().invoke(
        main, ["match", "fuji99", "--bot", broken_bot(), "--bot", broken_bot(), "--sandbox", "none", "--seed", "1",
               "--replay", str(tmp_path / "r2.jsonl")], terminal_width=200,
    )
    assert "void: no result (every seat faulted before any bot made a decision" in " ".join(shown.output.split())


def test_tournament_lists_faults_with_the_stderr_tail(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["tournament", "underground_dice", "--bot", "random", "--bot", broken_bot(), "--games", "2", "--parallel", "1",
         "--json", str(tmp_path / "t.json")],
        terminal_width=200,
    )
    assert result.exit_code == 0, result.output
    assert "game 0 seat 1:" in result.output and "game 1 seat 0:" in result.output
    assert " ".join(result.output.split()).count("| cannot find weights.bin") == 2
    saved = json.loads((tmp_path / "t.json").read_text())
    assert [record["game"] for record in saved["faults"]] == [0, 1]
    assert "cannot find weights.bin" in saved["faults"][0]["stderr_tail"]


def test_a_fault_names_the_seats_own_decision_in_the_report_and_replay_show(tmp_path: Path) -> None:
    """The bot answers twice, then crashes or hangs at its own third decision: the report's heading, its
    table and `b99 replay show` say "at its decision 3", never the match's count of decisions."""
    for mode, heading in (("crash", "crash at its decision 3: "), ("hang", "timeout: your bot did not answer within")):
        replay = tmp_path / f"{mode}.jsonl"
        bad = shlex.join([sys.executable, "-m", "tests.bots.misbehaving", mode])
        result = CliRunner().invoke(
            main,
            ["match", "fuji99", "--bot", "random", "--bot", bad, "--bot", "random", "--sandbox", "none", "--seed", "3",
             "--time-per-decision", "0.5", "--time-bank", "0", "--replay", str(replay)],
            terminal_width=250,
        )
        output = " ".join(result.output.split())
        faults = [json.loads(line) for line in replay.read_text().splitlines() if '"type": "fault"' in line or '"type":"fault"' in line]
        assert faults and faults[0]["seat_decision"] == 3 and faults[0]["decision_index"] > 3, faults
        assert f"): {heading}" in output and "at its decision 3" in output, output
        assert f"at decision {faults[0]['decision_index']}" not in output, output
        shown = " ".join(CliRunner().invoke(main, ["replay", "show", str(replay)], terminal_width=250).output.replace("│", " ").split())
        assert "at its decision 3" in shown and f"at decision {faults[0]['decision_index']}" not in shown, shown
