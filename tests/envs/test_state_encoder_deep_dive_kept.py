"""DEEP DIVE's kept vectors (sdk/envs/state_encoders/deep_dive.py): one vector per state, brought up to date in
place where the engine's tokens say a part changed, handed out as a copy with the seat's number set. Whatever state
a vector was made from (a clone's, the previous game's, another table's, a position read from outside), every
observation must be the view encoding's vector of that seat's view, to the byte."""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

from referee import playout
from referee.games.deep_dive.state import DeepDiveState
from referee.position import load_position, position_json
from referee.registry import get_game
from sdk.envs import aec_env
from sdk.envs.encoding import EncodingError, Slots
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import deep_dive, state_encoder
from sdk.envs.table import Table, whole_vector_of
from tests.envs.state_encoder_check import differences

GAME = get_game("deep_dive")
VIEW = game_encoding("deep_dive").view


def expect_view(state: DeepDiveState, seat: int, where: str) -> np.ndarray:
    """The seat's observation vector from the state, checked against its view encoding (and `encode`'s two ways)."""
    expected = VIEW.encode(state.private_view(seat))
    got = deep_dive.observation_vector(state, seat)
    assert got.dtype == np.float32 and got.shape == expected.shape
    assert expected.tobytes() == got.tobytes(), f"{where} seat {seat}: " + differences(VIEW, expected, got)
    slots = Slots()
    deep_dive.encode(state, seat, slots)
    assert VIEW.vector(slots).tobytes() == got.tobytes(), f"{where} seat {seat}: encode into Slots"
    plain: dict[int, float] = {}
    deep_dive.encode(state, seat, plain)
    assert VIEW.vector(plain).tobytes() == got.tobytes(), f"{where} seat {seat}: encode into a dict"
    return got


def test_the_table_hands_out_the_encoders_whole_vector() -> None:
    assert whole_vector_of(state_encoder("deep_dive")) is deep_dive.observation_vector


@pytest.mark.parametrize("players", [1, 2, 6])
def test_every_observation_of_an_environment_is_the_view_encoding(players: int) -> None:
    """Solo (the AI's part), 2 and 6 players, games after games on one environment (each reset a new state, its
    vector made from the last game's start)."""
    env = aec_env("deep_dive", players=players)
    rng = random.Random(players)
    compared = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            seat = env.agent_seat[agent]
            expected = VIEW.encode(env.table.state.private_view(seat))
            assert expected.tobytes() == observation["observation"].tobytes(), (
                f"{players} players game {seed} seat {seat}: " + differences(VIEW, expected, observation["observation"])
            )
            compared += 1
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
    assert compared > 100


def test_a_handed_out_vector_is_the_callers_own() -> None:
    state = GAME.new_initial_state(GAME.make_config(3))
    playout.step(state, random.Random(1))
    first = deep_dive.observation_vector(state, 1)
    first[:] = 7.0  # a learner may write into its observation
    again = expect_view(state, 1, "after the caller wrote into its copy")
    assert again[0] != 7.0


def test_clones_played_apart_each_see_their_own_position() -> None:
    """A clone shares its original's tokens until either changes a part: its vector is made from the original's,
    then both are played on, observed in turn, and cloned again."""
    for players in (1, 2, 4, 6):
        rng = random.Random(10 + players)
        states = [GAME.new_initial_state(GAME.make_config(players))]
        compared = 0
        while states and compared < 400:
            state = rng.choice(states)
            if rng.random() < 0.15 and len(states) < 6:
                state = state.clone()
                states.append(state)
            expect_view(state, rng.randrange(players), f"{players} players")
            compared += 1
            if state.is_terminal():
                states.remove(state)
            else:
                playout.step(state, rng)
        assert compared > 100


def test_two_tables_at_once() -> None:
    """Two tables of the same game (and one of another player count) stepped in turn: each observation is of its
    own table's position."""
    tables = [Table("deep_dive", 3), Table("deep_dive", 3), Table("deep_dive", 2)]
    rng = random.Random(5)
    for number, table in enumerate(tables):
        table.reset(seed=number)
    compared = 0
    while compared < 600:
        table = rng.choice(tables)
        if table.state.is_terminal():
            table.reset(seed=rng.randrange(1000))
        seat = table.to_move()
        assert seat is not None
        vector = table.encode(seat)
        expected = VIEW.encode(table.state.private_view(seat))
        assert expected.tobytes() == vector.tobytes(), differences(VIEW, expected, vector)
        other = rng.randrange(table.players)  # a seat not to move sees the same table
        assert VIEW.encode(table.state.private_view(other)).tobytes() == table.encode(other).tobytes()
        table.act(seat, rng.choice(table.action_mask(seat).nonzero()[0].tolist()))
        compared += 1


def test_a_position_read_from_outside_and_a_state_edited_then_renewed() -> None:
    """A state loaded from a position has tokens of its own (no part shared with any vector): written afresh; a state
    edited from outside the rules and given new tokens (`renew_tokens`) is written again where it differs."""
    rng = random.Random(3)
    state = GAME.new_initial_state(GAME.make_config(4))
    for _ in range(60):
        playout.step(state, rng)
    expect_view(state, 0, "before")
    loaded = load_position(position_json(state))
    assert isinstance(loaded, DeepDiveState)
    for seat in range(4):
        expect_view(loaded, seat, "loaded")
    # edited from outside the rules (a clone: it shares the loaded state's tokens), then given new tokens
    edited = loaded.clone()
    index = next(i for i in range(5) if edited.unseen[i])
    edited.available[index].append(edited.unseen[index].pop())
    edited.rocks[2] = list(edited.rocks[1]) + list(edited.rocks[2])
    edited.renew_tokens()
    for seat in range(4):
        expect_view(edited, seat, "edited")
        expect_view(loaded, seat, "loaded, beside the edited clone")
    while not loaded.is_terminal():
        playout.step(loaded, rng)
        expect_view(loaded, rng.randrange(4), "loaded, played on")


def test_states_whose_ids_are_reused_are_not_taken_for_each_other() -> None:
    """A state's vector is found by a weak reference: a new state at a finished one's address is written afresh."""
    rng = random.Random(9)
    for _ in range(30):
        state = GAME.new_initial_state(GAME.make_config(rng.choice((1, 2, 5))))
        for _ in range(rng.randrange(1, 40)):
            if state.is_terminal():
                break
            playout.step(state, rng)
        expect_view(state, 0, "a fresh state")
        del state
        gc.collect()


def test_a_value_outside_the_vocabulary_is_an_error_and_the_state_is_written_afresh_after_it() -> None:
    rng = random.Random(4)
    state = GAME.new_initial_state(GAME.make_config(2))
    for _ in range(10):
        playout.step(state, rng)
    expect_view(state, 0, "before")
    phase = state.phase
    state.phase = "no such decision"
    with pytest.raises(EncodingError, match="outside its vocabulary"):
        deep_dive.observation_vector(state, 0)
    with pytest.raises(EncodingError, match="outside its vocabulary"):
        deep_dive.encode(state, 0, {})
    state.phase = phase
    expect_view(state, 1, "after the error")
