"""Win rate of the learned bot against `random` and `heuristic` in Underground Dice (docs/bots.md).

    python -m bots.learned.measure --games 400

In-process matches through the referee's runner (referee.local.play_local), seeds 0..games-1,
the learned bot's seat alternating game by game; a shared first place counts half.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from bots.learned.bot import LearnedBot
from bots.random_bot import RandomBot
from bots.registry import per_game_bot
from referee.local import play_local

GAME = "underground_dice"


def opponent(name: str, game: int):  # type: ignore[no-untyped-def]
    if name == "random":
        return RandomBot(seed=10_000 + game)
    bot = per_game_bot("bots.heuristic", GAME)
    if hasattr(bot, "rng"):
        bot.rng.seed(game)
    return bot


def measure(against: str, games: int) -> tuple[float, float, float]:
    """(win rate, low, high): the learned bot's score share and its Wilson 95% interval."""
    learned = LearnedBot()
    points = 0.0
    for game in range(games):
        seat = game % 2
        bots = [opponent(against, game), opponent(against, game)]
        bots[seat] = learned
        report = play_local(GAME, bots, seed=game)
        mine, theirs = report.ranks[seat], report.ranks[1 - seat]
        points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    rate = points / games
    z = 1.96
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return rate, centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--against", action="append", choices=["random", "heuristic"])
    args = parser.parse_args(argv)
    for against in args.against or ["random", "heuristic"]:
        started = time.perf_counter()
        rate, low, high = measure(against, args.games)
        print(f"learned vs {against}: {rate:.1%} ({low:.1%}-{high:.1%}) of {args.games} games; {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
