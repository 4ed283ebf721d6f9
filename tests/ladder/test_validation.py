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


def impostor_path(tmp_path: Path) -> str:
    """A PATH as a shell without an activated environment has it, whose `python`, `python3` and `node`
    are not the runtimes with the SDK (they fail loudly if a ladder worker ever runs them)."""
    impostors = tmp_path / "impostors"
    impostors.mkdir()
    for name in ("python", "python3"):
        program = impostors / name
        program.write_text("#!/bin/sh\necho 'not the Python with the SDK' >&2\nexit 3\n")
        program.chmod(0o755)
    return f"{impostors}:/usr/bin:/bin"


def test_an_uploaded_bot_started_with_plain_python_passes_validation(sqlite_settings: LadderSettings, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Measured: docs/writing-a-bot.md's `b99 ladder add-bot mybot --upload mybot/ --command "python
    bot.py"` registered the bot, then its validation failed ("'python' not found"): the worker ran
    the command as stored, where `b99 match` maps `python` to the Python that has the SDK. Now both
    map it through one function, on every worker, whatever PATH the worker has."""
    from sdk.scaffold import scaffold

    from referee.sandbox import machine_support

    made = scaffold("mybot", "python", GAME, tmp_path)
    sandbox = "strict" if machine_support().available("strict") else "none"
    add_bot(sqlite_settings, "mybot", GAME, command="python bot.py", upload=made.directory, sandbox=sandbox, validate=True)
    monkeypatch.setenv("PATH", impostor_path(tmp_path))
    run_ladder(sqlite_settings, rated=0)

    bot = get_bot(sqlite_settings, "mybot")
    assert bot.status == BotStatus.ACTIVE, (bot.paused_reason, [notice.message for notice in notices(sqlite_settings, "mybot")])


def test_a_missing_script_is_named_as_the_owner_wrote_it(sqlite_settings: LadderSettings, tmp_path: Path) -> None:
    """Measured: a bot command naming a script that does not exist was reported with a path inside the
    sandbox's scratch directory (`'/tmp/../pybott/bot.py'`). Now the fault names the path as typed."""
    from sdk.scaffold import scaffold

    made = scaffold("typo", "python", GAME, tmp_path)
    add_bot(sqlite_settings, "typo", GAME, command="python bott.py", upload=made.directory, validate=True)
    run_ladder(sqlite_settings, rated=0)

    bot = get_bot(sqlite_settings, "typo")
    assert bot.status == BotStatus.REJECTED
    assert "bot script 'bott.py' does not exist" in (bot.paused_reason or "")
    assert "/tmp" not in (bot.paused_reason or "").split("does not exist")[0]
