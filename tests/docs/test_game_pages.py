"""docs/games/<id>.md exist for every game, are up to date with the data files, and give every component id a row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.registry import game_ids
from sdk.gamepages import page

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id", game_ids())
def test_the_game_page_is_written_and_fresh(game_id: str) -> None:
    written = ROOT / "docs" / "games" / f"{game_id}.md"
    assert written.is_file(), f"run: python -m sdk.gamepages --write docs/games"
    assert written.read_text(encoding="utf-8") == page(game_id), "stale: python -m sdk.gamepages --write docs/games"


@pytest.mark.parametrize("component", ["B03", "DR3", "REP21"])
def test_the_ids_a_bot_meets_have_a_documented_meaning(component: str) -> None:
    assert f"| {component} |" in page("merchants")


def test_data_files_name_the_repository_pages_as_their_spec() -> None:
    for game_id in game_ids():
        data = json.loads((ROOT / "referee" / "games" / game_id / f"{game_id}.json").read_text(encoding="utf-8"))
        if "spec" in data:
            assert data["spec"] == f"docs/games/{game_id}.md" and (ROOT / data["spec"]).is_file()
