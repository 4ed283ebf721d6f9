"""Shared option lists: an `Offer` finds an option by its id, `MadeOnUse` makes each option once.

Kept apart from options.py, which a build may compile: these two subclass built-in containers, which
compiled classes cannot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from referee.engine import Option

Key = TypeVar("Key")


class Offer(tuple[Option, ...]):
    """Options in their order that also find one by its id: for the option lists offered again and again
    (rotations, a shop's targets), made once and shared, so checking an answer is one look-up, not a walk."""

    by_id: dict[str, Option]

    def __new__(cls, options: Iterable[Option]) -> Offer:
        offer = super().__new__(cls, options)
        offer.by_id = {option.id: option for option in offer}
        return offer


class MadeOnUse(dict[Key, Option]):
    """Options made on first use by `make` and shared after that."""

    def __init__(self, make: Callable[[Key], Option]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Key) -> Option:
        option = self[key] = self.make(key)
        return option
