"""DEEP DIVE's View writer keeps each depth's and seat's part as pieces with copies of what each showed, and writes
again only the pieces that changed: the bytes stay those of the dict view however seldom and in whatever order
views are asked (several games in progress, clones, states edited by hand), at every player count."""

from __future__ import annotations

import random

import pytest

from referee import playout
from referee.games.deep_dive.data import PENGUINS_PER_PLAYER
from referee.games.deep_dive.state import DeepDiveState
from referee.registry import get_game
from referee.wire import SharedParts, get_wire

WIRE = get_wire("deep_dive")


def _check(state: DeepDiveState, rng: random.Random) -> None:
    assert WIRE.view_bytes is not None
    shared: SharedParts = {}
    for seat in rng.sample(range(state.players), state.players):
        expected = WIRE.view_message(state.private_view(seat)).SerializeToString()
        written = WIRE.view_bytes(state, seat, shared if rng.random() < 0.5 else None)
        if written != expected:
            assert WIRE.view.FromString(written) == WIRE.view.FromString(expected), f"seat {seat}"
            assert written == expected, "same fields, other bytes"


@pytest.mark.parametrize("players", range(1, 7))
def test_views_asked_seldom_and_interleaved_equal_the_dict_views(players: int) -> None:
    game = get_game("deep_dive")
    rng = random.Random(11 + players)
    difficulties = ("easy", "medium", "hard")
    states = [
        game.new_initial_state(game.make_config(players, {"ai_difficulty": difficulties[n]} if players == 1 else {}))
        for n in range(3)
    ]
    checked = 0
    while not all(state.is_terminal() for state in states):
        state = rng.choice([state for state in states if not state.is_terminal()])
        for _ in range(rng.choice((1, 1, 2, 5))):
            if state.is_terminal():
                break
            playout.step(state, rng)
        _check(state, rng)
        checked += 1
        if rng.random() < 0.1:
            twin = state.clone()
            _check(twin, rng)
            if not twin.is_terminal():
                playout.step(twin, rng)
                _check(twin, rng)
            _check(state, rng)
    assert checked > 10


@pytest.mark.parametrize("players", (1, 4))
def test_views_of_states_edited_by_hand_equal_the_dict_views(players: int) -> None:
    """Scenario code edits lists in place and renews the tokens: a part with the same lists as one written before
    (a tile moved back, a penguin taken off) is found again, one with other lists written anew."""
    game = get_game("deep_dive")
    rng = random.Random(5)
    state = game.new_initial_state(game.make_config(players))
    for _ in range(60):
        if state.is_terminal():
            break
        playout.step(state, rng)
        _check(state, rng)
        index = rng.randrange(5)
        unseen = state.unseen[index]
        if len(unseen) > 2 and rng.random() < 0.5:
            moved = unseen.pop(rng.randrange(len(unseen)))  # one tile out, then back elsewhere: same length, other order
            state.renew_tokens()
            _check(state, rng)
            unseen.insert(rng.randrange(len(unseen) + 1), moved)
            state.renew_tokens()
            _check(state, rng)
            # one shorter, but not by one tile cut out: another tile in the place of the last
            position = rng.randrange(len(unseen) - 1)
            moved = unseen.pop(position)
            kept, unseen[-1] = unseen[-1], moved
            state.renew_tokens()
            _check(state, rng)
            unseen[-1] = kept
            unseen.insert(position, moved)
            state.renew_tokens()
            _check(state, rng)
        inert = state.inert[index]
        if inert:
            tile = inert[0]
            had = state.penguin_on.pop(tile, None)
            state.penguin_on[tile] = rng.randrange(state.players) if had is None else had
            state.renew_tokens()
            _check(state, rng)
            if had is None:
                del state.penguin_on[tile]
            state.renew_tokens()
            _check(state, rng)


def test_the_writers_supply_is_the_rules_supply() -> None:
    """The writer counts a seat's supply itself (PENGUINS_PER_PLAYER less its captured penguins), as the rules do."""
    game = get_game("deep_dive")
    state = game.new_initial_state(game.make_config(3))
    for captured in range(PENGUINS_PER_PLAYER + 1):
        state.captured[1] = list(range(captured))
        assert state.supply(1) == PENGUINS_PER_PLAYER - captured
