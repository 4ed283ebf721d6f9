"""Merchants of B99: view vocabularies and caps, and the frozen action list (see docs/games/merchants.md)."""

from __future__ import annotations

from sdk.envs.encoding import EncodingSpec

TILES = tuple(f"{colour}{n:02d}" for colour in "RBY" for n in range(1, 25)) + ("G1", "G2", "G3", "G4")
DUNGEONS = ("dragon", "castle", "swamp")
AB_CARDS = tuple(f"{prefix}{n}" for prefix in ("DR", "CA", "SW") for n in range(1, 5)) + ("DR99", "CA99", "SW99")
KINDS = ("sword", "staff", "shield", "armor")
REPUTATION = tuple(f"REP{n:02d}" for n in range(1, 23))
PHASES = ("chance", "initial_rotation", "return_reputation", "choose_tile", "choose_target", "choose_rotation",
          "choose_dungeon", "over")
SOLO_RANKS = ("AAA", "AA", "A", "B", "C", "D")
SOLO_TITLES = ("Legendary Merchant", "Veteran Merchant", "Full-fledged Merchant", "Promising Merchant",
               "Fledgling Merchant", "Apprentice Merchant")
MAX_PLAYERS = 4
#: The shop grid is at most 4x4 around the first tile: rows and columns -3..3 relative to it.
SQUARES = tuple((row, col) for row in range(-3, 4) for col in range(-3, 4))

SPEC = EncodingSpec(
    vocab={
        "phase": PHASES,
        "layout[].dungeon": DUNGEONS,
        "layout[].a_card": AB_CARDS,
        "layout[].a_face": ("A", "B"),
        "layout[].b_card": AB_CARDS,
        "layout[].b_face": ("A", "B"),
        "layout[].c_card": tuple(f"C{n}" for n in range(1, 7)),
        "layout[].c_kind": KINDS,
        "d_card": tuple(f"D{n}" for n in range(1, 7)),
        "d_kind": KINDS,
        "seats[].shop[].tile": TILES,
        "seats[].discards[]": TILES,
        "seats[].unused_chips[]": DUNGEONS,
        "seats[].chips[].dungeon": DUNGEONS,
        "seats[].final.reputation[].card": REPUTATION,
        "seats[].final.solo_rank": SOLO_RANKS,
        "seats[].final.solo_title": SOLO_TITLES,
        "solo_removed[]": TILES,
        "pass_direction": ("left", "right"),
        "hand[]": TILES,
        "reputation_hand[]": REPUTATION,
        "returned_reputation[]": REPUTATION,
        "pending_tile": TILES,
        "pending_target.mode": ("place", "replace"),
    },
    indexed=frozenset({"seats[].shop[].tile"}),
    caps={
        "layout": 3, "seats": MAX_PLAYERS, "seats[].shop": 16, "seats[].chips": 3, "seats[].final.reputation": 4,
    },
)

ACTIONS: tuple[str, ...] = (
    tuple(f"rotation:{angle}" for angle in (0, 90, 180, 270))
    + tuple(f"return:{card}" for card in REPUTATION)
    + tuple(f"tile:{tile}" for tile in TILES)
    + tuple(f"place:{row},{col}" for row, col in SQUARES)
    + tuple(f"replace:{row},{col}" for row, col in SQUARES)
    + tuple(f"dungeon:{dungeon}" for dungeon in DUNGEONS)
)
