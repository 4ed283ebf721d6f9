"""DEEP DIVE scoring: rows across the three food columns, and the solo AI's scoring per difficulty."""

from __future__ import annotations

from collections.abc import Sequence

Columns = Sequence[Sequence[int]]  # food values per colour column, in acquisition order

AI_ROCK_POINTS = {"easy": 1, "medium": 3, "hard": 5}
AI_OPEN_WATER_POINTS = {"easy": 0, "medium": 0, "hard": 3}


def complete_rows(columns: Columns) -> int:
    """Rows holding one tile of each colour: the shortest column's length."""
    return min(len(column) for column in columns)


def row_score(columns: Columns) -> int:
    """Sum over rows: a complete row scores its sum, an incomplete row floor(sum / 2)."""
    complete = min(len(column) for column in columns)
    total = sum(sum(column[:complete]) for column in columns)
    for row in range(complete, max(len(column) for column in columns)):
        total += sum(column[row] for column in columns if len(column) > row) // 2
    return total


def ai_score(columns: Columns, rocks: int, open_water: int, difficulty: str) -> int:
    """The solo AI's score: rows (easy, medium) or every food at full value (hard), plus rock/open-water points."""
    food = sum(sum(column) for column in columns) if difficulty == "hard" else row_score(columns)
    return food + rocks * AI_ROCK_POINTS[difficulty] + open_water * AI_OPEN_WATER_POINTS[difficulty]
