"""Helpers for chance nodes: lazily dealt decks and bags, sampling an outcome, and the referee's keyed generator.

The referee draws every chance outcome from `KeyedRandom(seed, "chance")`: the i-th number is
HMAC-SHA256(key = the seed, message = stream name and i), so nobody who lacks the seed can predict
the next outcome from the ones already seen, and the same seed still replays the same game. The seed
stays secret until the match is over; `seed_commitment` is published at the start instead.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from typing import overload

from referee.engine import ChanceOutcome
from sdk.commitment import seed_commitment  # noqa: F401 - the referee publishes it, the SDK checks it

#: Names the derivation, so a replay says how its chance outcomes were drawn.
CHANCE_SCHEME = "hmac-sha256/1"
#: Fresh secret seeds have this many bits (the ladder stores a seed in a signed 64-bit column).
SEED_BITS = 63
_DOUBLE_BITS = 53


def draw_outcomes(remaining: Mapping[str, int]) -> list[ChanceOutcome]:
    """Outcomes of drawing one item from what remains: each distinct id, probability count/total, sorted by id."""
    total = sum(remaining.values())
    return [
        ChanceOutcome(item_id, count / total)
        for item_id, count in sorted(remaining.items())
        if count > 0
    ]


def uniform_outcomes(ids: Sequence[str]) -> list[ChanceOutcome]:
    """Equally likely outcomes, in the given order."""
    share = 1.0 / len(ids)
    return [ChanceOutcome(outcome_id, share) for outcome_id in ids]


class _Draws(dict[str, ChanceOutcome]):
    """The outcome of drawing each item from `total` equally likely ones, made once per item.

    `running` holds the sums `sample_outcome` adds up walking such outcomes (the same float additions in
    the same order), so it finds the drawn one by halves with the very same result."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.probability = probability = 1.0 / total
        running = 0.0
        sums = []
        for _ in range(total):
            running += probability
            sums.append(running)
        self.running = sums

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
    """The equally likely outcomes of drawing one of `items`, in their order (`items` must not change after).

    For an engine's frequent draws from many items (a deck, a supply): the outcomes are made once per
    (item, count of items) and listed lazily, only as far as a reader goes, and `sample_outcome` finds
    the drawn one by halves instead of walking them.
    """

    __slots__ = ("items", "_table")

    def __init__(self, items: Sequence[str]) -> None:
        #: the item of each outcome, in order
        self.items = items
        self._table = _DRAWS[len(items)]

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> ChanceOutcome: ...

    @overload
    def __getitem__(self, index: slice) -> list[ChanceOutcome]: ...

    def __getitem__(self, index: int | slice) -> ChanceOutcome | list[ChanceOutcome]:
        if isinstance(index, slice):
            return list(map(self._table.__getitem__, self.items[index]))
        return self._table[self.items[index]]

    def __iter__(self) -> Iterator[ChanceOutcome]:
        return map(self._table.__getitem__, self.items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UniformDraws):
            return list(self.items) == list(other.items)
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to lists of the same outcomes, which do not hash

    def __repr__(self) -> str:
        return f"UniformDraws({list(self.items)!r})"


def sample_outcome(outcomes: Sequence[ChanceOutcome], rng: random.Random) -> ChanceOutcome:
    """Pick one outcome with its probability; deterministic for a given RNG state and outcome order."""
    point = rng.random()
    if type(outcomes) is UniformDraws:  # the same pick found by halves in the sums the walk below adds up
        items, table = outcomes.items, outcomes._table  # noqa: SLF001 - this module's own class
        index = bisect_right(table.running, point)
        return table[items[index] if index < len(items) else items[-1]]
    running = 0.0
    for outcome in outcomes:
        running += outcome.probability
        if point < running:
            return outcome
    return outcomes[-1]


def fresh_seed() -> int:
    """A secret seed from the operating system's CSPRNG (never from a Mersenne Twister whose state leaks)."""
    return secrets.randbits(SEED_BITS)


def attempt_seed(seed: int, attempt: int) -> int:
    """The seed of a match's n-th attempt: the match's own seed for the first, an unrelated secret one after.

    A bot that saw part of a failed attempt (and remembers it) must not know the chance of the next one.
    """
    if attempt <= 1:
        return seed
    digest = hmac.new(f"b99-chance/1:{seed}".encode(), f"attempt:{attempt}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


class KeyedRandom(random.Random):
    """A `random.Random` whose numbers come from HMAC-SHA256 keyed by a secret seed (one named stream per use).

    Numbers already drawn say nothing about the next ones without the key (unlike the Mersenne
    Twister, whose state 624 outputs reveal). All of `random.Random`'s methods work on top of it.
    """

    def __init__(self, seed: int, stream: str) -> None:
        self._key = f"b99-chance/1:{seed}".encode()
        self._stream = stream.encode()
        self._counter = 0
        super().__init__(0)

    def seed(self, *_: object, **__: object) -> None:  # noqa: D102 - random.Random calls it from __init__; the key is fixed
        return None

    def _block(self) -> bytes:
        message = self._stream + b":" + self._counter.to_bytes(8, "big")
        self._counter += 1
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def random(self) -> float:
        """The next number in [0, 1): 53 bits of the next HMAC block."""
        return (int.from_bytes(self._block()[:8], "big") >> (64 - _DOUBLE_BITS)) / (1 << _DOUBLE_BITS)

    def getrandbits(self, k: int) -> int:
        """k bits from as many HMAC blocks as they need."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        data = b""
        while len(data) * 8 < k:
            data += self._block()
        return int.from_bytes(data, "big") >> (len(data) * 8 - k) if k else 0

    def getstate(self) -> tuple[object, ...]:
        return (self._key, self._stream, self._counter)

    def setstate(self, state: tuple[object, ...]) -> None:  # type: ignore[override]
        key, stream, counter = state
        self._key, self._stream, self._counter = bytes(key), bytes(stream), int(counter)  # type: ignore[call-overload]

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore_keyed, self.getstate())


def _restore_keyed(key: bytes, stream: bytes, counter: int) -> KeyedRandom:
    """Rebuild a KeyedRandom at the same point of its stream (for copy and pickle)."""
    generator = KeyedRandom.__new__(KeyedRandom)
    random.Random.__init__(generator, 0)
    generator.setstate((key, stream, counter))
    return generator
