"""The scheduler's memory of bots, ratings, recent seats, strength fit and open matches stays what a read of the
database gives: after results (in and out of order), pauses and resumes, new bots, a recompute and edits made
behind the scheduler's back, and at every pick of a running ladder (with executors that say which matches ended
and with ones that do not)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import update

from ladder.db import write_session
from ladder.matches import claim_match, record_result, schedule_match
from ladder.matchmaking import Candidate
from ladder.models import BotStatus, MatchKind, Rating
from ladder.recompute import StrengthCache, recompute
from ladder.registry import add_bot, set_status
from ladder.scheduler_memory import SchedulerMemory, candidates_from_database
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings
from ladder.simulation import SyntheticExecutor, synthetic_report
from tests.ladder.conftest import GAME

COMMAND = ["synthetic"]


def assert_same(memory: SchedulerMemory, settings: LadderSettings, game: str = GAME) -> list[Candidate]:
    """The memory's candidates are the database's: the same bots, ratings, games and recent seats, and the same
    fitted strengths (fitted afresh there, incrementally here: equal to far below a rating point)."""
    mine, theirs = memory.candidates(game), candidates_from_database(settings, game)
    assert [(c.bot_id, c.rating, c.games, c.recent) for c in mine] == [(c.bot_id, c.rating, c.games, c.recent) for c in theirs]
    for a, b in zip(mine, theirs):
        assert (a.strength is None) == (b.strength is None) and (a.sd is None) == (b.sd is None)
        if a.strength is not None:
            assert a.strength == pytest.approx(b.strength, abs=1e-6) and a.sd == pytest.approx(b.sd, abs=1e-6)
    return mine


def play(settings: LadderSettings, match_id: int, strengths: dict[int, float], seed: int) -> None:
    """Claim and record a match with a synthetic result (its seats' true strengths)."""
    job = claim_match(settings, match_id, "w", 60)
    assert not isinstance(job, str)
    assert record_result(settings, job, synthetic_report(job, strengths, random.Random(seed)))


def test_the_memory_follows_results_pauses_new_bots_recomputes_and_edits(settings: LadderSettings) -> None:
    ids = [add_bot(settings, f"b{i}", GAME, command=COMMAND).id or 0 for i in range(4)]
    strengths = {bot: 1500.0 + 100 * i for i, bot in enumerate(ids)}
    memory = SchedulerMemory(settings, fits=StrengthCache())
    assert_same(memory, settings)
    rng = random.Random(1)

    def queue(table: list[int]) -> int:
        match_id = schedule_match(settings, GAME, table, seed=rng.getrandbits(32))
        memory.queued(match_id, GAME, table)
        return match_id

    for number in range(6):  # results told as they come
        match_id = queue(rng.sample(ids, 2))
        assert memory.open_count() == 1
        play(settings, match_id, strengths, number)
        memory.ended([match_id])
        memory.refresh()
        assert memory.open_count() == 0
        assert_same(memory, settings)
    first, second, third = (queue(rng.sample(ids, 2)) for _ in range(3))
    for number, match_id in enumerate((first, second, third)):
        play(settings, match_id, strengths, 10 + number)
    memory.ended([third])  # told out of order: the fit waits for the first two
    memory.refresh()
    memory.ended([second, first])
    memory.refresh()
    assert memory.open_count() == 0
    assert_same(memory, settings)

    set_status(settings, "b0", BotStatus.PAUSED, "maintenance")  # an operator, in another process
    memory.refresh()
    assert ids[0] not in {c.bot_id for c in assert_same(memory, settings)}
    set_status(settings, "b0", BotStatus.ACTIVE)
    newcomer = add_bot(settings, "newcomer", GAME, command=COMMAND).id or 0
    strengths[newcomer] = 1550.0
    memory.refresh()
    assert {ids[0], newcomer} <= {c.bot_id for c in assert_same(memory, settings)}

    with write_session(settings.db_url) as session:  # a rating broken by hand, then repaired by a recompute
        session.exec(update(Rating).where(Rating.bot_id == ids[1]).values(rating=999.0))  # type: ignore[call-overload]
    assert recompute(settings, GAME, write=True)
    memory.refresh()
    assert_same(memory, settings)

    others = schedule_match(settings, GAME, [ids[2], newcomer], seed=5, kind=MatchKind.VALIDATION)  # queued by others
    memory.forget_recent()
    memory.read_open()
    assert memory.open_count() == 1
    assert_same(memory, settings)
    play(settings, others, strengths, 20)
    memory.ended([others])
    memory.refresh()
    assert memory.open_count() == 0
    assert_same(memory, settings)


def test_a_rating_edited_behind_the_schedulers_back_is_read_on_the_timer(sqlite_settings: LadderSettings) -> None:
    settings = sqlite_settings
    ids = [add_bot(settings, f"b{i}", GAME, command=COMMAND).id or 0 for i in range(3)]
    memory = SchedulerMemory(settings, refresh_seconds=3600.0, fits=StrengthCache())
    memory.load()
    with write_session(settings.db_url) as session:  # nothing moves a change count: only the timer sees it
        session.exec(update(Rating).where(Rating.bot_id == ids[1]).values(rating=1234.0))  # type: ignore[call-overload]
    memory.refresh()
    assert {c.bot_id: c.rating for c in memory.candidates(GAME)}[ids[1]] == 1500.0
    memory.refresh_seconds = 0.0
    memory.refresh()
    assert {c.bot_id: c.rating for c in assert_same(memory, settings)}[ids[1]] == 1234.0


class ToldExecutor(SyntheticExecutor):
    """Plays each match as it is sent, then says which ended, as the local executor does from its thread."""

    def __init__(self, strengths: dict[int, float], seed: int = 0) -> None:
        super().__init__(strengths, seed)
        self.listeners: list[Callable[[list[int]], None]] = []

    def listen(self, callback: Callable[[list[int]], None]) -> None:
        self.listeners.append(callback)

    def submit(self, settings: LadderSettings, match_id: int) -> None:
        super().submit(settings, match_id)
        for callback in self.listeners:
            callback([match_id])


@pytest.mark.parametrize("told", [True, False], ids=["told-which-ended", "polled"])
def test_every_pick_of_a_running_ladder_sees_what_the_database_holds(sqlite_settings: LadderSettings, told: bool) -> None:
    settings = sqlite_settings
    ids = [add_bot(settings, f"b{i}", GAME, command=COMMAND).id or 0 for i in range(5)]
    strengths = {bot: 1300.0 + 100 * i for i, bot in enumerate(ids)}
    executor: Any = ToldExecutor(strengths, 3) if told else SyntheticExecutor(strengths, 3)
    ladder = Ladder(settings, executor, SchedulerOptions(games=[GAME], concurrency=3, seed=2, tick_seconds=0.0))
    picks: list[list[int]] = []
    original = ladder.candidates

    def checked(game: str) -> list[Candidate]:
        mine = original(game)
        theirs = candidates_from_database(settings, game)
        assert [(c.bot_id, c.rating, c.games, c.recent) for c in mine] == [(c.bot_id, c.rating, c.games, c.recent) for c in theirs]
        assert [c.strength for c in mine] == pytest.approx([c.strength for c in theirs], abs=1e-6)
        picks.append([c.bot_id for c in mine])
        return mine

    ladder.candidates = checked  # type: ignore[method-assign]
    for _ in range(8):
        ladder.schedule()
    set_status(settings, "b0", BotStatus.PAUSED, "operator")  # as `b99 ladder pause` would, between two picks
    paused_from = len(picks)
    for _ in range(4):
        ladder.schedule()
    newcomer = add_bot(settings, "newcomer", GAME, command=COMMAND).id or 0
    strengths[newcomer] = 1500.0
    joined_from = len(picks)
    for _ in range(4):
        ladder.schedule()
    assert len(picks) == 16 * 3
    assert all(ids[0] not in pick for pick in picks[paused_from:])
    assert all(newcomer in pick for pick in picks[joined_from:])
