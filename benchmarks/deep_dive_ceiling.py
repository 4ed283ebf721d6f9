"""How often can DEEP DIVE's solo AI be beaten at all? A clairvoyant bot's record, beside the fair bots'.

    python -m benchmarks.deep_dive_ceiling --games 40 --difficulty hard [--rollouts 6]

The clairvoyant bot is allowed to see the whole deck: each game fixes one order of every tile
(a shuffled deck), every flip reveals the first tile of that order still among the tiles the flip
could draw (so each flip is still uniform over what remains, as in the engine), and the bot knows
that order. The game is then deterministic given the bot's own choices, and the bot searches it:
for each option it plays `--rollouts` continuations with the heuristic (a random option instead
one time in five), and takes the option whose best continuation does best (a win first, then the
score margin over the AI). Its record is a ceiling estimate for fair bots, never a ladder bot: it
reads the true game state, which no bot in a match can. Runs in-process, seeds 0..games-1.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence

from bots.search.policy import HeuristicPolicy
from referee.engine import ChanceOutcome, GameState
from referee.registry import get_game

GAME = "deep_dive"


def deck_outcome(outcomes: Sequence[ChanceOutcome], deck: Sequence[str], rng: random.Random) -> str:
    """The first tile of the deck this chance node can draw (a non-tile node: drawn with its probabilities)."""
    ids = {outcome.id for outcome in outcomes}
    for tile_id in deck:
        if tile_id in ids:
            return tile_id
    return rng.choices([o.id for o in outcomes], weights=[o.probability for o in outcomes])[0]


def play_on(state: GameState, deck: Sequence[str], policy: HeuristicPolicy, rng: random.Random) -> None:
    """Play to the end: chance from the deck, the seat's choices by the policy."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(deck_outcome(state.chance_outcomes(), deck, rng))
        else:
            state.apply_decisions({seat: policy.choose(state, seat, list(state.legal_options(seat)), rng).id for seat in state.deciding_seats()})


def value(state: GameState) -> tuple[int, float]:
    """(won, score margin over the AI) of a finished solo game."""
    result = state.result()
    return (1 if result.ranks[0] == 1 else 0), float(result.scores[0]) - float(result.details["ai_score"])


def clairvoyant_game(seed: int, difficulty: str, rollouts: int) -> tuple[int, float, float]:
    """One game: (won, own score, AI score)."""
    game = get_game(GAME)
    state = game.new_initial_state(game.make_config(1, {"ai_difficulty": difficulty}))
    rng = random.Random(seed)
    deck = [tile.id for tile in state.data.tiles]  # type: ignore[attr-defined]
    rng.shuffle(deck)
    policy = HeuristicPolicy(GAME, 1, epsilon=0.2)
    greedy = HeuristicPolicy(GAME, 1, epsilon=0.0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(deck_outcome(state.chance_outcomes(), deck, rng))
            continue
        options = list(state.legal_options(0))
        if len(options) == 1:
            state.apply_decisions({0: options[0].id})
            continue
        best_id, best_value = options[0].id, (-1, -1e9)
        for option in options:
            for attempt in range(rollouts):
                trial = state.clone()
                trial.apply_decisions({0: option.id})
                play_on(trial, deck, greedy if attempt == 0 else policy, rng)
                if value(trial) > best_value:
                    best_id, best_value = option.id, value(trial)
        state.apply_decisions({0: best_id})
    result = state.result()
    return (1 if result.ranks[0] == 1 else 0), float(result.scores[0]), float(result.details["ai_score"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--difficulty", default="hard", choices=("easy", "medium", "hard"))
    parser.add_argument("--rollouts", type=int, default=6)
    args = parser.parse_args(argv)
    outcomes = [clairvoyant_game(seed, args.difficulty, args.rollouts) for seed in range(args.games)]
    from benchmarks.strength import wilson

    won = statistics.fmean(o[0] for o in outcomes)
    low, high = wilson(won, len(outcomes))
    print(
        f"| clairvoyant (sees the deck), {args.rollouts} rollouts per option | {args.difficulty} | {len(outcomes)} | "
        f"{100 * won:.1f}% ({100 * low:.1f}–{100 * high:.1f}) | "
        f"{statistics.fmean(o[1] for o in outcomes):.1f} vs {statistics.fmean(o[2] for o in outcomes):.1f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
