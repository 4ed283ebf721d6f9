"""The random reference bot: a uniformly random legal option, for any game."""

from __future__ import annotations

import os
import random

from sdk import Bot, OptionInfo, Request


class RandomBot(Bot):
    """Plays a uniformly random legal option; seeded from B99_BOT_SEED when set."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        if seed is None and os.environ.get("B99_BOT_SEED"):
            seed = int(os.environ["B99_BOT_SEED"])
        self.rng = random.Random(seed)

    def choose(self, request: Request) -> OptionInfo:
        return self.rng.choice(list(request.options))
