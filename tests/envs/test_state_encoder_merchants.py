"""Merchants of B99's observation from the state (sdk/envs/state_encoders/merchants.py) is its view encoding,
slot for slot: the public table, and each seat's own hand and reputation cards for that seat alone."""

from __future__ import annotations

from collections import Counter

import numpy as np

from referee.engine import GameState
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder
from tests.envs.state_encoder_check import check_game

VIEW = game_encoding("merchants").view


def test_the_encoder_from_the_state_writes_the_view_encoding_on_random_games() -> None:
    seen_fields: Counter[str] = Counter()
    hand = slice(VIEW.start("hand"), VIEW.start("hand") + VIEW.node("hand").size)
    watched = {name: VIEW.start(name) for name in ("seats[].final", "d_card", "pending_target")}

    def fields_seen(state: GameState, observations: list[np.ndarray]) -> None:
        for name, slot in watched.items():
            width = VIEW.node(name).size if name == "d_card" else 1
            if any(observation[slot:slot + width].any() for observation in observations):
                seen_fields[name] += 1
        if len(observations) > 1 and not np.array_equal(observations[0][hand], observations[1][hand]):
            seen_fields["hands differ by seat"] += 1

    coverage = check_game("merchants", games=1, every=5, seen=fields_seen)
    assert coverage.positions >= 250 and coverage.terminal >= 16 and coverage.not_deciding > 0
    assert {"chance", "initial_rotation", "return_reputation", "choose_tile", "choose_target", "choose_rotation",
            "choose_dungeon", "over"} <= coverage.phases
    assert all(seen_fields[name] > 0 for name in (*watched, "hands differ by seat")), seen_fields


def test_the_game_finds_its_encoder() -> None:
    assert state_encoder("merchants") is not None


def test_observations_of_copies_and_worlds_played_side_by_side_are_their_view_encodings() -> None:
    """Parts are kept by the tokens the state replaces where they change: copies and determinized worlds that
    share them and then go their own ways must never be given one another's parts."""
    import random

    from referee.chance import sample_outcome
    from referee.registry import get_game
    from tests.envs.state_encoder_check import state_vector

    game = get_game("merchants")
    compared = 0
    for seed in range(6):
        rng = random.Random(seed)
        players = 1 + seed % 4
        states = [game.new_initial_state(game.make_config(players, {"first_game": bool(seed % 2)}))]
        while states:
            index = rng.randrange(len(states))
            state = states[index]
            if rng.random() < 0.3 or state.is_terminal():
                for seat in range(players):
                    expected = VIEW.encode(state.private_view(seat))
                    assert state_vector("merchants", state, seat).tobytes() == expected.tobytes(), (seed, seat)
                    compared += 1
            if state.is_terminal():
                states.pop(index)
                continue
            if len(states) < 4 and rng.random() < 0.06:
                states.append(state.clone() if state.is_chance_node() else state.determinize(rng.randrange(players), rng))
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            else:
                state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})
    assert compared > 500
