"""`b99 match deep_dive` with 1 to 6 bots (in-process), its replay verified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main


@pytest.mark.parametrize("players", [1, 2, 6])
def test_match_with_reference_bots(players: int, tmp_path: Path) -> None:
    replay = tmp_path / "deep_dive.jsonl"
    bots = [arg for seat in range(players) for arg in ("--bot", "heuristic" if seat % 2 == 0 else "random")]
    variants = ["--variant", "ai_difficulty=hard"] if players == 1 else []
    ran = CliRunner().invoke(
        main, ["match", "deep_dive", *bots, *variants, "--in-process", "--seed", "5", "--replay", str(replay), "--json"]
    )
    assert ran.exit_code == 0, ran.output
    report = json.loads(ran.output[ran.output.index("{"):])
    assert len(report["ranks"]) == players and len(report["scores"]) == players
    verified = CliRunner().invoke(main, ["replay", "verify", str(replay)])
    assert verified.exit_code == 0 and "re-simulates exactly" in verified.output
    game_end = [json.loads(line) for line in replay.read_text().splitlines() if '"game_end"' in line]
    assert game_end and ("ai_score" in game_end[-1]["data"]) == (players == 1)
