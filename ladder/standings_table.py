"""The tournament's standings as a rich table that fits the terminal without cutting a bot's name or a number."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

#: Each column takes its width plus a space either side and a rule; the table adds one closing rule.
COLUMN_EXTRA = 3
#: The name column's width when even folded headers leave it less (the table is then cropped).
NAME_FLOOR = 6


def fit_widths(headers: Sequence[str], rows: Sequence[Sequence[str]], name_column: int, width: int) -> list[int]:
    """Column widths that fit `width`: cells always whole; headers give way first (wrapped at spaces, then
    folded in half), those that save the most first; the name column gives way last, and then it wraps
    onto more lines rather than being cut."""
    cells = [max([1, *(len(row[index]) for row in rows)]) for index in range(len(headers))]
    widths = [max(cell, len(header)) for cell, header in zip(cells, headers)]
    word_floors = [max(cell, *(len(word) for word in header.split())) for cell, header in zip(cells, headers)]
    fold_floors = [max(cell, -(-len(header) // 2)) for cell, header in zip(cells, headers)]
    others = [index for index in range(len(headers)) if index != name_column]
    for floors in (word_floors, fold_floors):
        for index in sorted(others, key=lambda i: widths[i] - floors[i], reverse=True):
            if sum(widths) + COLUMN_EXTRA * len(widths) + 1 <= width:
                return widths
            widths[index] = min(widths[index], floors[index])
    room = width - 1 - sum(COLUMN_EXTRA + widths[index] for index in others) - COLUMN_EXTRA
    widths[name_column] = max(NAME_FLOOR, min(widths[name_column], room))
    return widths


def standings_table(title: str, caption: str, headers: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]],
                    name_column: int, width: int) -> Table:
    """The standings with column widths from `fit_widths` (`headers` are (text, justify) pairs)."""
    widths = fit_widths([text for text, _ in headers], rows, name_column, width)
    longest_name = max([1, *(len(row[name_column]) for row in rows)])
    table = Table(title=title, caption=caption)
    for index, ((text, justify), column_width) in enumerate(zip(headers, widths)):
        header = Text(text, no_wrap=False, overflow="fold")
        # A name wider than its column wraps (folds) onto more lines: never an ellipsis.
        whole = index != name_column or longest_name <= column_width
        table.add_column(header, justify=justify, width=column_width, no_wrap=whole,  # type: ignore[arg-type]
                         overflow="ellipsis" if whole else "fold")
    for row in rows:
        table.add_row(*row)
    return table
