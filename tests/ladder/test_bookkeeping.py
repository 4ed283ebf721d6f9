"""The ladder's per-match writes (seats at scheduling, the result, the bots' exit codes afterwards) on
SQLite and PostgreSQL: every column as the match's life needs it, written once, for the right attempt."""

from __future__ import annotations

import dataclasses
import functools

from sqlmodel import col, select

from bots.registry import make_bot
from ladder.db import read_session
from ladder.matches import Recorded, claim_match, record_result, record_seat_exits, schedule_match
from ladder.models import Match, Rating, Seat
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from referee.match import BotSpec, MatchSpec, run_match
from tests.ladder.conftest import GAME


def _seats(settings: LadderSettings, match_id: int) -> list[Seat]:
    with read_session(settings.db_url) as session:
        return list(session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seat))).all())


def test_a_match_is_scheduled_claimed_recorded_and_completed_with_its_exit_codes(settings: LadderSettings) -> None:
    bots = [add_bot(settings, name, GAME, command=("true",)).id for name in ("a", "b")]
    match_id = schedule_match(settings, GAME, bots, seed=3)
    scheduled = _seats(settings, match_id)
    assert [(seat.seat, seat.bot_id, seat.faults, seat.replaced, seat.stderr_tail, seat.exit_code) for seat in scheduled] == [
        (0, bots[0], [], False, "", None), (1, bots[1], [], False, "", None)]

    job = claim_match(settings, match_id, "host:1", 60.0)
    assert not isinstance(job, str)
    assert [(seat.seat, seat.bot_id, seat.name) for seat in job.seats] == [(0, bots[0], "a"), (1, bots[1], "b")]

    report = run_match(MatchSpec(GAME, [BotSpec(name, factory=functools.partial(make_bot, "random")) for name in "ab"], seed=3))
    assert record_result(settings, job, report, replay=b"{}\n", worker="host:1") is Recorded.RECORDED
    with read_session(settings.db_url) as session:
        ratings = {rating.bot_id: (rating.rating, rating.games) for rating in session.exec(select(Rating)).all()}
    recorded = _seats(settings, match_id)
    assert [seat.rank for seat in recorded] == [int(rank) for rank in report.ranks]

    # The bots ended after the result: only the seat whose exit changed is written, nothing else moves.
    stopped = dataclasses.replace(report, seats=[dataclasses.replace(report.seats[0], exit_code=-9, stderr_tail="killed\n"),
                                                 report.seats[1]])
    assert record_seat_exits(settings, job, stopped)
    completed = _seats(settings, match_id)
    assert [(seat.exit_code, seat.stderr_tail) for seat in completed] == [
        (-9, "killed\n"), (recorded[1].exit_code, recorded[1].stderr_tail)]
    assert [(seat.rank, seat.rating_before, seat.rating_after, seat.faults) for seat in completed] == [
        (seat.rank, seat.rating_before, seat.rating_after, seat.faults) for seat in recorded]
    with read_session(settings.db_url) as session:
        assert {rating.bot_id: (rating.rating, rating.games) for rating in session.exec(select(Rating)).all()} == ratings
        assert session.get(Match, match_id).result_attempt == job.attempt  # type: ignore[union-attr]

    # Another attempt's exit codes are never written over this attempt's result.
    other = dataclasses.replace(job, attempt=job.attempt + 1)
    assert not record_seat_exits(settings, other, dataclasses.replace(report, seats=[
        dataclasses.replace(seat, exit_code=1, stderr_tail="late\n") for seat in report.seats]))
    assert [(seat.exit_code, seat.stderr_tail) for seat in _seats(settings, match_id)] == [
        (-9, "killed\n"), (recorded[1].exit_code, recorded[1].stderr_tail)]
