"""A remote bot as a person would run one: it dials the ladder with its token and plays game after
game. Usage: remote_bot.py GAMES [world] (address and token in B99_ARENA_ADDRESS / B99_SEAT_TOKEN).
With `world` the bot asks for worlds (sdk.forward) and fails unless every request brought one."""

from __future__ import annotations

import sys
import time

from bots.random_bot import RandomBot
from sdk import Request
from sdk.run import run


class WorldCheckingBot(RandomBot):
    """A random bot that asks for worlds and counts the requests that came without one."""

    wants_world = True

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0
        self.without_world = 0

    def choose(self, request: Request):  # type: ignore[no-untyped-def]
        self.requests += 1
        world = request.world
        if world is None or world.sample(self.rng).is_terminal():
            self.without_world += 1
        return super().choose(request)


def main(games: int, want_world: bool) -> int:
    played = 0
    deadline = time.monotonic() + 120
    while played < games and time.monotonic() < deadline:
        bot = WorldCheckingBot() if want_world else RandomBot()
        over = run(bot, name="far-away")
        if over is not None:
            played += 1
            if isinstance(bot, WorldCheckingBot) and (bot.requests == 0 or bot.without_world):
                print(f"{bot.without_world} of {bot.requests} requests came without a world", file=sys.stderr)
                return 1
        else:
            time.sleep(0.2)
    return 0 if played == games else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), "world" in sys.argv[2:]))
