"""A world handed to a bot inside the referee shares no object with the match's own state."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bots.random_bot import RandomBot
from referee import playout
from referee.engine import GameState
from referee.local import play_local
from referee.registry import all_games
from referee.replay import verify_replay
from sdk.forward import in_process_world, seat_world
from tests import conformance

IMMUTABLE = (str, bytes, int, float, bool, type(None), frozenset, range)


def mutable_objects(root: Any, skip: Any) -> Iterator[Any]:
    """Every mutable object reachable from `root` (through attributes, slots and containers), except `skip`."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if obj is skip or id(obj) in seen or isinstance(obj, IMMUTABLE) or isinstance(obj, type) or callable(obj) and not hasattr(obj, "__dict__"):
            continue
        seen.add(id(obj))
        if not isinstance(obj, tuple):
            yield obj
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set)):
            stack.extend(obj)
        else:
            stack.extend(vars(obj).values() if hasattr(obj, "__dict__") else ())
            for name in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, name):
                    stack.append(getattr(obj, name))


def mid_game(game_id: str, seed: int, steps: int = 40) -> GameState:
    game = next(g for g in all_games() if g.id == game_id)
    rng = random.Random(seed)
    state = game.new_initial_state(conformance.config_for(game, seed))
    for _ in range(steps):
        if state.is_terminal():
            break
        playout.step(state, rng)
    while state.is_chance_node() and not state.is_terminal():
        playout.step(state, rng)
    return state


@pytest.mark.parametrize("game_id", sorted(game.id for game in all_games()))
def test_in_process_world_shares_no_mutable_object_with_the_state(game_id: str) -> None:
    for seed in range(3):
        state = mid_game(game_id, seed)
        if state.is_terminal():
            continue
        seat = state.deciding_seats()[0]
        # Kept alive, not only their ids: an object the state drops meanwhile (an event log builds its deferred
        # events in place) would free its id for an unrelated object of the world.
        theirs = {id(obj): obj for obj in mutable_objects(state, state.game)}
        shared = [obj for obj in mutable_objects(in_process_world(state, seat, random.Random(1)), state.game) if id(obj) in theirs]
        assert shared == [], f"{game_id}: the world shares {type(shared[0]).__name__} objects with the referee's state"


def test_the_old_world_did_share_objects() -> None:
    """The control: a determinized world alone shares events with the state, which is what the copy prevents."""
    state = mid_game("underground_dice", 0, steps=6)
    theirs = {id(obj) for obj in mutable_objects(state, state.game)}
    world = seat_world(state, state.deciding_seats()[0], random.Random(1))
    assert any(id(obj) in theirs for obj in mutable_objects(world, state.game))


class Vandal(RandomBot):
    """An in-process bot that scribbles over every mutable object of each world it is given."""

    wants_world = True
    scribbled = 0

    def choose(self, request):  # type: ignore[no-untyped-def]
        worlds = getattr(request, "world", None)
        if worlds is not None:
            world = worlds.anchor
            self.scribbled += 1
            for obj in list(mutable_objects(world, world.game)):
                if isinstance(obj, dict):
                    obj["vandal"] = 1
                elif isinstance(obj, list):
                    obj.append("vandal")
        return super().choose(request)


def test_a_bot_that_scribbles_over_its_worlds_cannot_change_the_match(tmp_path) -> None:  # type: ignore[no-untyped-def]
    replay = tmp_path / "r.jsonl"
    vandal = Vandal(1)
    play_local("underground_dice", [vandal, RandomBot(2)], seed=4, replay_path=str(replay))
    assert vandal.scribbled > 0
    verify_replay(replay)
