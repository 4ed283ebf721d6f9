"""Rolling several interchangeable dice of one colour as one chance node over the sorted results."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from referee.engine import ChanceOutcome


@cache
def roll_outcomes(colour: str, count: int) -> list[ChanceOutcome]:
    """Every multiset of `count` six-sided results, id 'O:1,3,3', with its multinomial probability."""
    outcomes = []
    total = 6**count
    for values in combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for value in set(values):
            ways //= factorial(values.count(value))
        outcomes.append(ChanceOutcome(f"{colour}:{','.join(map(str, values))}", ways / total))
    return outcomes
