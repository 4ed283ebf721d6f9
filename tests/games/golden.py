"""Golden playouts: a digest of everything an engine does in a seeded random game, to pin its rules.

An engine made faster must play exactly the same games: the same legal options in the same order,
the same chance outcomes with the same probabilities, the same events for the same audiences, the
same final views and result. `playout_digest` plays one seeded random game (switching to a clone
of the state every few decisions, so `clone` is pinned too) and hashes all of that;
`tests/games/golden_playouts.json` holds the digests recorded from the engines before they were
optimised. Regenerate only for a deliberate rule change: `python -m tests.games.golden --write`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.engine import Event, GameConfig, GameState
from referee.registry import all_games, get_game

GOLDEN_PATH = Path(__file__).with_name("golden_playouts.json")
SEEDS = 6
CLONE_EVERY = 7
MAX_STEPS = 200_000


def configs() -> Iterator[tuple[str, GameConfig]]:
    """Every game at every player count, in every variant set its conformance suite cycles through."""
    for game in all_games():
        for players in range(game.min_players, game.max_players + 1):
            for variants in game.test_variants:
                try:
                    config = game.make_config(players, variants)
                except Exception:  # noqa: BLE001 - a variant not allowed at this player count
                    continue
                yield game.id, config


def config_key(config: GameConfig) -> str:
    return json.dumps(config.to_json(), sort_keys=True)


def _event_record(event: Event) -> list[Any]:
    audience = None if event.audience is None else sorted(event.audience)
    return [event.kind, json.dumps(event.data, sort_keys=True, default=repr), audience]


def _pick(rng: random.Random, count: int) -> int:
    return rng.randrange(count)


def playout_digest(game_id: str, config: GameConfig, seed: int) -> str:
    """The sha256 of one seeded random game's options, chance, events, final views and result."""
    game = get_game(game_id)
    state: GameState = game.new_initial_state(config)
    rng = random.Random(seed)
    digest = hashlib.sha256()

    def feed(value: Any) -> None:  # noqa: ANN401 - any JSON-able record
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode())
        digest.update(b"\n")

    decisions = 0
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = list(state.chance_outcomes())
            feed(["chance", [[o.id, repr(o.probability)] for o in outcomes]])
            point = rng.random()
            running = 0.0
            chosen = outcomes[-1]
            for outcome in outcomes:
                running += outcome.probability
                if point < running:
                    chosen = outcome
                    break
            state.apply_chance(chosen.id)
        else:
            choices = {}
            for seat in state.deciding_seats():
                options = list(state.legal_options(seat))
                feed(["decide", seat, state.decision_name(seat), [[o.id, o.label, dict(o.payload)] for o in options]])
                choices[seat] = options[_pick(rng, len(options))].id
            state.apply_decisions(choices)
            decisions += 1
            if decisions % CLONE_EVERY == 0:
                state = state.clone()
    else:
        raise RuntimeError(f"{game_id}: no end after {MAX_STEPS} steps")
    feed(["events", [_event_record(event) for event in state.events]])
    feed(["public", state.public_view()])
    feed(["private", [state.private_view(seat) for seat in range(config.players)]])
    result = state.result()
    feed(["result", list(result.ranks), [repr(score) for score in result.scores], dict(result.details)])
    return digest.hexdigest()


def all_digests() -> dict[str, list[str]]:
    return {
        f"{game_id} {config_key(config)}": [playout_digest(game_id, config, seed) for seed in range(SEEDS)]
        for game_id, config in configs()
    }


if __name__ == "__main__":
    digests = all_digests()
    if "--write" in sys.argv:
        GOLDEN_PATH.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(digests)} configs to {GOLDEN_PATH}")
    else:
        print(json.dumps(digests, indent=1, sort_keys=True))
