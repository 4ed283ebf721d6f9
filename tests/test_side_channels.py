"""What a seat receives depends only on what it may know: its request ids and event numbers included.

Two Underground Dice matches with counterfeits, between real bot processes over real gRPC, differ only
in the opponent's secret counterfeit count. With none, every `stake_fakes` decision of the opponent is
forced; with some, it is not. The referee asks it either way (Game.asked_even_when_forced), so the
opponent's timing is its own; and seat 0 must receive the same bytes in both: a counter shared by the
seats would tell it how often the opponent was asked.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import b99.arena_pb2 as arena_pb2
from referee.clock import TimeControl
from referee.engine import ChanceOutcome
from referee.match import BotSpec, MatchSpec, run_match

CONTROL = TimeControl(per_decision_seconds=5.0, bank_seconds=0.0, startup_seconds=20.0)


def scripted_chance(opponent_fakes: int):  # type: ignore[no-untyped-def]
    """Chance outcomes picked by id: seat 0 holds 2 counterfeits, seat 1 `opponent_fakes`, seat 1 starts as parent."""
    script = iter(["counterfeits:2", f"counterfeits:{opponent_fakes}", "parent:0"])

    def sample(outcomes: Sequence[ChanceOutcome], rng: object) -> ChanceOutcome:
        wanted = next(script)
        return next(outcome for outcome in outcomes if outcome.id == wanted)

    return sample


def received(path: Path) -> list[arena_pb2.RefereeMessage]:
    return [arena_pb2.RefereeMessage.FromString(bytes.fromhex(line)) for line in path.read_text().split()]


def play(tmp_path: Path, opponent_fakes: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setattr("referee.match.sample_outcome", scripted_chance(opponent_fakes))
    logs = (tmp_path / f"seat0-{opponent_fakes}.hex", tmp_path / f"seat1-{opponent_fakes}.hex")
    bots = [BotSpec(name=f"recorder{i}", command=(sys.executable, "-m", "tests.bots.recorder", str(log))) for i, log in enumerate(logs)]
    report = run_match(
        MatchSpec("underground_dice", bots, seed=1, variants={"counterfeit": True}, time_control=CONTROL, match_id="same-match")
    )
    assert all(not seat.faults for seat in report.seats), [seat.faults for seat in report.seats]
    return logs


def test_a_seat_receives_the_same_bytes_whether_the_opponent_was_asked_or_forced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine_a, theirs_a = play(tmp_path, 0, monkeypatch)
    mine_b, theirs_b = play(tmp_path, 4, monkeypatch)
    asked = [
        sum(1 for message in received(log) if message.decision_request.decision == "stake_fakes") for log in (theirs_a, theirs_b)
    ]
    assert asked[0] == asked[1] > 0, asked  # asked in both games, forced or not
    # Every message up to the end is the same, byte for byte; the game over then shows the final scores,
    # where the opponent's counterfeits count against it (public at the end, by the rules).
    lines_a, lines_b = mine_a.read_text().split(), mine_b.read_text().split()
    assert len(lines_a) == len(lines_b)
    assert lines_a[:-1] == lines_b[:-1]
    over_a, over_b = (arena_pb2.RefereeMessage.FromString(bytes.fromhex(lines[-1])).game_over for lines in (lines_a, lines_b))
    before_end = [[event for event in over.events if event.kind != "game_end"] for over in (over_a, over_b)]
    assert before_end[0] == before_end[1] and over_a.scores[0] == over_b.scores[0]
    requests = [message.decision_request for message in received(mine_a) if message.WhichOneof("body") == "decision_request"]
    assert [request.request_id for request in requests] == list(range(1, len(requests) + 1))
    sequences = [event.sequence for request in requests for event in request.events]
    assert sequences == list(range(len(sequences)))
