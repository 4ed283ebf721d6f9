"""The `info` dict of a seat whose typed view is built only when read (most learners read only the vectors).

Building a view costs more than a whole engine decision in some games, and an environment step hands
out an info every time. A `SeatInfo` is a plain dict to its reader (`info["view"]`, `get`, `in`,
iteration, `{**info}`, pickling all build the view first; the AEC environment's decision and options
are made when read too). The function that makes the view belongs
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
    """`{**fields, "view": ...}` whose view is made by `make_view(*arguments)` when first read.

    `source` is `make_view` alone or `(make_view, *arguments)` (an environment hands out one info a step: a tuple
    costs less than a new function holding the arguments). An info may also leave other keys to be made when read
    (`lazy_info`: the AEC environment's decision and options): every key still to make is a key of the dict to
    its reader; whatever sees the whole dict makes them all first, in their order."""

    __slots__ = ("_lazy",)

    def __init__(self, source: Callable[[], Any] | ViewSource, **fields: Any) -> None:
        super().__init__(fields)
        make_view = source if type(source) is tuple else (source,)
        self._lazy: Lazy | None = (_VIEW_ONLY, _view_from, *make_view)

    def _make(self, key: Any) -> bool:  # noqa: ANN401 - any key a reader asks for
        """Make `key` now if it is still to be made (True then)."""
        lazy = self._lazy
        if lazy is None or key not in lazy[0]:
            return False
        value = lazy[1](key, *lazy[2:])
        self._forget(key)
        dict.__setitem__(self, key, value)
        return True

    def _forget(self, key: Any) -> None:  # noqa: ANN401
        """`key` is no longer to be made (it was made, set or dropped by hand)."""
        lazy = self._lazy
        if lazy is not None and key in lazy[0]:
            keys = tuple(k for k in lazy[0] if k != key)
            self._lazy = (keys, *lazy[1:]) if keys else None

    def _fill(self) -> None:
        """Make every key still to be made (once), in their order."""
        lazy = self._lazy
        while lazy is not None:
            self._make(lazy[0][0])
            lazy = self._lazy

    # reading one key: only that key is made
    def __missing__(self, key: Any) -> Any:  # noqa: ANN401
        if self._make(key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def get(self, key: Any, default: Any = None) -> Any:  # noqa: ANN401
        self._make(key)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        lazy = self._lazy
        return (lazy is not None and key in lazy[0]) or dict.__contains__(self, key)

    # setting or dropping a key by hand: the lazy one is forgotten
    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401
        self._forget(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:  # noqa: ANN401
        lazy = self._lazy
        if lazy is not None and key in lazy[0]:
            self._forget(key)
            return
        dict.__delitem__(self, key)

    # everything that sees the whole dict makes every key first
    def __iter__(self) -> Iterator[Any]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        lazy = self._lazy
        return dict.__len__(self) + (len(lazy[0]) if lazy is not None else 0)

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
        self._make(key)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        self._fill()
        return dict.popitem(self)

    def setdefault(self, key: Any, default: Any = None) -> Any:  # noqa: ANN401
        self._make(key)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **fields: Any) -> None:
        self._fill()
        dict.update(self, *args, **fields)

    def clear(self) -> None:
        self._lazy = None
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


#: what an info still has to make: (its keys still to make, make, *arguments), `make(key, *arguments)` making one
Lazy = tuple[Any, ...]
_VIEW_ONLY = ("view",)


def _view_from(key: str, make_view: Callable[..., Any], *arguments: Any) -> Any:  # noqa: ANN401
    """The view, from a view source `(make_view, *arguments)`."""
    return make_view(*arguments)


new_info: Callable[[type[SeatInfo]], SeatInfo] = dict.__new__  # type: ignore[assignment]


def lazy_info(lazy: Lazy) -> SeatInfo:
    """An info with nothing in it yet: each of `lazy[0]`'s keys is made by `lazy[1](key, *lazy[2:])` when read
    (without a Python-level `__init__`: an environment hands out one a step; `Table.mover_info` makes it the same way)."""
    info = new_info(SeatInfo)
    info._lazy = lazy
    return info
