"""Validation before rating: new bots play unrated games against the reference bot, in their own
sandbox with the ladder's time control, and only those without a fault enter rated play."""

from __future__ import annotations

import sys
from pathlib import Path

from ladder import queries
from ladder.executors import LocalExecutor
from ladder.models import BotStatus, MatchKind
from ladder.recompute import recompute
from ladder.registry import add_bot, get_bot, notices
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings
from ladder.validation import VALIDATION_GAMES, revalidate
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]
CRASH_ON_DECISION = '''
import sys
from sdk import Bot
from sdk.run import run


class Broken(Bot):
    name = "broken"

    def choose(self, request):
        print("about to choose", file=sys.stderr)
        raise RuntimeError("broken on its first decision")


run(Broken())
'''


def run_ladder(settings: LadderSettings, rated: int) -> None:
    executor = LocalExecutor(2)
    try:
        Ladder(settings, executor, SchedulerOptions(concurrency=2, seed=7, max_matches=rated, tick_seconds=0.05)).run(until_idle=True)
    finally:
        executor.shutdown()


def test_only_bots_that_pass_validation_are_rated(sqlite_settings: LadderSettings, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Measured: a bot that crashes on its first decision of every game finished #3 of 9, above
    working bots. Now it never enters rated play, and its owner sees each fault with its stderr."""
    settings = sqlite_settings
    script = tmp_path / "broken.py"
    script.write_text(CRASH_ON_DECISION)
    root = str(Path(__file__).resolve().parents[2])
    broken = add_bot(settings, "broken", GAME, command=[sys.executable, str(script)], owner="ann", validate=True)
    good = [add_bot(settings, f"good{i}", GAME, command=RANDOM, validate=True) for i in range(2)]
    assert get_bot(settings, "broken").status == BotStatus.VALIDATING
    monkeypatch.setenv("PYTHONPATH", root)  # for the script's `import sdk` (it runs unsandboxed)
    run_ladder(settings, rated=2)

    assert get_bot(settings, "broken").status == BotStatus.REJECTED
    assert all(get_bot(settings, bot.id).status == BotStatus.ACTIVE for bot in good)  # type: ignore[arg-type]
    assert all(get_bot(settings, bot.id).validated_at is not None for bot in good)  # type: ignore[arg-type]
    messages = [notice.message for notice in notices(settings, "broken")]
    assert len(messages) == VALIDATION_GAMES  # one per faulted validation game
    assert all("crash" in message and "RuntimeError: broken on its first decision" in message for message in messages)

    board = queries.leaderboard(settings, GAME)
    ranked = [row.name for row in board if row.ranked]
    assert ranked == sorted(ranked, key=lambda name: -next(r.rating for r in board if r.name == name))
    assert "broken" not in ranked and {"good0", "good1"} == set(ranked)
    assert next(row for row in board if row.name == "broken").games == 0
    assert "validation match" in queries.status_reasons(settings, GAME)[broken.id or 0]

    every = queries.matches(settings, limit=100)
    validation = [row for row in every if row.kind == MatchKind.VALIDATION]
    assert len(validation) == 3 * VALIDATION_GAMES
    assert all(seat.rating_after is None for row in validation for seat in row.seats)
    assert [row for row in every if row.kind == MatchKind.RATED and any(s.bot == "broken" for s in row.seats)] == []
    assert recompute(settings, GAME) == []

    from click.testing import CliRunner

    from ladder.cli import ladder

    shown = CliRunner().invoke(ladder, ["--home", str(settings.home), "--db", settings.db_url, "faults", "broken"])
    assert shown.exit_code == 0, shown.output
    assert "broken: rejected" in shown.output and "(validation, seat" in shown.output
    assert "RuntimeError: broken on its first decision" in shown.output

    # Fixed or not, an owner can ask for validation again; earlier games no longer count.
    revalidate(settings, "broken")
    assert get_bot(settings, "broken").status == BotStatus.VALIDATING
    assert "broken" in {row.name for row in queries.leaderboard(settings, GAME) if not row.ranked}
