"""The match runner end to end: real bot processes over real gRPC, and the faults it must survive."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from referee.clock import TimeControl
from referee.errors import ConfigError, UnknownGameError
from referee.local import play_local
from referee.match import BotSpec, MatchSpec, run_match
from referee.replay import verify_replay

GAME = "underground_dice"
FAST = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0, tolerance_seconds=0.05)


def process_bot(name: str, *args: str) -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, "-m", *args))


def test_in_process_match_finishes_and_replays(tmp_path: Path) -> None:
    replay = tmp_path / "r.jsonl"
    report = play_local(GAME, [RandomBot(1), RandomBot(2)], seed=5, replay_path=str(replay))
    assert sorted(report.ranks) in ([1, 2], [1, 1])
    assert all(not seat.faults for seat in report.seats)
    verified = verify_replay(replay)
    assert list(verified.state.result().ranks) == report.engine_ranks


def test_same_seed_same_game(tmp_path: Path) -> None:
    first = play_local(GAME, [RandomBot(1), RandomBot(2)], seed=11)
    second = play_local(GAME, [RandomBot(1), RandomBot(2)], seed=11)
    assert (first.ranks, first.scores, first.decisions) == (second.ranks, second.scores, second.decisions)


@pytest.mark.parametrize("transport", ["unix", "tcp"])
def test_process_bots_play_over_grpc(tmp_path: Path, transport: str) -> None:
    replay = tmp_path / "r.jsonl"
    report = run_match(
        MatchSpec(
            game=GAME,
            bots=[process_bot("random", "bots", "random"), process_bot("random", "bots", "random")],
            seed=7,
            replay_path=str(replay),
            time_control=FAST,
            transport=transport,
        )
    )
    assert all(not seat.faults for seat in report.seats), [seat.faults for seat in report.seats]
    assert report.decisions > 0
    verify_replay(replay)


@pytest.mark.parametrize(
    ("mode", "fault_kind"),
    [
        ("crash", "crash"),
        ("hang", "timeout"),
        ("illegal", "illegal_option"),
        ("stale", "protocol_error"),
        ("early", "protocol_error"),
        ("garbage", "protocol_error"),
    ],
)
def test_misbehaving_bot_is_replaced_and_ranked_last(tmp_path: Path, mode: str, fault_kind: str) -> None:
    replay = tmp_path / "r.jsonl"
    report = run_match(
        MatchSpec(
            game=GAME,
            bots=[process_bot("good", "tests.bots.misbehaving", "good"), process_bot(mode, "tests.bots.misbehaving", mode)],
            seed=3,
            replay_path=str(replay),
            time_control=FAST,
        )
    )
    good, bad = report.seats
    assert bad.replaced, bad
    assert bad.faults and bad.faults[0].kind == fault_kind, bad.faults
    assert bad.rank == 2 and good.rank == 1
    assert not good.faults and not good.replaced
    if mode == "crash":
        assert "exit code 3" in bad.faults[0].detail
        assert "crashing on purpose" in bad.stderr_tail
    verify_replay(replay)


def test_bot_that_never_starts_is_a_startup_fault() -> None:
    report = run_match(
        MatchSpec(
            game=GAME,
            bots=[BotSpec(name="dead", command=(sys.executable, "-c", "import sys; sys.exit(4)")), process_bot("random", "bots", "random")],
            seed=1,
            time_control=FAST,
        )
    )
    assert report.seats[0].faults[0].kind == "startup"
    assert "exit code 4" in report.seats[0].faults[0].detail
    assert report.seats[0].rank == 2


def test_command_that_does_not_exist_is_a_startup_fault() -> None:
    report = run_match(
        MatchSpec(game=GAME, bots=[BotSpec(name="x", command=("/nonexistent/bot",)), process_bot("r", "bots", "random")], seed=1, time_control=FAST)
    )
    assert report.seats[0].faults[0].kind == "startup"
    assert "does not start" in report.seats[0].faults[0].detail


def test_bad_specs_raise_before_any_bot_starts() -> None:
    with pytest.raises(UnknownGameError):
        run_match(MatchSpec(game="chess", bots=[process_bot("r", "bots", "random")], seed=1))
    with pytest.raises(ConfigError):
        run_match(MatchSpec(game=GAME, bots=[process_bot("r", "bots", "random")], seed=1))
    with pytest.raises(ConfigError):
        BotSpec(name="both", command=("x",), factory=RandomBot)
