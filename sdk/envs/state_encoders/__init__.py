"""Observation encoders that read an engine's state directly, one module per game (no view dict built).

A module `sdk/envs/state_encoders/<game id>.py` defines

    def encode(state: GameState, seat: Seat, out: dict[int, float]) -> None

which writes into `out` exactly the slots and values that the game's view encoding
(`game_encoding(id).view`, compiled from the View message) writes for `state.private_view(seat)`.
Slot numbers come from that encoding, looked up by field path (`ViewEncoding.start`, `offset`, `stride`,
`cap`, `one_hot`, `indexed`), never typed by hand. `out` is a dict (slot -> value), a `Slots` in an
environment; parts that repeat from one position to the next are kept and handed to it as blocks
(sdk/envs/state_encoders/parts.py). Tests compare both encoders on random games of every player count
and variant, writing into a `Slots` and into a plain dict (tests/envs/state_encoder_check.py), so an
encoder from the state can neither show more than the seat's view nor drift from the documented layout.
`Table` (sdk/envs/table.py) uses a game's encoder when it has one and encodes the view otherwise.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from referee.engine import GameState, Seat
from sdk.envs.encoding import Slots

__all__ = ["Slots", "StateEncoder", "state_encoder"]

#: writes a seat's observation slots (slot -> value) from the state itself
StateEncoder = Callable[[GameState, Seat, dict[int, float]], None]


@cache
def state_encoder(game_id: str) -> StateEncoder | None:
    """The game's encoder from the state, or None when the game has none (its view is encoded instead)."""
    name = f"sdk.envs.state_encoders.{game_id}"
    try:
        module: Any = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise
    encoder: StateEncoder = module.encode
    return encoder
