"""The `info` dict of a seat whose typed view is built only when read (most learners read only the vectors).

Building a view costs more than a whole engine decision in some games, and an environment step hands
out an info every time. A `SeatInfo` is a plain dict to its reader (`info["view"]`, `get`, `in`,
iteration, `{**info}`, pickling all build the view first). The function that makes the view belongs
to the position the info was made at (`Table.info` replays the game to it if it has moved on since).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from referee.errors import ArenaError


class StaleViewError(ArenaError):
    """An info's view was first read after its game had moved on in a way that cannot be replayed."""


#: what makes an info's view: a function and its arguments, `(make_view, *arguments)`
ViewSource = tuple[Any, ...]


class SeatInfo(dict):  # type: ignore[type-arg]
    """`{"view": ..., **fields}` whose view is made by `make_view(*arguments)` when first read.

    `source` is `make_view` alone or `(make_view, *arguments)` (an environment hands out one info a step: a tuple
    costs less than a new function holding the arguments)."""

    __slots__ = ("_make_view",)

    def __init__(self, source: Callable[[], Any] | ViewSource, **fields: Any) -> None:
        super().__init__(fields)
        self._make_view: ViewSource | None = source if type(source) is tuple else (source,)

    def _fill(self) -> None:
        """Build the view now (once)."""
        source = self._make_view
        if source is None:
            return
        dict.__setitem__(self, "view", source[0](*source[1:]))
        self._make_view = None

    # reading one key: only "view" needs building
    def __missing__(self, key: Any) -> Any:  # noqa: ANN401
        if key == "view" and self._make_view is not None:
            self._fill()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def get(self, key: Any, default: Any = None) -> Any:  # noqa: ANN401
        if key == "view":
            self._fill()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        return (key == "view" and self._make_view is not None) or dict.__contains__(self, key)

    # setting or dropping the view by hand: the lazy one is forgotten
    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401
        if key == "view":
            self._make_view = None
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:  # noqa: ANN401
        if key == "view" and self._make_view is not None:
            self._make_view = None
            return
        dict.__delitem__(self, key)

    # everything that sees the whole dict builds the view first
    def __iter__(self) -> Iterator[Any]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        return dict.__len__(self) + (self._make_view is not None)

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> Any:  # noqa: ANN401
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:  # noqa: ANN401
        self._fill()
        return dict.values(self)

    def items(self) -> Any:  # noqa: ANN401
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self._fill()
        return dict(dict.items(self))

    def pop(self, key: Any, *default: Any) -> Any:  # noqa: ANN401
        if key == "view":
            self._fill()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        self._fill()
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:  # noqa: ANN401
        if key == "view":
            self._fill()
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **fields: Any) -> None:
        self._fill()
        dict.update(self, *args, **fields)

    def clear(self) -> None:
        self._make_view = None
        dict.clear(self)

    def __or__(self, other: Any) -> dict[str, Any]:  # noqa: ANN401
        return {**self.copy(), **other}

    def __ror__(self, other: Any) -> dict[str, Any]:  # noqa: ANN401
        return {**other, **self.copy()}

    def __ior__(self, other: Any) -> SeatInfo:  # noqa: ANN401
        self.update(other)
        return self

    def __copy__(self) -> dict[str, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        import copy

        return copy.deepcopy(self.copy(), memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self.copy(),))


_new_dict = dict.__new__
_init_dict = dict.__init__


def lazy_info(source: ViewSource, decision: str | None, options: list[Any]) -> SeatInfo:
    """`SeatInfo(source, decision=decision, options=options)` without a Python-level `__init__` (one per step)."""
    info: SeatInfo = _new_dict(SeatInfo)
    _init_dict(info, decision=decision, options=options)
    info._make_view = source
    return info
