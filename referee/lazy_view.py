"""Views whose fields are computed when first read, for playout policies that read a few fields of many views.

A game lists its view's fields as small functions of the state (`build_view` calls them all); a
`LazyView` subclass names the same tables, so the two are equal by construction. The state must
not change while a lazy view of it is in use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

#: What a field function returns for a field the view leaves out in this state.
ABSENT: Any = object()


class LazyFields(dict):  # type: ignore[type-arg]
    """A view part whose fields are computed when first read, by `[]`, `get` or `in` (iteration, `len` and
    comparison see only fields already read). `__missing__` computes one, raising KeyError for one left out."""

    __slots__ = ()

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        value = dict.get(self, name, ABSENT)
        if value is ABSENT:
            try:
                value = self.__missing__(name)
            except KeyError:
                return default
        return value

    def __contains__(self, name: object) -> bool:
        return self.get(name, ABSENT) is not ABSENT  # type: ignore[arg-type]

    def _store(self, name: str, value: Any) -> Any:
        if value is ABSENT:
            raise KeyError(name)
        self[name] = value
        return value


class LazyPart(LazyFields):
    """One part of a view (a seat's board, a depth...): `fields` maps each name to a function of (state, key)."""

    __slots__ = ("state", "key", "fields")

    def __init__(self, state: Any, key: int, fields: Mapping[str, Callable[[Any, int], Any]]) -> None:
        super().__init__()
        self.state = state
        self.key = key
        self.fields = fields

    def __missing__(self, name: str) -> Any:
        field = self.fields.get(name)
        return self._store(name, ABSENT if field is None else field(self.state, self.key))


class LazyView(LazyFields):
    """A seat's (or, with seat None, a spectator's) view: a subclass names its game's `fields` (functions of
    the state) and `parts` (functions of the state that make the lazy parts, or lists of them, of a field)."""

    fields: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    parts: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    __slots__ = ("state",)

    def __init__(self, state: Any, seat: int | None) -> None:
        super().__init__()
        self.state = state
        if seat is not None:
            self["seat"] = seat

    def __missing__(self, name: str) -> Any:
        make = self.parts.get(name) or self.fields.get(name)
        return self._store(name, ABSENT if make is None else make(self.state))
