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
from collections.abc import Mapping, Sequence

from referee.engine import ChanceOutcome

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


def sample_outcome(outcomes: Sequence[ChanceOutcome], rng: random.Random) -> ChanceOutcome:
    """Pick one outcome with its probability; deterministic for a given RNG state and outcome order."""
    point = rng.random()
    running = 0.0
    for outcome in outcomes:
        running += outcome.probability
        if point < running:
            return outcome
    return outcomes[-1]


def fresh_seed() -> int:
    """A secret seed from the operating system's CSPRNG (never from a Mersenne Twister whose state leaks)."""
    return secrets.randbits(SEED_BITS)


def seed_commitment(seed: int, match_id: str) -> str:
    """The hash published at a match's start: binds the match to its seed without revealing it.

    The match id salts it, so one seed used in two matches gives two unrelated commitments.
    """
    return hashlib.sha256(f"b99-seed-commitment/1:{match_id}:{seed}".encode()).hexdigest()


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
