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


def test_a_large_challenge_never_stops_rated_play_and_its_owner_can_cancel_it(sqlite_settings: LadderSettings) -> None:
    """Issue 25: a 200-game challenge held every slot; now challenges get their own share (one
    match here, beside two rated ones), and a cancel drops the games not yet started."""
    import sys
    import time

    from sqlmodel import col, func, select

    from ladder.accounts import register
    from ladder.challenges import cancel_challenge, pending_games
    from ladder.db import read_session
    from ladder.models import Match, MatchStatus
    from ladder.registry import add_bot
    from tests.ladder.accounts_helpers import running_ladder

    settings = sqlite_settings
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n[challenges]\nworker_share = 0.5\n')
    account, _ = register(settings, "ann")
    for name in ("a", "b"):
        add_bot(settings, name, GAME, command=[sys.executable, "-m", "bots", "random"])
    challenge_id = request_challenge(settings, "a", "b", 200, "ann", account_id=account.id)

    def counts() -> dict[tuple[str, str], int]:
        with read_session(settings.db_url) as session:
            rows = session.exec(select(Match.kind, Match.status, func.count()).group_by(Match.kind, Match.status)).all()
        return {(kind, status): int(count) for kind, status, count in rows}

    most_challenges_open = 0
    with running_ladder(settings, workers=2):
        deadline = time.monotonic() + 90
        while counts().get((MatchKind.RATED, MatchStatus.DONE), 0) < 3:
            now = counts()
            most_challenges_open = max(most_challenges_open, sum(now.get((MatchKind.CHALLENGE, s), 0) for s in MatchStatus.OPEN))
            assert time.monotonic() < deadline, f"rated play stalled behind the challenge: {now}"
            time.sleep(0.1)
        cancel_challenge(settings, challenge_id, account.id)
        assert pending_games(settings) == 0
    assert most_challenges_open <= 1
    with read_session(settings.db_url) as session:
        queued = session.exec(select(func.count()).select_from(Match).where(
            Match.challenge_id == challenge_id, col(Match.status) == MatchStatus.QUEUED)).one()
    assert queued == 0
    with pytest.raises(LadderError, match="no challenge #999"):
        cancel_challenge(settings, 999, account.id)
