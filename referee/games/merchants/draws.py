"""Chance outcomes of Merchants of B99's draws: one item drawn from several equally likely ones.

Drawing from the supply is the game's most frequent step (about two draws a decision, from up to
68 tiles). Its outcomes are made once per (item, count of items) and listed lazily: `UniformDraws`
reads the remaining items only as far as its reader goes (a sampler stops at the drawn item),
instead of building a list of every remaining tile at each draw.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from referee.engine import ChanceOutcome


class _Draws(dict[str, ChanceOutcome]):
    """The outcome of drawing each item from `total` equally likely ones, made once per item."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.probability = 1.0 / total

    def __missing__(self, item: str) -> ChanceOutcome:
        outcome = self[item] = ChanceOutcome(item, self.probability)
        return outcome


class _Tables(dict[int, _Draws]):
    """The outcome table of each count of items, made on first use."""

    def __missing__(self, total: int) -> _Draws:
        table = self[total] = _Draws(total)
        return table


_DRAWS = _Tables()


class UniformDraws(Sequence[ChanceOutcome]):
    """The equally likely outcomes of drawing one of `items`, in their order (`items` must not change after)."""

    __slots__ = ("_items", "_table")

    def __init__(self, items: Sequence[str]) -> None:
        self._items = items
        self._table = _DRAWS[len(items)]

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> ChanceOutcome: ...

    @overload
    def __getitem__(self, index: slice) -> list[ChanceOutcome]: ...

    def __getitem__(self, index: int | slice) -> ChanceOutcome | list[ChanceOutcome]:
        if isinstance(index, slice):
            return list(map(self._table.__getitem__, self._items[index]))
        return self._table[self._items[index]]

    def __iter__(self) -> Iterator[ChanceOutcome]:
        return map(self._table.__getitem__, self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UniformDraws):
            return list(self._items) == list(other._items)
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to lists of the same outcomes, which do not hash

    def __repr__(self) -> str:
        return f"UniformDraws({list(self._items)!r})"
