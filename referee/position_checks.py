"""Checks the games' position rules share: every component in exactly one place, values in range, seats that exist.

Each check reports a `Problem` (the field, the rule, what is wrong) and returns False, so a game's checks go on
and every problem of a position is reported at once (`collecting`); outside `collecting` a problem raises
ImpossiblePositionError at once. A check that later checks depend on (a list's length) returns whether it held.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from referee.position import ImpossiblePositionError, Problem

_problems: ContextVar[list[Problem] | None] = ContextVar("position_problems", default=None)


@contextmanager
def collecting() -> Iterator[list[Problem]]:
    """Problems reported inside the block are gathered in the list yielded, not raised."""
    found: list[Problem] = []
    token = _problems.set(found)
    try:
        yield found
    finally:
        _problems.reset(token)


def report(field: str, rule: str, message: str) -> bool:
    """Record that `field` breaks `rule` (message says how, without a 'position:' prefix); always False."""
    problem = Problem(field, rule, message)
    found = _problems.get()
    if found is None:
        raise ImpossiblePositionError(problems=(problem,))
    found.append(problem)
    return False


def require(held: bool, field: str, rule: str, message: str) -> bool:
    """Report unless `held`; returns `held`."""
    return held or report(field, rule, message)


def each_once(
    what: str,
    places: Mapping[str, Iterable[Hashable]],
    components: Iterable[Hashable],
    name: Callable[[Hashable], str] = repr,
    *,
    every: bool = True,
) -> bool:
    """Every component (with its copies) is in exactly one of the places, and nothing else is.

    `places` maps a place's name (as the position names it: "deck", "hands[1]") to what it holds; `components`
    lists every component the game has in play (an id once per copy), from the game's data file; `name` says
    a known component in messages. With `every` False, components may also be out of play (at most once each).
    """
    wanted = Counter(list(components))  # a mapping counts its keys once each
    found: Counter[Hashable] = Counter()
    first_place: dict[Hashable, str] = {}
    held = True
    for place, items in places.items():
        for item in items:
            try:
                known = item in wanted
            except TypeError:  # an unhashable value (a list where an id belongs) is no component
                known = False
            if not known:
                held = report(place, f"known {what}", f"{place} holds {what} {item!r}, which the game does not have")
                continue
            found[item] += 1
            if found[item] > wanted[item]:
                copies = "" if wanted[item] == 1 else f" (the game has {wanted[item]})"
                where = f"twice in {place}" if first_place[item] == place else f"in two places: {first_place[item]} and {place}"
                held = report(place, f"{what} in one place", f"{what} {name(item)} is {where}{copies}")
            first_place.setdefault(item, place)
    placed, total = sum(found.values()), sum(wanted.values())
    lost = sorted((wanted - found).elements(), key=repr)
    if every and lost:
        held = report(
            ", ".join(places) or what, f"every {what} somewhere", f"{placed} {what}s in play, but the game has {total} ({what} {name(lost[0])} is nowhere)"
        )
    return held


def in_range(name: str, value: object, low: int, high: int) -> bool:
    """`value` is a whole number from `low` to `high`."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        return report(name, f"from {low} to {high}", f"{name} must be from {low} to {high}, not {value!r}")
    return True


def seat(name: str, value: object, players: int, *, none: bool = False, extra: tuple[int, ...] = ()) -> bool:
    """`value` is a seat of the game (or None when `none`, or one of `extra`)."""
    if value is None and none:
        return True
    if value in extra and not isinstance(value, bool):
        return True
    return in_range(name, value, 0, players - 1)


def one_of(name: str, value: object, allowed: Iterable[object]) -> bool:
    """`value` is one of `allowed`."""
    choices = tuple(allowed)
    if value not in choices:
        return report(name, "one of " + ", ".join(map(str, choices)), f"{name} {value!r} is not one of {', '.join(map(str, choices))}")
    return True


def seats_long(name: str, value: object, players: int) -> bool:
    """`value` is a list with one entry per seat (or per whatever `players` counts)."""
    if not isinstance(value, (list, tuple)) or len(value) != players:
        return report(name.split(" ")[0], f"{players} long", f"{name} must list {players} seats, not {value!r}"[:160])
    return True


def at_most(name: str, value: object, limit: int, rule: str) -> bool:
    """A count (0 or more) within the game's `limit` (`rule` says which: 'at most 3 gems per colour')."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return report(name, "a count", f"{name} must be a count (0 or more), not {value!r}")
    return require(value <= limit, name, rule, f"{name} is {value}, but {rule}")
