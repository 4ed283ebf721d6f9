"""The Magnificent's view pieces (`view_parts`) include the master card draft's own part of a seat: the draft variant
reaches it, and tests/test_view_parts.py's checks (pieces = the dict view, requests = those from the joined view) hold
there as in every test variant."""

from __future__ import annotations

from referee.engine import GameState
from tests.test_view_parts import check_view_pieces


def test_the_draft_s_own_part_is_written_from_pieces() -> None:
    drafted: list[bool] = []

    def seen(state: GameState) -> None:
        drafted.append(bool(getattr(state, "draft", None)))

    check_view_pieces("magnificent", {"draft_master_cards": True}, seen, decisions_per_game=120)
    assert any(drafted)
