"""Win rate of a game's heuristic bot against random bots, in-process, its seat rotating game by game.

    python -m bots.evaluate underground_dice --games 200 [--players N] [--variant key=value ...]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bots.random_bot import RandomBot
from bots.registry import per_game_bot
from referee.local import play_local
from referee.registry import get_game


@dataclass(frozen=True)
class Evaluation:
    """Games won, drawn (shared best rank with a random bot) and lost by the heuristic seat."""

    games: int
    wins: int
    draws: int
    losses: int
    mean_score_margin: float  # heuristic score minus the best random score, per game

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games


def evaluate(game_id: str, games: int, players: int | None = None, variants: Mapping[str, Any] | None = None) -> Evaluation:
    """Play `games` seeded games (seeds 0..games-1); the heuristic sits at seat `game % players`."""
    count = players or get_game(game_id).default_players
    wins = draws = losses = 0
    margin = 0.0
    for game in range(games):
        seat = game % count
        bots = [RandomBot(seed=10_000 + game * count + s) for s in range(count)]
        heuristic = per_game_bot("bots.heuristic", game_id)
        if hasattr(heuristic, "rng"):
            heuristic.rng.seed(game)
        bots[seat] = heuristic  # type: ignore[call-overload]
        report = play_local(game_id, bots, seed=game, players=count, variants=variants)
        others = [report.ranks[s] for s in range(count) if s != seat]
        mine = report.ranks[seat]
        if mine < min(others, default=mine + 1):
            wins += 1
        elif mine == min(others, default=mine + 1):
            draws += 1
        else:
            losses += 1
        best_other = max((report.scores[s] for s in range(count) if s != seat), default=0.0)
        margin += report.scores[seat] - best_other
    return Evaluation(games, wins, draws, losses, margin / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int)
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    variants = dict(item.split("=", 1) for item in args.variant)
    started = time.perf_counter()
    result = evaluate(args.game, args.games, args.players, variants)
    print(
        f"{args.game} {variants or ''} heuristic vs random: {result.wins} won, {result.draws} drawn, "
        f"{result.losses} lost of {result.games} ({100 * result.win_rate:.1f}%); "
        f"mean score margin {result.mean_score_margin:+.0f}; {time.perf_counter() - started:.1f}s"
    )


if __name__ == "__main__":
    main()
