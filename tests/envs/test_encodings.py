"""The observation encodings and action spaces of every game (sdk.envs.encodings), on random games.

- every option any decision offers has an action index, every view fits its encoding;
- a seat's encoded view, its vector from the game's encoder from the state (where the game has one)
  and its action mask are the same in every world `determinize(seat)` draws (states that differ only
  in what the seat cannot know give identical observations: the leak test);
- the engine's view and the view a bot receives over the wire encode the same.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from referee.registry import game_ids, get_game
from referee.wire import get_wire
from sdk.decode import message_dict
from sdk.envs.actions import UnknownOptionError
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders import state_encoder
from tests import conformance
from tests.envs.state_encoder_check import state_vector

SEEDS = {"underground_dice": 12, "deep_dive": 6, "fuji99": 8, "merchants": 8, "magnificent": 4}


def observed(state, seat: int, encoding) -> tuple[bytes, bytes, bytes]:  # type: ignore[no-untyped-def]
    """The seat's view encoded, its vector from the game's encoder from the state (if any), its action mask."""
    vector = encoding.view.encode(state.private_view(seat))
    from_state = state_vector(encoding.game_id, state, seat).tobytes() if state_encoder(encoding.game_id) else b""
    deciding = seat in state.deciding_seats() and not state.is_terminal()
    mask = encoding.actions.mask(state.legal_options(seat) if deciding else [])
    return vector.tobytes(), from_state, mask.tobytes()


@pytest.mark.parametrize("game_id", game_ids())
def test_random_games_fit_the_encoding_and_the_action_space(game_id: str) -> None:
    game = get_game(game_id)
    encoding = game_encoding(game_id)
    wire = get_wire(game_id)
    for seed in range(SEEDS[game_id]):
        final, record = conformance.random_game(game, seed)
        state = conformance.replay(game, conformance.PlayRecord(record.config, seed))
        for step, (kind, value) in enumerate([*record.steps, ("end", None)]):
            if not state.is_chance_node():
                for seat in range(state.players):
                    view = state.private_view(seat)
                    vector = encoding.view.encode(view)
                    assert vector.shape == (encoding.view.size,) and vector.dtype == np.float32
                    if step % 7 == 0:
                        over_wire = message_dict(wire.view_message(view))
                        assert np.array_equal(encoding.view.encode(over_wire), vector), f"{game_id} seed {seed} step {step}"
                for seat in state.deciding_seats():
                    assert encoding.actions.mask(state.legal_options(seat)).sum() == len(state.legal_options(seat))
            if kind == "chance":
                state.apply_chance(value)
            elif kind == "decide":
                state.apply_decisions(value)


@pytest.mark.parametrize("game_id", game_ids())
def test_observations_do_not_depend_on_what_the_seat_cannot_know(game_id: str) -> None:
    game = get_game(game_id)
    encoding = game_encoding(game_id)
    rng = random.Random(30)
    for seed in range(max(2, SEEDS[game_id] // 2)):
        _, record = conformance.random_game(game, seed)
        points = sorted(rng.sample(range(len(record.steps)), min(10, len(record.steps))))
        state = game.new_initial_state(record.config)
        position = 0
        for point in points:
            while position < point:
                kind, value = record.steps[position]
                state.apply_chance(value) if kind == "chance" else state.apply_decisions(value)
                position += 1
            for seat in range(state.players):
                mine = observed(state, seat, encoding)
                for _ in range(3):
                    world = state.determinize(seat, rng)
                    assert observed(world, seat, encoding) == mine, (
                        f"{game_id} seed {seed} step {point}: seat {seat}'s observation changed with what it cannot know"
                    )


def test_a_value_outside_the_vocabulary_is_an_error_naming_it() -> None:
    encoding = game_encoding("underground_dice")
    with pytest.raises(EncodingError, match="phase.*'dancing'"):
        encoding.view.encode({"phase": "dancing"})
    with pytest.raises(EncodingError, match="used_dice.*cap 6"):
        encoding.view.encode({"used_dice": [{"type": "pin", "face": 1}] * 7})
    with pytest.raises(EncodingError, match="no field 'secret'"):
        encoding.view.encode({"secret": 1})
    with pytest.raises(UnknownOptionError, match="'stake:999'"):
        encoding.actions.index_of("stake:999")


def test_action_lists_are_frozen_where_the_docs_say() -> None:
    """Indices never move: a trained policy's outputs keep their meaning (spot checks of the documented order)."""
    actions = game_encoding("underground_dice").actions
    assert actions.ids[:4] == ("pins:0", "pins:1", "pins:2", "pins:3") and actions.index_of("accuse") == actions.size - 1
    assert game_encoding("fuji99").actions.ids[0] == "draw:1"


@pytest.mark.parametrize("game_id", game_ids())
def test_the_compiled_encoder_gives_exactly_the_vectors_of_the_tree_walk(game_id: str) -> None:
    """`encode` runs a function compiled from the encoding tree; on random games it must match `encode_reference`."""
    game = get_game(game_id)
    encoding = game_encoding(game_id)
    for seed in range(2):
        _, record = conformance.random_game(game, 100 + seed)
        state = game.new_initial_state(record.config)
        for kind, value in record.steps:
            state.apply_chance(value) if kind == "chance" else state.apply_decisions(value)
            if not state.is_chance_node():
                for seat in range(state.players):
                    view = state.private_view(seat)
                    assert encoding.view.encode(view).tobytes() == encoding.view.encode_reference(view).tobytes(), (
                        f"{game_id} seed {100 + seed}: seat {seat}'s compiled encoding differs from the tree walk"
                    )


def test_the_compiled_encoder_fails_as_the_tree_walk_does() -> None:
    misfits = [
        ("deep_dive", {"token": "dancing"}),
        ("deep_dive", {"depths": [{"unseen": ["no such tile"]}]}),
        ("deep_dive", {"depths": [{}] * 9}),
        ("deep_dive", {"round": 1, "secret": 1}),
        ("magnificent", {"players": [{"camp": ["OX"]}]}),
        ("magnificent", {"players": [{"camp": ["O" * 9]}]}),
    ]
    for game_id, bad in misfits:
        encoding = game_encoding(game_id).view
        with pytest.raises(EncodingError) as compiled:
            encoding.encode(bad)
        with pytest.raises(EncodingError) as walked:
            encoding.encode_reference(bad)
        assert str(compiled.value) == str(walked.value)
