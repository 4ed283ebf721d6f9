"""The View writers that keep what they last wrote for a state (Fuji 99, The Magnificent) write the same bytes
however seldom and in whatever order they are asked.

A writer compares each part of a state with a copy of what that part showed when it was last written, and writes
it again only when it differs. tests/test_view_writers.py asks at every node of one game; here views are asked at
random intervals (several steps apart: many parts change between two requests), alternately for two games in
progress and for clones of them (copies share nothing mutable with their source), and each is compared byte for
byte with the View of the state's dict view.
"""

from __future__ import annotations

import random

import pytest

from referee import playout
from referee.engine import GameState
from referee.registry import get_game
from referee.wire import SharedParts, get_wire

GAMES = ("fuji99", "magnificent")


def _check(game_id: str, state: GameState, rng: random.Random) -> None:
    wire = get_wire(game_id)
    assert wire.view_bytes is not None
    shared: SharedParts = {}
    for seat in rng.sample(range(state.players), state.players):
        expected = wire.view_message(state.private_view(seat)).SerializeToString()
        written = wire.view_bytes(state, seat, shared if rng.random() < 0.5 else None)
        if written != expected:
            assert wire.view.FromString(written) == wire.view.FromString(expected), f"{game_id} seat {seat}"
            assert written == expected, f"{game_id}: same fields, other bytes"


@pytest.mark.parametrize("game_id", GAMES)
def test_views_asked_seldom_and_interleaved_equal_the_dict_views(game_id: str) -> None:
    game = get_game(game_id)
    variants = [dict(variant) for variant in getattr(game, "test_variants", ({},))]
    for index, players in enumerate(range(game.min_players, game.max_players + 1)):
        rng = random.Random(7 + players)
        variant = variants[index % len(variants)]
        states = [game.new_initial_state(game.make_config(players, variant)) for _ in range(2)]
        checked = 0
        while not all(state.is_terminal() for state in states):
            state = rng.choice([state for state in states if not state.is_terminal()])
            for _ in range(rng.randint(1, 8)):
                if state.is_terminal():
                    break
                playout.step(state, rng)
            _check(game_id, state, rng)
            checked += 1
            if rng.random() < 0.1:
                # A clone is a new state to the writer; its source, written before, must not be taken for it.
                twin = state.clone()
                _check(game_id, twin, rng)
                if not twin.is_terminal():
                    playout.step(twin, rng)
                    _check(game_id, twin, rng)
                _check(game_id, state, rng)
        assert checked > 10
