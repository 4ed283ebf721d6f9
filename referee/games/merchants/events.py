"""Merchants of B99's event log: the events of every pick kept as their parts, each Event built when first read.

A game writes about 240 events and a search's playouts read none of them: storing a pick's
`placed`, `hand_passed` and `hand_tiles` as a tuple (builder, arguments) and making the Event
only when someone reads the log saves most of their cost. Readers see the same events, in the
same order, with the same data and audiences, as if each had been built at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from referee.engine import Event, EventLog

#: an event not built yet: (builder, its arguments...)
Deferred = tuple[Any, ...]


class DeferredEventLog(EventLog):
    """An EventLog that also holds deferred events (`defer`) and builds them, once each, when read."""

    __slots__ = ("_built",)

    def __init__(self, items: list[Any] | None = None) -> None:
        super().__init__(items)
        #: every entry before this index is an Event already
        self._built = 0

    def defer(self, build: Callable[..., Event], *arguments: Any) -> None:  # noqa: ANN401 - the builder's own
        """Append the event `build(*arguments)` will make (arguments must not change afterwards)."""
        self.entries().append((build, *arguments))

    def entries(self) -> list[Any]:
        """This log's own list, to append Events or deferred ones, (builder, arguments...), to in a loop."""
        if not self._owned:
            self._items = list(self._items)
            self._owned = True
        return self._items

    def _build(self) -> list[Event]:
        """The entries with every deferred event built (in place: a log sharing them sees the same Events)."""
        items = self._items
        for index in range(self._built, len(items)):
            item = items[index]
            if type(item) is tuple:
                items[index] = item[0](*item[1:])
        self._built = len(items)
        return items

    def copy(self) -> DeferredEventLog:
        twin = DeferredEventLog(self._items)
        twin._owned = False
        twin._built = self._built
        self._owned = False
        return twin

    def __getitem__(self, index: int) -> Event:
        return self._build()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._build())

    def since(self, start: int) -> list[Event]:
        return self._build()[start:]
