"""A remote bot as a person would run one: it dials the ladder with its token and plays game after
game. Usage: remote_bot.py GAMES (address and token in B99_ARENA_ADDRESS / B99_SEAT_TOKEN)."""

from __future__ import annotations

import sys
import time

from bots.random_bot import RandomBot
from sdk.run import run


def main(games: int) -> int:
    played = 0
    deadline = time.monotonic() + 120
    while played < games and time.monotonic() < deadline:
        over = run(RandomBot(), name="far-away")
        if over is not None:
            played += 1
        else:
            time.sleep(0.2)
    return 0 if played == games else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
