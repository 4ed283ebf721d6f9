"""Change counts of the rows the scheduler keeps in memory (ladder.models.ChangeCounter): read them, or move one."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ladder.models import ChangeCounter

#: Moved by the database's triggers on every change of a bot.
BOTS = "bots"
#: Moved by whatever rewrites ratings other than a match's result (a recompute).
RATINGS = "ratings"


def count_change(connection: Any, name: str) -> None:
    """Move the count `name` by one, in the caller's transaction (a Connection or a Session)."""
    table = ChangeCounter.__table__  # type: ignore[attr-defined]
    dialect = connection.get_bind().dialect if hasattr(connection, "get_bind") else connection.dialect
    if dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    statement = insert(table).values(name=name, value=1)
    connection.execute(statement.on_conflict_do_update(index_elements=["name"], set_={"value": table.c.value + 1}))


def change_counts(connection: Any) -> dict[str, int]:
    """Every count (a Connection or a Session); a count never moved is absent."""
    return {str(name): int(value) for name, value in connection.execute(_COUNTS).all()}


_COUNTS = select(ChangeCounter.__table__.c.name, ChangeCounter.__table__.c.value)  # type: ignore[attr-defined]
