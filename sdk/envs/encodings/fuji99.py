"""Fuji 99: view vocabularies and caps, and the frozen action list (see docs/games/fuji99.md)."""

from __future__ import annotations

from sdk.envs.encoding import EncodingSpec

#: Card types with how many copies the deck holds; a card id is `<type>-<n>`.
CARD_TYPES = (
    ("amulet", 2), ("buried_treasure", 2), ("crystal_vein", 2), ("echo", 2), ("great_pit", 1),
    ("hot_spring", 1), ("ill_omen", 3), ("lantern", 2), ("long_rope_ladder", 1), ("lucky_charm", 2),
    ("rope_ladder", 1), ("spring_water", 1), ("tunnel", 2),
)
CARDS = tuple(f"{kind}-{n}" for kind, copies in CARD_TYPES for n in range(1, copies + 1))
PHASES = ("draw_count", "cubes", "use_cards", "cards", "continue_or_stop", "place_cube", "over")
MAX_PLAYERS = 4
MAX_DRAW = 40

SPEC = EncodingSpec(
    vocab={
        "phase": PHASES,
        "seats[].hand[].card": CARDS,
        "seats[].hand[].type": tuple(kind for kind, _ in CARD_TYPES),
        "seats[].omens[].card": tuple(card for card in CARDS if card.startswith("ill_omen")),
        "discard[]": CARDS,
        "resolving_echoes[]": CARDS,
        "placed_this_stop[].card": CARDS,
    },
    caps={"seats": MAX_PLAYERS, "seats[].hand": 10, "seats[].omens": 3, "placed_this_stop": 8},
)

ACTIONS: tuple[str, ...] = (
    tuple(f"draw:{n}" for n in range(1, MAX_DRAW + 1))
    + ("continue", "stop", "end_use")
    + tuple(f"use:{card}" for card in CARDS)
    + tuple(f"place:{card}" for card in CARDS)
)
