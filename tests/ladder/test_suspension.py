"""An account's suspension takes its bots out of rated play and cancels its challenges; lifting it puts
back exactly the bots the suspension paused (SQLite and PostgreSQL)."""

from __future__ import annotations

import random

from click.testing import CliRunner
from sqlmodel import select

from ladder.accounts import register, set_suspended
from ladder.challenges import request_challenge
from ladder.cli import ladder as ladder_cli
from ladder.db import read_session
from ladder.matches import claim_match, record_result, schedule_match
from ladder.models import SUSPENSION_PAUSE, BotStatus, Challenge, Match, MatchKind, MatchStatus
from ladder.registry import add_bot, get_bot, notices, set_status
from ladder.settings import LadderSettings
from ladder.simulation import SYNTHETIC_COMMAND, synthetic_report
from ladder.validation import VALIDATION_GAMES, reference_bot
from tests.ladder.conftest import GAME


def _open_ladder(settings: LadderSettings) -> None:
    settings.home.mkdir(parents=True, exist_ok=True)
    (settings.home / "ladder.toml").write_text('[accounts]\nregistration = "open"\n')


def test_a_suspension_pauses_the_accounts_bots_and_lifting_it_resumes_only_those(settings: LadderSettings) -> None:
    _open_ladder(settings)
    ann, _ = register(settings, "ann")
    bob, _ = register(settings, "bob")
    command = list(SYNTHETIC_COMMAND)
    add_bot(settings, "ann-one", GAME, command=command, account_id=ann.id, versioned=True)
    add_bot(settings, "ann-two", GAME, command=command, account_id=ann.id, versioned=True)
    add_bot(settings, "ann-held", GAME, command=command, account_id=ann.id, versioned=True)
    add_bot(settings, "bob-one", GAME, command=command, account_id=bob.id, versioned=True)
    set_status(settings, "ann-held", BotStatus.PAUSED, "held by the operator")
    challenge = request_challenge(settings, "ann-one", "bob-one", 4, account_id=ann.id)
    queued = schedule_match(settings, GAME, [get_bot(settings, "ann-one").id or 0, get_bot(settings, "bob-one").id or 0],
                            seed=1, kind=MatchKind.CHALLENGE, challenge_id=challenge)

    change = set_suspended(settings, "ann", True, "spam")
    assert (change.bots, change.challenges) == (["ann-one", "ann-two"], 1)
    statuses = {name: (get_bot(settings, name).status, get_bot(settings, name).paused_reason) for name in
                ("ann-one", "ann-two", "ann-held", "bob-one")}
    assert statuses == {
        "ann-one": (BotStatus.PAUSED, SUSPENSION_PAUSE + "spam"),
        "ann-two": (BotStatus.PAUSED, SUSPENSION_PAUSE + "spam"),
        "ann-held": (BotStatus.PAUSED, "held by the operator"),
        "bob-one": (BotStatus.ACTIVE, None),
    }
    assert notices(settings, "ann-one")[0].message == "ann-one was paused: account suspended: spam"
    with read_session(settings.db_url) as session:
        assert session.exec(select(Challenge.cancelled).where(Challenge.id == challenge)).one() is True
        match = session.get(Match, queued)
        assert match is not None and match.status == MatchStatus.VOID
        assert match.void_reason == "challenge cancelled: its account was suspended"

    lifted = CliRunner().invoke(ladder_cli, ["--home", str(settings.home), "--db", settings.db_url, "accounts", "ann", "--restore"])
    assert lifted.exit_code == 0, lifted.output
    assert lifted.output.splitlines() == ["ann: active", "bots back in rated play: ann-one, ann-two"]
    assert [get_bot(settings, name).status for name in ("ann-one", "ann-two", "ann-held", "bob-one")] == [
        BotStatus.ACTIVE, BotStatus.ACTIVE, BotStatus.PAUSED, BotStatus.ACTIVE]
    assert get_bot(settings, "ann-held").paused_reason == "held by the operator"
    assert "suspension was lifted" in notices(settings, "ann-two")[0].message


def test_a_bot_admitted_while_its_account_is_suspended_waits_paused(settings: LadderSettings) -> None:
    _open_ladder(settings)
    ann, _ = register(settings, "ann")
    reference = reference_bot(settings, GAME)
    bot = add_bot(settings, "ann-new", GAME, command=list(SYNTHETIC_COMMAND), account_id=ann.id, versioned=True, validate=True)
    set_suspended(settings, "ann", True, "under review")
    assert get_bot(settings, "ann-new").status == BotStatus.VALIDATING  # its validation games still run
    for game in range(VALIDATION_GAMES):
        seats = [bot.id or 0, reference] if game % 2 == 0 else [reference, bot.id or 0]
        match_id = schedule_match(settings, GAME, seats, seed=game, kind=MatchKind.VALIDATION)
        job = claim_match(settings, match_id, "worker", 60.0)
        assert not isinstance(job, str), job
        assert record_result(settings, job, synthetic_report(job, {seat.bot_id: 1500.0 for seat in job.seats}, random.Random(game)))
    admitted = get_bot(settings, "ann-new")
    assert (admitted.status, admitted.paused_reason) == (BotStatus.PAUSED, SUSPENSION_PAUSE + "under review")
    assert admitted.validated_at is not None
    assert "once its account's suspension is lifted" in notices(settings, "ann-new")[0].message
    set_suspended(settings, "ann", False)
    assert get_bot(settings, "ann-new").status == BotStatus.ACTIVE
