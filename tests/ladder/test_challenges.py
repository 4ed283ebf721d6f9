"""Unrated challenges: an owner asks for N games between two bots and sees results and replays;
ratings never change."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder import queries
from ladder.challenges import challenge_result, request_challenge
from ladder.cli import ladder
from ladder.models import MatchKind
from ladder.ratings import INITIAL_RATING
from ladder.registry import LadderError
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME


def test_a_challenge_from_the_cli_plays_unrated_games_with_replays(tmp_path: Path) -> None:
    runner = CliRunner()
    home = ["--home", str(tmp_path / "home")]

    def run(*args: str) -> str:
        result = runner.invoke(ladder, [*home, *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("init")
    run("add-bot", "mine", "--game", GAME, "--command", "heuristic", "--no-validation")
    run("add-bot", "theirs", "--game", GAME, "--command", "random", "--no-validation")
    assert "challenge #1: 2 unrated games, mine against theirs, queued" in run("challenge", "mine", "theirs", "--games", "2", "--seed", "1")
    run("serve", "--workers", "2", "--max-matches", "0")
    shown = run("challenge-results", "1")
    assert "2 of 2 played" in shown and "mine won" in shown
    # Measured: the replay column said `/matches/205/replay.jsonl`, which `b99 replay show` cannot open.
    # Now each match's replay is a file named on a line of its own, with the command that shows it.
    from referee.cli import main as b99

    commands = [line.split(": ", 1)[1] for line in shown.splitlines() if line.startswith("match ") and "b99 replay show" in line]
    assert len(commands) == 2, shown
    for command in commands:
        opened = runner.invoke(b99, shlex.split(command)[1:] + ["--limit", "3"])
        assert opened.exit_code == 0 and "Traceback" not in opened.output, opened.output
    settings = LadderSettings.create(tmp_path / "home")
    result = challenge_result(settings, 1)
    assert result.wins + result.draws + result.losses == 2
    assert all(row.kind == MatchKind.CHALLENGE and row.has_replay for row in result.matches)  # stored in the database
    assert sorted(row.seats[0].bot for row in result.matches) == ["mine", "theirs"]  # seats alternate
    board = queries.leaderboard(settings, GAME)
    assert all(row.rating == INITIAL_RATING and row.games == 0 for row in board)
    assert all(seat.rating_after is None for row in result.matches for seat in row.seats)
    bad = runner.invoke(ladder, [*home, "challenge", "mine", "mine"])
    assert bad.exit_code != 0 and "two different bots" in bad.output


def test_challenge_requests_are_checked(sqlite_settings: LadderSettings) -> None:
    from ladder.registry import add_bot

    add_bot(sqlite_settings, "a", GAME, command=["python3"])
    add_bot(sqlite_settings, "f", "fuji99", command=["python3"])
    with pytest.raises(LadderError, match="plays underground_dice and f plays fuji99"):
        request_challenge(sqlite_settings, "a", "f", 2)
    with pytest.raises(LadderError, match="1 to 200 games"):
        request_challenge(sqlite_settings, "a", "f", 0)
    with pytest.raises(LadderError, match="no bot 'zz'"):
        request_challenge(sqlite_settings, "a", "zz", 1)
