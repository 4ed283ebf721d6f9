"""The ladder service end to end: CLI, scheduling, the local process pool, fairness, restart."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from ladder import queries
from ladder.cli import ladder
from ladder.db import head_revision
from ladder.executors import LocalExecutor
from ladder.models import MatchStatus
from ladder.recompute import recompute
from ladder.registry import add_bot
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]


def test_ladder_cli_end_to_end(tmp_path: Path) -> None:
    runner = CliRunner()
    home = ["--home", str(tmp_path / "home")]

    def run(*args: str) -> str:
        result = runner.invoke(ladder, [*home, *args])
        assert result.exit_code == 0, result.output
        return result.output

    assert f"schema {head_revision()}" in run("init")
    for name in ("ann", "ben", "cat"):
        assert f"bot {name}" in run("add-bot", name, "--game", GAME, "--command", "random", "--owner", "me")
    token = run("token", "ann").strip()
    assert token.startswith("b99_") and len(token) > 40
    run("serve", "--workers", "2", "--max-matches", "4", "--seed", "3")
    board = run("leaderboard", GAME)
    assert all(name in board for name in ("ann", "ben", "cat")) and "90% interval" in board
    assert "not ranked" not in board  # all three passed their validation games
    listing = run("matches", "--limit", "20")
    assert listing.count("done") == 4 + 3 * 2 and listing.count("(validation)") == 3 * 2
    assert "0 ratings differ" in run("recompute", "--check")
    bad = runner.invoke(ladder, [*home, "add-bot", "dup", "--game", "chess", "--command", "random"])
    assert bad.exit_code != 0 and "unknown game 'chess'" in bad.output


def test_scheduler_is_fair_and_survives_a_restart(settings: LadderSettings) -> None:
    """Many matches at once (4 in flight on 2 worker processes) on SQLite and on PostgreSQL."""
    ids = [add_bot(settings, f"b{i}", GAME, command=RANDOM).id for i in range(4)]
    executor = LocalExecutor(2)
    try:
        first = Ladder(settings, executor, SchedulerOptions(concurrency=4, seed=1, max_matches=4))
        first.run(until_idle=True)
        second = Ladder(settings, executor, SchedulerOptions(concurrency=4, seed=2, max_matches=4))
        second.run(until_idle=True)
    finally:
        executor.shutdown()
    assert queries.status_counts(settings) == {MatchStatus.DONE: 8}
    games = Counter(seat.bot_id for row in queries.matches(settings, limit=100) for seat in row.seats)
    assert set(games) == set(ids)
    assert max(games.values()) - min(games.values()) <= 2
    for row in queries.matches(settings, limit=100):
        assert len({seat.bot_id for seat in row.seats}) == 2  # never against itself
    assert recompute(settings, GAME) == []


def test_pause_and_resume_from_the_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    home = ["--home", str(tmp_path / "home")]
    assert runner.invoke(ladder, [*home, "init"]).exit_code == 0
    assert runner.invoke(ladder, [*home, "add-bot", "zed", "--game", GAME, "--command", "random"]).exit_code == 0
    paused = runner.invoke(ladder, [*home, "pause", "zed", "--reason", "maintenance"])
    assert paused.exit_code == 0 and "zed paused: maintenance" in paused.output
    board = runner.invoke(ladder, [*home, "leaderboard", GAME]).output
    assert "paused" in board
    assert runner.invoke(ladder, [*home, "resume", "zed"]).exit_code == 0
    assert "active" in runner.invoke(ladder, [*home, "leaderboard", GAME]).output
    missing = runner.invoke(ladder, [*home, "resume", "nobody"])
    assert missing.exit_code != 0 and "no bot 'nobody'" in missing.output
