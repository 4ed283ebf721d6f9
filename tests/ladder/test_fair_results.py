"""Results the ratings may trust: faults of several seats decide nothing, void matches are never
rated, every seat's stderr tail is kept for its owner."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from ladder import queries
from ladder.execute import execute_match
from ladder.matches import claim_match, record_result, schedule_match
from ladder.models import MatchStatus
from ladder.ratings import INITIAL_RATING, rating_decision
from ladder.recompute import recompute
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from referee.faults import Fault
from tests.ladder.conftest import GAME

RANDOM = [sys.executable, "-m", "bots", "random"]
CRASH = [sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(2)"]


@pytest.mark.parametrize(
    ("ranks", "replaced", "rated_ranks", "rated"),
    [
        ([1, 2], [False, False], (1, 2), True),
        ([1, 2], [False, True], (1, 2), True),  # one clean seat beat one that faulted: a result
        ([1, 2], [True, True], (1, 2), False),  # both faulted: decided only by faults
        ([2, 1], [True, True], (2, 1), False),
        ([1, 2, 3, 4], [False, False, True, True], (1, 2, 3, 3), True),  # faulted seats share the last place
        ([1, 2, 3, 4], [False, True, True, True], (1, 2, 3, 4), False),  # one clean seat, three faulted
        ([1, 2, 3], [True, True, True], (1, 2, 3), False),
        ([1, 1, 3, 4], [False, False, True, True], (1, 1, 3, 3), True),
    ],
)
def test_rating_decision(ranks: list[int], replaced: list[bool], rated_ranks: tuple[int, ...], rated: bool) -> None:
    decision = rating_decision(ranks, replaced)
    assert decision.rated is rated
    assert decision.ranks == rated_ranks
    if not rated:
        assert "decided only by faults" in (decision.reason or "")


def test_a_void_result_is_never_rated() -> None:
    assert not rating_decision([1, 2], [False, False], void=True).rated


CRASH_ON_SECOND_DECISION = """
import sys
from sdk import Bot
from sdk.run import run


class Brittle(Bot):
    name = "brittle"
    answered = 0

    def choose(self, request):
        self.answered += 1
        if self.answered > 1:
            print("boom", file=sys.stderr)
            raise RuntimeError("brittle")
        return request.options[0].id


run(Brittle())
"""


def test_two_crashing_bots_gain_nothing_from_meeting(sqlite_settings: LadderSettings, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Measured: when two faulting bots met, one was ranked first and gained rating. Both crash
    after their first decision: the match is done, decided only by faults, and rates nobody."""
    settings = sqlite_settings
    script = tmp_path / "brittle.py"
    script.write_text(CRASH_ON_SECOND_DECISION)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    first = add_bot(settings, "crash-a", GAME, command=[sys.executable, str(script)])
    second = add_bot(settings, "crash-b", GAME, command=[sys.executable, str(script)])
    match_id = schedule_match(settings, GAME, [first.id, second.id], seed=5)  # type: ignore[list-item]
    assert execute_match(settings, match_id) == "done"
    row = queries.match(settings, match_id)
    assert row is not None and row.status == MatchStatus.DONE
    assert row.unrated_reason and "decided only by faults" in row.unrated_reason
    assert all(seat.faults and "boom" in seat.stderr_tail for seat in row.seats)
    board = {line.name: line for line in queries.leaderboard(settings, GAME)}
    assert board["crash-a"].rating == board["crash-b"].rating == INITIAL_RATING
    assert board["crash-a"].games == board["crash-b"].games == 0
    assert recompute(settings, GAME) == []


def test_two_bots_that_never_start_void_the_match(sqlite_settings: LadderSettings) -> None:
    settings = sqlite_settings
    first = add_bot(settings, "dead-a", GAME, command=CRASH)
    second = add_bot(settings, "dead-b", GAME, command=CRASH)
    match_id = schedule_match(settings, GAME, [first.id, second.id], seed=5)  # type: ignore[list-item]
    execute_match(settings, match_id)
    row = queries.match(settings, match_id)
    assert row is not None and row.status == MatchStatus.VOID and row.rating_seq is None
    assert all(seat.faults and "boom" in seat.stderr_tail and seat.rating_after is None for seat in row.seats)
    assert all(line.games == 0 and line.rating == INITIAL_RATING for line in queries.leaderboard(settings, GAME))


def test_a_void_report_voids_the_match_and_keeps_the_faults(sqlite_settings: LadderSettings) -> None:
    """A referee report with status void (every seat faulted before the first decision) rates nothing."""
    settings = sqlite_settings
    ids = [add_bot(settings, name, GAME, command=RANDOM).id for name in ("v1", "v2")]
    match_id = schedule_match(settings, GAME, ids, seed=1)  # type: ignore[arg-type]
    job = claim_match(settings, match_id, "test", 20.0)
    assert not isinstance(job, str)
    seats = [
        SimpleNamespace(faults=[Fault("startup", "no hello within 3.0s")], replaced=True, exit_code=None, stderr_tail=f"tail {i}")
        for i in range(2)
    ]
    report = SimpleNamespace(
        status="void", void_reason="every seat faulted before the first decision", ranks=[], scores=[],
        seats=seats, config={"game": GAME, "players": 2, "variants": {}}, replay_path=None, decisions=0, duration_seconds=3.0,
    )
    assert record_result(settings, job, report)
    row = queries.match(settings, match_id)
    assert row is not None and row.status == MatchStatus.VOID and row.rating_seq is None
    assert row.void_reason == "every seat faulted before the first decision"
    assert [seat.stderr_tail for seat in row.seats] == ["tail 0", "tail 1"]
    assert all(seat.rank is None and seat.rating_before is None and seat.faults for seat in row.seats)
    assert all(line.games == 0 and line.rating == INITIAL_RATING for line in queries.leaderboard(settings, GAME))
