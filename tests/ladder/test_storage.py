"""Storage on SQLite and PostgreSQL: migrations, bots and tokens, the match life cycle, exactly-once
rating, recompute, and concurrent result writes without lost updates."""

from __future__ import annotations

import io
import random
import sys
import tarfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlmodel import SQLModel, select

from bots.random_bot import RandomBot
from ladder import queries
from ladder.db import current_revision, get_engine, head_revision, read_session
from ladder.matches import claim_match, fail_attempt, reap_expired, record_result, schedule_match
from ladder.models import BotStatus, BotToken, Match, MatchStatus, Rating
from ladder.ratings import INITIAL_RATING, replay_ratings
from ladder.recompute import recompute
from ladder.registry import LadderError, add_bot, bot_for_token, get_bot, issue_token
from ladder.settings import LadderSettings
from referee.local import play_local
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]


def local_report(seed: int):  # type: ignore[no-untyped-def]
    """A real match report, played in-process."""
    return play_local(GAME, [RandomBot(seed), RandomBot(seed + 1)], seed=seed)


def test_migrations_match_the_models(settings: LadderSettings) -> None:
    assert current_revision(settings.db_url) == head_revision()
    with get_engine(settings.db_url).connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []


def test_bots_and_hashed_tokens(settings: LadderSettings, tmp_path: Path) -> None:
    bot = add_bot(settings, "alpha", GAME, command=RANDOM, owner="ann")
    assert get_bot(settings, "alpha").id == bot.id == get_bot(settings, str(bot.id)).id
    with pytest.raises(LadderError, match="already exists"):
        add_bot(settings, "alpha", GAME, command=RANDOM)
    with pytest.raises(LadderError, match="bad bot name"):
        add_bot(settings, "no spaces", GAME, command=RANDOM)
    with pytest.raises(LadderError, match="needs a command"):
        add_bot(settings, "nothing", GAME)
    remote = add_bot(settings, "far", GAME, remote=True)
    token = issue_token(settings, "far")
    with read_session(settings.db_url) as session:
        stored = session.exec(select(BotToken)).all()
    assert [row.bot_id for row in stored] == [remote.id]
    assert token not in {row.token_hash for row in stored}
    assert bot_for_token(settings, token).id == remote.id  # type: ignore[union-attr]
    assert bot_for_token(settings, token + "x") is None
    with read_session(settings.db_url) as session:
        assert session.get(Rating, bot.id).rating == INITIAL_RATING  # type: ignore[union-attr]


def test_uploaded_bot_is_copied_into_the_store(sqlite_settings: LadderSettings, tmp_path: Path) -> None:
    source = tmp_path / "mybot"
    source.mkdir()
    (source / "main.py").write_text("print('hi')\n")
    bot = add_bot(sqlite_settings, "dir-bot", GAME, command=["python3", "main.py"], upload=source)
    assert bot.kind == "uploaded" and bot.sandbox == "strict"
    assert (Path(bot.store_path) / "main.py").read_text() == "print('hi')\n"  # type: ignore[arg-type]
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        data = b"print('tar')\n"
        info = tarfile.TarInfo("main.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    bot = add_bot(sqlite_settings, "tar-bot", GAME, command=["python3", "main.py"], upload=archive)
    assert (Path(bot.store_path) / "main.py").read_text() == "print('tar')\n"  # type: ignore[arg-type]
    with pytest.raises(LadderError, match="not a directory"):
        add_bot(sqlite_settings, "bad-bot", GAME, command=["x"], upload=source / "main.py")


def two_bots(settings: LadderSettings) -> tuple[int, int]:
    a = add_bot(settings, "a", GAME, command=RANDOM)
    b = add_bot(settings, "b", GAME, command=RANDOM)
    return a.id or 0, b.id or 0


def test_result_is_written_exactly_once(settings: LadderSettings) -> None:
    a, b = two_bots(settings)
    match_id = schedule_match(settings, GAME, [a, b], seed=5)
    job = claim_match(settings, match_id, "w1", lease_seconds=60)
    assert not isinstance(job, str) and job.attempt == 1
    assert claim_match(settings, match_id, "w2", lease_seconds=60) == "busy"
    report = local_report(5)
    assert record_result(settings, job, report)
    assert not record_result(settings, job, report)  # a duplicate delivery changes nothing
    assert claim_match(settings, match_id, "w2", lease_seconds=60) == "closed"
    row = queries.match(settings, match_id)
    assert row is not None and row.status == MatchStatus.DONE and row.rating_seq == 1
    assert [seat.rank for seat in row.seats] == report.ranks
    expected = replay_ratings([([a, b], report.ranks)])
    board = {line.bot_id: line for line in queries.leaderboard(settings, GAME)}
    assert board[a].rating == pytest.approx(expected.rating(a))
    assert board[a].games == board[b].games == 1
    assert row.seats[0].rating_after == pytest.approx(expected.rating(a))


def test_a_lost_attempt_is_requeued_and_its_late_result_dropped(settings: LadderSettings) -> None:
    a, b = two_bots(settings)
    match_id = schedule_match(settings, GAME, [a, b], seed=6)
    first = claim_match(settings, match_id, "w1", lease_seconds=-1.0)  # a lease already over: worker lost
    assert not isinstance(first, str)
    assert reap_expired(settings) == [match_id]
    second = claim_match(settings, match_id, "w2", lease_seconds=60)
    assert not isinstance(second, str) and second.attempt == 2
    assert not record_result(settings, first, local_report(6))  # the lost worker woke up: dropped
    assert record_result(settings, second, local_report(6))
    assert [line.games for line in queries.leaderboard(settings, GAME)] == [1, 1]


def test_platform_failures_void_without_touching_ratings(settings: LadderSettings) -> None:
    a, b = two_bots(settings)
    match_id = schedule_match(settings, GAME, [a, b], seed=7)
    outcomes = []
    for _ in range(settings.max_attempts):
        job = claim_match(settings, match_id, "w", lease_seconds=60)
        assert not isinstance(job, str)
        outcomes.append(fail_attempt(settings, match_id, job.attempt, "referee broke"))
    assert outcomes == ["requeued"] * (settings.max_attempts - 1) + ["void"]
    row = queries.match(settings, match_id)
    assert row is not None and row.status == MatchStatus.VOID and row.void_reason == "referee broke"
    assert all(line.rating == INITIAL_RATING and line.games == 0 for line in queries.leaderboard(settings, GAME))


def test_recompute_reproduces_and_repairs_ratings(settings: LadderSettings) -> None:
    ids = [add_bot(settings, f"bot{i}", GAME, command=RANDOM).id or 0 for i in range(3)]
    rng = random.Random(3)
    for seed in range(8):
        table = rng.sample(ids, 2)
        job = claim_match(settings, schedule_match(settings, GAME, table, seed=seed), "w", 60)
        assert not isinstance(job, str)
        assert record_result(settings, job, local_report(seed))
    assert recompute(settings, GAME) == []
    with read_session(settings.db_url) as session:
        rating = session.get(Rating, ids[0])
        assert rating is not None
        rating.rating += 50
        session.add(rating)
        session.commit()
    differences = recompute(settings, GAME, write=True)
    assert [d.bot_id for d in differences] == [ids[0]]
    assert recompute(settings, GAME) == []


def test_concurrent_results_lose_no_update(settings: LadderSettings) -> None:
    ids = [add_bot(settings, f"c{i}", GAME, command=RANDOM).id or 0 for i in range(4)]
    rng = random.Random(9)
    jobs = []
    for seed in range(24):
        job = claim_match(settings, schedule_match(settings, GAME, rng.sample(ids, 2), seed=seed), "w", 60)
        assert not isinstance(job, str)
        jobs.append((job, local_report(seed)))
    # Every result written twice, from 8 threads at once: each must count exactly once.
    with ThreadPoolExecutor(max_workers=8) as pool:
        written = list(pool.map(lambda pair: record_result(settings, *pair), jobs + jobs))
    assert sum(bool(outcome) for outcome in written) == len(jobs)
    board = queries.leaderboard(settings, GAME)
    assert sum(line.games for line in board) == 2 * len(jobs)
    assert sum(line.rating for line in board) == pytest.approx(4 * INITIAL_RATING)  # Elo is zero-sum here
    assert recompute(settings, GAME) == []
    with read_session(settings.db_url) as session:
        seqs = sorted(match.rating_seq for match in session.exec(select(Match)).all())
    assert seqs == list(range(1, len(jobs) + 1))


def test_a_bot_that_keeps_faulting_is_paused_with_a_notice(sqlite_settings: LadderSettings) -> None:
    from ladder.execute import execute_match
    from ladder.matches import PAUSE_FAULTS
    from ladder.registry import notices

    settings = sqlite_settings
    crash = "import sys; print('Traceback: ModuleNotFoundError: numpyy', file=sys.stderr); sys.exit(3)"
    crasher = add_bot(settings, "crasher", GAME, command=[sys.executable, "-c", crash], owner="bob")
    steady = add_bot(settings, "steady", GAME, command=RANDOM)
    for seed in range(PAUSE_FAULTS):
        assert get_bot(settings, "crasher").status == BotStatus.ACTIVE
        match_id = schedule_match(settings, GAME, [crasher.id, steady.id][:: 1 if seed % 2 else -1], seed=seed)  # type: ignore[list-item]
        assert execute_match(settings, match_id) == "done"
    assert get_bot(settings, "crasher").status == BotStatus.PAUSED
    assert get_bot(settings, "steady").status == BotStatus.ACTIVE
    [notice] = notices(settings, "crasher")
    assert f"crasher was paused: faults in {PAUSE_FAULTS} of its last {PAUSE_FAULTS} matches" in notice.message
    assert "ModuleNotFoundError: numpyy" in notice.message  # the owner sees why, not only "exited before hello"
    row = queries.matches(settings, bot_id=crasher.id, limit=1)[0]
    crash_seat = next(seat for seat in row.seats if seat.bot == "crasher")
    assert crash_seat.faults and crash_seat.rank == 2
    assert "ModuleNotFoundError: numpyy" in crash_seat.stderr_tail and crash_seat.exit_code == 3


@pytest.mark.parametrize("sandbox", ["none", "strict"])
def test_an_uploaded_bot_plays_from_its_copy_in_the_store(sqlite_settings: LadderSettings, tmp_path: Path, sandbox: str) -> None:
    from ladder.execute import execute_match
    from referee.sandbox import machine_support

    if not machine_support().available(sandbox):
        pytest.skip(f"no {sandbox} sandbox here: {machine_support().missing[sandbox]}")

    source = tmp_path / "upload"
    source.mkdir()
    (source / "mybot.py").write_text(
        "from bots.random_bot import RandomBot\nfrom sdk.run import run\nrun(RandomBot(), name='uploaded')\n"
    )
    uploaded = add_bot(sqlite_settings, "up", GAME, command=[sys.executable, "mybot.py"], upload=source, sandbox=sandbox)
    (source / "mybot.py").unlink()  # the ladder plays its own copy
    other = add_bot(sqlite_settings, "other", GAME, command=RANDOM)
    match_id = schedule_match(sqlite_settings, GAME, [uploaded.id, other.id], seed=8)  # type: ignore[list-item]
    assert execute_match(sqlite_settings, match_id) == "done"
    row = queries.match(sqlite_settings, match_id)
    assert row is not None and all(not seat.faults for seat in row.seats), row.seats
