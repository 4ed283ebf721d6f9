"""The forward model: a world sent to a seat is a state of that seat's information set, and nothing more."""

from __future__ import annotations

import random

import pytest

from bots.random_bot import RandomBot
from referee.engine import GameState
from referee.local import play_local
from referee.playout import step
from referee.registry import game_ids, get_game
from referee.wire import get_wire
from sdk import Bot, Request
from sdk.forward import InformationSet, decode_world, encode_world
from tests.polyglot.helpers import assert_clean, test_game


def decision_points(game_id: str, seed: int, limit: int = 40) -> list[GameState]:
    """States at successive decision nodes of one random game."""
    game = get_game(game_id)
    state = game.new_initial_state(game.make_config())
    rng = random.Random(seed)
    found: list[GameState] = []
    while not state.is_terminal() and len(found) < limit:
        if not state.is_chance_node():
            found.append(state.clone())
        step(state, rng)
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_world_is_in_the_seats_information_set(game_id: str) -> None:
    rng = random.Random(0)
    for state in decision_points(game_id, seed=1):
        for seat in state.deciding_seats():
            world = decode_world(encode_world(state, seat, rng))
            assert world.private_view(seat) == state.private_view(seat)
            assert world.decision_name(seat) == state.decision_name(seat)
            assert [o.id for o in world.legal_options(seat)] == [o.id for o in state.legal_options(seat)]
            assert world.deciding_seats() == state.deciding_seats()
            # The world's log holds exactly the events this seat may see, in order, and no other.
            assert list(world.events) == state.events_for(seat)
            assert world.game is state.game  # component data shared, not copied


@pytest.mark.parametrize("game_id", game_ids())
def test_worlds_can_be_played_to_the_end(game_id: str) -> None:
    rng = random.Random(2)
    for state in decision_points(game_id, seed=3, limit=10):
        seat = state.deciding_seats()[0]
        worlds = InformationSet(seat, decode_world(encode_world(state, seat, rng)))
        for _ in range(3):
            world = worlds.sample(rng)
            while not world.is_terminal():
                step(world, rng)
            assert len(world.result().ranks) == state.players


class WorldChecker(Bot):
    """Checks every world against the request that carried it."""

    wants_world = True

    def __init__(self) -> None:
        self.rng = random.Random(5)
        self.checked = 0

    def choose(self, request: Request) -> str:
        worlds = request.world
        assert isinstance(worlds, InformationSet) and worlds.seat == request.seat
        wire = get_wire(request.game)
        expected = request.view_message
        assert wire.view_message(worlds.anchor.private_view(request.seat)) == expected
        assert [o.id for o in worlds.sample(self.rng).legal_options(request.seat)] == [o.id for o in request.options]
        self.checked += 1
        return request.options[0].id


class NoWorlds(Bot):
    def choose(self, request: Request) -> str:
        assert request.packed_world == b"" and request.world is None
        return request.options[-1].id


def test_only_bots_that_ask_get_worlds() -> None:
    checker = WorldChecker()
    report = play_local(test_game(), [checker, NoWorlds()], seed=8)
    assert_clean(report)
    assert checker.checked > 0


def test_asking_for_worlds_does_not_change_the_game() -> None:
    class FirstOption(Bot):
        def choose(self, request: Request) -> str:
            return request.options[0].id

    class FirstOptionWithWorlds(FirstOption):
        wants_world = True

    plain = play_local(test_game(), [FirstOption(), RandomBot(4)], seed=21)
    asking = play_local(test_game(), [FirstOptionWithWorlds(), RandomBot(4)], seed=21)
    assert (plain.ranks, plain.scores, plain.decisions) == (asking.ranks, asking.scores, asking.decisions)
