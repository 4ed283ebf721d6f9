"""DEEP DIVE: view vocabularies and caps, and the frozen action list (see docs/games/deep_dive.md)."""

from __future__ import annotations

from sdk.envs.encoding import EncodingSpec

#: Tiles per depth; a tile id is `D<depth>-<nn>`.
TILES_PER_DEPTH = (44, 36, 30, 26, 24)
TILES = tuple(f"D{depth}-{n:02d}" for depth, count in enumerate(TILES_PER_DEPTH, 1) for n in range(1, count + 1))
TYPES = ("food", "rock", "open_water", "predator")
COLOURS = ("pink", "green", "yellow")
DECISIONS = ("choose_start_player", "start", "at_depth", "flip", "after_flip", "retreat", "ai_flip", "ai_pick", "game_over")
MAX_PLAYERS = 6
COLUMN_CAP = 16

_tile_lists = ("depths[].available", "boards[].pink", "boards[].green", "boards[].yellow", "boards[].rocks",
               "ai.pink", "ai.green", "ai.yellow", "ai.rocks", "ai.open_water")
_tile_fields = tuple(f"{path}[]" for path in _tile_lists) + ("just_flipped", "depths[].inert[].tile")

SPEC = EncodingSpec(
    vocab={
        "ai_difficulty": ("easy", "medium", "hard"),
        "token": ("start_player", "last_dive"),
        "decision": DECISIONS,
        "depths[].unseen[]": TILES,
        "boards[].captured_tiles[]": TILES,
        "discarded_rocks[]": TILES,
        **{f"{field}.id": TILES for field in _tile_fields},
        **{f"{field}.type": TYPES for field in _tile_fields},
        **{f"{field}.colour": COLOURS for field in _tile_fields},
    },
    indexed=frozenset(f"{field}.id" for field in _tile_fields),
    caps={
        "depths": 5, "depths[].available": 12, "depths[].inert": 24, "boards": MAX_PLAYERS,
        "boards[].captured_depths": 3, "ai.open_water": 24,
        **{path: COLUMN_CAP for path in _tile_lists if path not in ("depths[].available", "ai.open_water")},
    },
)

ACTIONS: tuple[str, ...] = (
    ("dive",) + tuple(f"rock:{depth}" for depth in range(2, 6)) + ("flip", "skip", "keep", "dive_on")
    + tuple(f"take:{tile}" for tile in TILES)
    + tuple(f"retreat_take:{tile}" for tile in TILES)
    + tuple(f"ai_give:{tile}" for tile in TILES)
)
