"""Checks the games' position rules share: every component in exactly one place, values in range, seats that exist."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping

from referee.position import PositionError


def each_once(
    what: str,
    places: Mapping[str, Iterable[Hashable]],
    components: Iterable[Hashable],
    name: Callable[[Hashable], str] = repr,
    *,
    every: bool = True,
) -> None:
    """PositionError unless every component (with its copies) is in exactly one of the places, and nothing else is.

    `places` maps a place's name (as the position names it: "deck", "hands[1]") to what it holds; `components`
    lists every component the game has in play (an id once per copy), from the game's data file; `name` says
    a known component in messages. With `every` False, components may also be out of play (at most once each).
    """
    wanted = Counter(list(components))  # a mapping counts its keys once each
    found: Counter[Hashable] = Counter()
    first_place: dict[Hashable, str] = {}
    for place, items in places.items():
        for item in items:
            try:
                known = item in wanted
            except TypeError:  # an unhashable value (a list where an id belongs) is no component
                known = False
            if not known:
                raise PositionError(f"position: {place} holds {what} {item!r}, which the game does not have")
            found[item] += 1
            if found[item] > wanted[item]:
                copies = "" if wanted[item] == 1 else f" (the game has {wanted[item]})"
                where = f"twice in {place}" if first_place[item] == place else f"in two places: {first_place[item]} and {place}"
                raise PositionError(f"position: {what} {name(item)} is {where}{copies}")
            first_place.setdefault(item, place)
    placed, total = sum(found.values()), sum(wanted.values())
    if every and placed != total:
        lost = sorted((wanted - found).elements(), key=repr)
        raise PositionError(f"position: {placed} {what}s in play, but the game has {total} ({what} {name(lost[0])} is nowhere)")


def in_range(name: str, value: object, low: int, high: int) -> None:
    """PositionError unless `value` is a whole number from `low` to `high`."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"position: {name} must be from {low} to {high}, not {value!r}")


def seat(name: str, value: object, players: int, *, none: bool = False, extra: tuple[int, ...] = ()) -> None:
    """PositionError unless `value` is a seat of the game (or None when `none`, or one of `extra`)."""
    if value is None and none:
        return
    if value in extra and not isinstance(value, bool):
        return
    in_range(name, value, 0, players - 1)


def one_of(name: str, value: object, allowed: Iterable[object]) -> None:
    """PositionError unless `value` is one of `allowed`."""
    choices = tuple(allowed)
    if value not in choices:
        raise PositionError(f"position: {name} {value!r} is not one of {', '.join(map(str, choices))}")


def seats_long(name: str, value: object, players: int) -> None:
    """PositionError unless `value` is a list with one entry per seat."""
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise PositionError(f"position: {name} must list {players} seats, not {value!r}"[:160])
