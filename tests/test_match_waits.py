"""How the match waits for its bots: its own thread runs the Arena server's loop while it waits, so limits,
late answers, simultaneous decisions and a replaced bot's last message all work without a server thread."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bots.random_bot import RandomBot
from referee.arena_server import LoopDriver
from referee.clock import TimeControl
from referee.match import BotSpec, MatchSpec, run_match
from referee.replay import read_replay, verify_replay
from sdk import Bot, Request

GAME = "underground_dice"
FAST = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0, tolerance_seconds=0.05)


def process_bot(name: str, *args: str) -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, "-m", *args))


def test_a_run_of_the_loop_ends_at_its_own_deadline_whatever_timer_an_earlier_run_left() -> None:
    loop = asyncio.new_event_loop()
    driver = LoopDriver(loop)
    try:
        # a long run ended early leaves its timer armed far ahead: a short run must still end in time
        loop.call_soon(driver.stop)
        driver.run(30.0)
        began = time.monotonic()
        driver.run(0.05)
        assert time.monotonic() - began < 20.0, "the short run waited for the long run's timer"
        # a short run ended early leaves an early timer: a longer run must not end at it
        loop.call_soon(driver.stop)
        driver.run(0.05)
        began = time.monotonic()
        driver.run(0.3)
        assert time.monotonic() - began >= 0.29, "the run ended at an earlier run's timer"
        # a zero timeout handles what is ready, once
        ran: list[int] = []
        loop.call_soon(ran.append, 1)
        driver.run(0.0)
        assert ran == [1]
    finally:
        loop.close()


def test_a_bot_that_answers_after_its_limit_times_out_and_its_late_answer_is_dropped(tmp_path: Path) -> None:
    control = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0, strikes_allowed=1)
    report = run_match(
        MatchSpec(
            game=GAME,
            bots=[process_bot("good", "tests.bots.misbehaving", "good"), process_bot("late", "tests.bots.misbehaving", "late")],
            seed=3,
            replay_path=str(tmp_path / "r.jsonl"),
            time_control=control,
        )
    )
    good, late = report.seats
    assert [fault.kind for fault in late.faults] == ["timeout"], late.faults
    assert not late.replaced and not good.faults
    # the bot was told of its timeout, and its answer to the timed-out request was refused as stale
    assert "referee error: TIMEOUT" in late.stderr_tail, late.stderr_tail
    assert "referee error: STALE_REQUEST" in late.stderr_tail, late.stderr_tail
    verify_replay(tmp_path / "r.jsonl")


class SlowFirstBot(Bot):
    """An in-process bot that thinks for `seconds` over its first decision (within its limit), then plays at random."""

    name = "slow-first"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.random = RandomBot(1)

    def choose(self, request: Request) -> object:
        if self.seconds:
            time.sleep(self.seconds)
            self.seconds = 0.0
        return self.random.choose(request)


def test_an_in_process_bot_s_thinking_is_not_charged_to_a_bot_process_deciding_with_it(tmp_path: Path) -> None:
    # Merchants drafts simultaneously: both seats are asked at once, the in-process seat first.
    control = TimeControl(per_decision_seconds=3.0, bank_seconds=0.0, startup_seconds=20.0)
    replay = tmp_path / "r.jsonl"
    report = run_match(
        MatchSpec(
            game="merchants",
            bots=[BotSpec(name="slow", factory=lambda: SlowFirstBot(1.5)), process_bot("random", "bots", "random")],
            seed=5,
            replay_path=str(replay),
            time_control=control,
        )
    )
    assert all(not seat.faults for seat in report.seats), [seat.faults for seat in report.seats]
    first = next(record for record in read_replay(replay) if record["type"] == "decision")
    assert first["how"] == {"0": "bot", "1": "bot"}, first
    assert first["seconds"]["0"] >= 1.5, first
    assert first["seconds"]["1"] < 1.2, f"the process seat was charged the in-process seat's thinking: {first}"


def test_a_replaced_bot_hears_why_before_it_is_stopped(tmp_path: Path) -> None:
    report = run_match(
        MatchSpec(
            game=GAME,
            bots=[
                process_bot("good", "tests.bots.misbehaving", "good"),
                process_bot("illegal", "tests.bots.misbehaving", "illegal_listening"),
            ],
            seed=3,
            time_control=FAST,
        )
    )
    bad = report.seats[1]
    assert bad.replaced and bad.faults[0].kind == "illegal_option", bad.faults
    assert "referee error: REPLACED" in bad.stderr_tail, bad.stderr_tail
