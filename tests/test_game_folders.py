"""Every game folder reads the same way: the same files with the same roles, views importing the state and never
the reverse, no state assembled from mixins."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.registry import game_ids

GAMES = Path(__file__).resolve().parent.parent / "referee" / "games"
FILES = ("__init__.py", "game.py", "state.py", "options.py", "views.py", "position.py", "scoring.py", "data.py", "drawing.py", "wire.py")


def _imports(path: Path) -> set[str]:
    """Every module a file imports, wherever the import sits (a lazy import inside a function counts)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_folder_has_the_same_files(game_id: str) -> None:
    folder = GAMES / game_id
    assert [name for name in FILES if not (folder / name).is_file()] == []
    assert (folder / f"{game_id}.json").is_file()


@pytest.mark.parametrize("game_id", game_ids())
def test_views_import_the_state_and_never_the_reverse(game_id: str) -> None:
    views = f"referee.games.{game_id}.views"
    for path in (GAMES / game_id).glob("*.py"):
        # wire.py writes a seat's View from the state with the secrecy rules views.py states (docs/decisions.md)
        if path.name in ("views.py", "game.py", "__init__.py", "drawing.py", "wire.py"):
            continue
        assert views not in _imports(path), f"{path.name} imports {views}"


@pytest.mark.parametrize("game_id", game_ids())
def test_no_state_is_built_from_mixins(game_id: str) -> None:
    for path in (GAMES / game_id).glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
        assert not [c.name for c in classes if c.name.endswith("Mixin")], path.name
        for node in classes:
            if node.name.endswith("State"):
                assert len(node.bases) <= 1, f"{path.name}: {node.name} has bases {[ast.unparse(b) for b in node.bases]}"
