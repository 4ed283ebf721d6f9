"""`b99 tournament`: round robin through run_match, in-process and with real bot processes."""

from __future__ import annotations

import json
import sys

import pytest
from pathlib import Path

from click.testing import CliRunner

from rich.console import Console

from ladder.cli import tournament
from ladder.standings_table import standings_table
from ladder.tournament import run_tournament
from referee.match import BotSpec
from tests.ladder.conftest import GAME


def test_tournament_cli_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("B99_BOT_SEED", "4")  # the random bots' own choices, so the table is the same every run
    out = tmp_path / "result.json"
    result = CliRunner().invoke(
        tournament,
        [GAME, "--bot", "random", "--bot", "random", "--bot", "random", "--games", "2", "--parallel", "1",
         "--in-process", "--json", str(out), "--seed", "4"],
    )
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output and "win %" in result.output and "random#2" in result.output and "random#3" in result.output
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 3 * 2  # three tables of two, two games each
    assert sorted(line["games"] for line in data["standings"]) == [4, 4, 4]
    assert sum(line["wins"] for line in data["standings"]) == len(data["matches"])
    ratings = [line["rating"] for line in data["standings"]]
    assert ratings == sorted(ratings, reverse=True)
    assert sum(ratings) == 3 * 1500.0 or abs(sum(ratings) - 4500.0) < 1e-6


@pytest.mark.parametrize("name", ["random#2", "my-alpha-beta-bot-v12#3", "a-bot-whose-name-is-much-wider-than-the-table-could-give-it"])
def test_bot_names_are_never_cut_at_80_columns(name: str) -> None:
    """The widest numbers (100.0%, a four-digit interval) and a long name: headers give way, never a name or a digit."""
    headers = [("#", "right"), ("bot", "left"), ("Elo", "right"), ("strength", "right"), ("interval", "right"),
               ("games", "right"), ("wins", "right"), ("win %", "right"), ("points %", "right"), ("faults", "right")]
    rows = [["1", name, "1558.6", "1812", "1511–2113", "1000", "1000", "100.0%", "100.0%", "12"],
            ["2", "other", "1441.6", "-", "-", "1000", "0", "0.0%", "0.0%", "0"]]
    console = Console(width=80, record=True)
    console.print(standings_table("title", "caption", headers, rows, name_column=1, width=80))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text
    body = "".join(line.split("│")[2].strip() for line in text.splitlines() if line.startswith("│ ") and "other" not in line)
    assert body == name
    for cell in rows[0][2:]:
        assert cell in text


def test_duplicate_plays_each_seed_from_every_seat(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    result = CliRunner().invoke(
        tournament, [GAME, "--bot", "random", "--bot", "random", "--games", "3", "--parallel", "1", "--in-process",
                     "--duplicate", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    matches = json.loads(out.read_text())["matches"]
    assert len(matches) == 4
    by_seed: dict[int, list[list[int]]] = {}
    for match in matches:
        by_seed.setdefault(match["seed"], []).append(match["seating"])
    assert all(sorted(seatings) == [[0, 1], [1, 0]] for seatings in by_seed.values())


def test_tournament_with_bot_processes_on_a_pool(tmp_path: Path) -> None:
    bots = [BotSpec(name="random", command=(sys.executable, "-m", "bots", "random")) for _ in range(2)]
    seen = []
    result = run_tournament(GAME, bots, games_per_table=2, parallel=2, seed=1, replay_dir=tmp_path,
                            on_result=lambda game, report: seen.append(game.index))
    assert sorted(seen) == [0, 1]
    assert [report.game for report in result.reports] == [GAME, GAME]
    assert all(not seat.faults for report in result.reports for seat in report.seats)
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
    assert {line.name for line in result.standings} == {"random", "random#2"}


def test_tournament_errors_are_one_line() -> None:
    runner = CliRunner()
    result = runner.invoke(tournament, ["chess", "--bot", "random", "--bot", "random"])
    assert result.exit_code != 0 and "unknown game 'chess'" in result.output and "Traceback" not in result.output
    result = runner.invoke(tournament, [GAME, "--bot", "random", "--players", "2"])
    assert result.exit_code != 0 and "need at least 2 bots" in result.output
    result = runner.invoke(tournament, [GAME, "--bot", "random", "--bot", "/no/such/bot"])
    assert result.exit_code != 0 and "neither a reference bot" in result.output


def test_standings_carry_the_strength_fit_and_an_interval_around_it(tmp_path: Path) -> None:
    """The tournament's interval is the ladder's: a Bradley-Terry fit over every game (issue 14)."""
    out = tmp_path / "result.json"
    result = CliRunner().invoke(
        tournament, [GAME, "--bot", "heuristic", "--bot", "random", "--games", "12", "--parallel", "1", "--in-process",
                     "--json", str(out), "--seed", "2"],
    )
    assert result.exit_code == 0, result.output
    assert "strength" in result.output and "90% interval" in result.output
    lines = {line["name"]: line for line in json.loads(out.read_text())["standings"]}
    for line in lines.values():
        low, high = line["interval"]
        assert low < line["strength"] < high
        assert abs((low + high) / 2 - line["strength"]) < 1e-6
    assert lines["heuristic"]["strength"] > lines["random"]["strength"]
    assert abs(lines["heuristic"]["strength"] + lines["random"]["strength"] - 3000.0) < 1e-6  # the fit is centred on 1500


def test_the_table_keeps_every_number_in_80_columns_and_says_how_bots_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import ladder.cli

    monkeypatch.setattr(ladder.cli.console, "width", 80)
    out = tmp_path / "result.json"
    long_name = f"{sys.executable} -m bots random"
    result = CliRunner().invoke(
        tournament, [GAME, "--bot", "heuristic", "--bot", long_name, "--bot", "random", "--games", "2", "--players", "2",
                     "--parallel", "1", "--in-process", "--json", str(out), "--seed", "3"],
    )
    assert result.exit_code == 0, result.output
    assert "bots in process (no sandbox)" in result.output
    for line in json.loads(out.read_text())["standings"]:
        assert f"{line['rating']:.1f}" in result.output and f"{line['strength']:.0f}" in result.output
    assert "…" not in result.output, "the long name wraps onto more lines, never cut"
    names = "".join(line.split("│")[2].strip() for line in result.output.splitlines() if line.startswith("│ "))
    assert long_name.replace(" ", "") in names.replace(" ", "")
