"""Games played to the end with random legal choices, as replays and as states, for the viewer's tests."""

from __future__ import annotations

import random
from pathlib import Path

from bots.random_bot import RandomBot
from referee.engine import GameState
from referee.match import BotSpec, MatchSpec, run_match
from referee.registry import all_games

#: (game, players): one seat where the game allows it, and the most players it allows.
CONFIGS = sorted({(game.id, count) for game in all_games() for count in (max(1, game.min_players), game.max_players)})


def play_states(game_id: str, players: int, seed: int = 5) -> list[GameState]:
    """Every state of one random game, from the start to the end (clones)."""
    from referee.registry import get_game

    game = get_game(game_id)
    state = game.new_initial_state(game.make_config(players))
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices(outcomes, weights=[o.probability for o in outcomes])[0].id)
        else:
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
        states.append(state.clone())
    return states


def write_replay(game_id: str, players: int, directory: Path, seed: int = 5) -> Path:
    """A replay of random in-process bots (a real match through the referee); each bot is seeded from the
    match seed and its seat, so the same arguments always play the same game."""
    path = directory / f"{game_id}-{players}-{seed}.jsonl"
    bots = [BotSpec(name=f"random{i}", factory=lambda i=i: RandomBot(seed=seed * 100 + i)) for i in range(players)]
    run_match(MatchSpec(game=game_id, bots=bots, seed=seed, replay_path=str(path)))
    return path
