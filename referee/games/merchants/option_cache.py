"""`MadeOnUse`: options made the first time they are offered and shared after that.

Kept apart from options.py, which a build compiles (referee/compiled.py): a compiled class cannot
subclass a built-in container with `__missing__`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from referee.engine import Option

Key = TypeVar("Key")


class MadeOnUse(dict[Key, Option]):
    """Options made on first use by `make` and shared after that."""

    def __init__(self, make: Callable[[Key], Option]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Key) -> Option:
        option = self[key] = self.make(key)
        return option
