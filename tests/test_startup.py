"""Start-up is per seat: real bot processes over real gRPC, one of them never saying hello.

Each seat has its own allowance from its own launch; a seat that said hello in time is never
faulted for another's silence; the fault names the limit; a match nobody played is void.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.clock import TimeControl
from referee.match import VOID, BotSpec, MatchSpec, run_match
from referee.replay import read_replay, verify_replay

#: A bot that starts and never says hello.
HANGING = BotSpec(name="hang", command=(sys.executable, "-c", "import time; time.sleep(120)"))


def random_bot(index: int) -> BotSpec:
    return BotSpec(name=f"random{index}", command=(sys.executable, "-m", "bots", "random"))


def control(players: int) -> TimeControl:
    # Room for every honest bot to start on a loaded 2-core machine; the hanging one costs all of it.
    return TimeControl(per_decision_seconds=5.0, bank_seconds=0.0, startup_seconds=3.0 + players)


@pytest.mark.parametrize(
    ("game", "players", "hanging_seat"),
    [
        ("fuji99", 2, 0),
        ("fuji99", 2, 1),
        ("deep_dive", 3, 1),
        ("deep_dive", 4, 3),
        ("deep_dive", 5, 2),
        ("deep_dive", 6, 5),
    ],
)
def test_a_hanging_bot_is_the_only_seat_faulted(tmp_path: Path, game: str, players: int, hanging_seat: int) -> None:
    bots = [random_bot(index) for index in range(players)]
    bots[hanging_seat] = HANGING
    time_control = control(players)
    replay = tmp_path / "r.jsonl"
    report = run_match(MatchSpec(game, bots, seed=4, time_control=time_control, replay_path=str(replay)))
    assert report.status == "complete" and not report.void
    for seat in report.seats:
        if seat.seat == hanging_seat:
            assert seat.replaced and [fault.kind for fault in seat.faults] == ["startup"], seat.faults
            # The fault names the limit (measured from the bot's own launch), never the time left.
            assert f"no hello within {time_control.startup_seconds:.1f}s of its launch" in seat.faults[0].detail
            assert seat.rank == players, report.ranks
        else:
            assert not seat.faults and not seat.replaced, (seat.seat, seat.faults)
            assert seat.rank < players
    verify_replay(replay)


def test_every_seat_silent_is_a_void_match(tmp_path: Path) -> None:
    replay = tmp_path / "r.jsonl"
    report = run_match(
        MatchSpec("fuji99", [HANGING, HANGING], seed=1, time_control=control(1), replay_path=str(replay))
    )
    assert report.status == VOID and report.void
    assert report.ranks == [] and report.scores == [] and report.decisions == 0
    assert "every seat faulted before any bot made a decision" in report.void_reason
    assert all(seat.replaced and seat.faults[0].kind == "startup" for seat in report.seats)
    records = read_replay(replay)
    assert [record["type"] for record in records if record["type"] in ("void", "result")] == ["void"]
    assert report.to_json()["status"] == "void"
    verify_replay(replay)


def test_a_seat_that_started_but_crashes_on_its_first_request_leaves_a_void_match(tmp_path: Path) -> None:
    crash_first = BotSpec(name="crash", command=(sys.executable, "-m", "tests.bots.misbehaving", "crash_first"))
    report = run_match(MatchSpec("underground_dice", [HANGING, crash_first], seed=2, time_control=control(1)))
    assert report.void, report.to_json()
    kinds = [seat.faults[0].kind for seat in report.seats]
    assert kinds == ["startup", "crash"], kinds


def test_a_hanging_bot_in_a_simultaneous_decision_costs_no_other_seat_its_time(tmp_path: Path) -> None:
    # Merchants drafts simultaneously: the referee waits out the hanging seat's clock first, and the
    # other seat's answer (in its inbox all along, in time) must still count.
    hang = BotSpec(name="hang", command=(sys.executable, "-m", "tests.bots.misbehaving", "hang"))
    fast = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0, tolerance_seconds=0.05)
    report = run_match(MatchSpec("merchants", [hang, random_bot(1)], seed=5, time_control=fast))
    hanging, good = report.seats
    assert hanging.replaced and hanging.faults[0].kind == "timeout", hanging.faults
    assert not good.faults and not good.replaced, good.faults
