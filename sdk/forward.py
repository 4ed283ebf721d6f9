"""The forward model: a Python bot searches with the game engines themselves, from a world it may know.

A bot that sets `wants_world = True` receives, with every decision request, one *world*: a full
engine state drawn from its seat's information set. The referee makes it with the engine's own
`determinize(seat, rng)` of the true state and keeps only the events that seat may see, so a world
holds nothing the seat does not know except random redraws of what it cannot know. The bot then
draws as many further worlds as it likes with `InformationSet.sample(rng)` (the engine's
`determinize` again, now on the bot's side) and plays them forward with `apply_decisions`,
`apply_chance` and `result` like any engine state:

    class Searcher(Bot):
        wants_world = True

        def choose(self, request):
            worlds = request.world                  # an InformationSet (None if the match gave none)
            state = worlds.sample(self.rng)         # a GameState: clone it, play it out, score it
            ...

Worlds travel pickled (`encode_world` / `decode_world`); the game object itself is not pickled
but looked up by id, so component data is shared. See docs/decisions.md, "Platform".
"""

from __future__ import annotations

import io
import pickle
import random
from dataclasses import dataclass
from typing import Any

from referee.engine import EventLog, Game, GameState, Seat


def seat_world(state: GameState, seat: Seat, rng: random.Random) -> GameState:
    """A state drawn from `seat`'s information set: determinized, its log cut to the seat's events."""
    world = state.determinize(seat, rng)
    world.events = EventLog([event for event in world.events if event.visible_to(seat)])
    return world


class _WorldPickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, game: Game) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.game = game
        self.game_reference = ("game", game.id)

    def persistent_id(self, obj: Any) -> Any:  # noqa: ANN401 - pickle's own signature
        # Called for every object pickled: an identity test, not isinstance, keeps it cheap.
        return self.game_reference if obj is self.game else None


class _WorldUnpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:  # noqa: ANN401 - pickle's own signature
        from referee.registry import get_game

        kind, game_id = pid
        if kind != "game":
            raise pickle.UnpicklingError(f"unknown persistent reference {pid!r}")
        return get_game(game_id)


def encode_world(state: GameState, seat: Seat, rng: random.Random) -> bytes:
    """The referee's side: one world of `seat`'s information set, pickled."""
    buffer = io.BytesIO()
    _WorldPickler(buffer, state.game).dump(seat_world(state, seat, rng))
    return buffer.getvalue()


def in_process_world(state: GameState, seat: Seat, rng: random.Random) -> GameState:
    """A world for a bot inside the referee: a deep copy through pickle, so it shares no object with the match.

    A world from `seat_world` alone shares events and component containers with the referee's state; an
    in-process bot that changed them would change the match itself.
    """
    return decode_world(encode_world(state, seat, rng))


def decode_world(data: bytes) -> GameState:
    """The bot's side: the world sent with a request (only ever unpickle what the referee sent)."""
    state = _WorldUnpickler(io.BytesIO(data)).load()
    if not isinstance(state, GameState):
        raise pickle.UnpicklingError(f"world is a {type(state).__name__}, not a GameState")
    return state


@dataclass
class InformationSet:
    """Everything one seat may know, as a source of full worlds to search."""

    seat: Seat
    anchor: GameState

    def sample(self, rng: random.Random) -> GameState:
        """A fresh world from the information set (independent of the anchor; mutate it freely)."""
        return self.anchor.determinize(self.seat, rng)

    @property
    def game(self) -> Game:
        return self.anchor.game
