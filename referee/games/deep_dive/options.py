"""DEEP DIVE option objects: built once per tile/depth and shared by every state (options are immutable)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import Option
from referee.games.deep_dive.data import DEPTHS, Tile

DIVE = Option("dive", "Dive from depth 1", {"action": "dive"})
ROCK = {d: Option(f"rock:{d}", f"Swallow a rock and start at depth {d}", {"action": "rock", "depth": d}) for d in DEPTHS[1:]}
FLIP = Option("flip", "Flip the next face-down tile", {"action": "flip"})
SKIP = Option("skip", "Skip this depth", {"action": "skip"})
KEEP = Option("keep", "Keep the flipped tile and surface", {"action": "keep"})
DIVE_ON = Option("dive_on", "Leave the flipped tile and dive on", {"action": "dive_on"})


class TileOptions:
    """The per-tile options (take, retreat_take, ai_give) for every tile, indexed by tile index."""

    def __init__(self, tiles: Sequence[Tile]) -> None:
        self.take = tuple(
            Option(f"take:{t.id}", f"Take {t.describe()} and surface", {"action": "take", "tile": t.id}) for t in tiles
        )
        self.retreat_take = tuple(
            Option(f"retreat_take:{t.id}", f"Retreat with {t.describe()}", {"action": "retreat_take", "tile": t.id})
            for t in tiles
        )
        self.ai_give = tuple(
            Option(f"ai_give:{t.id}", f"The AI takes {t.describe()}", {"action": "ai_give", "tile": t.id}) for t in tiles
        )
