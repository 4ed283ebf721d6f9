"""Requests built straight from an engine state, for policies that run inside a search.

A heuristic bot reads a `Request` (its seat's view, options and payloads as dicts). Inside a
search it must decide for every seat of many imagined games, where encoding each view as a
protobuf message and decoding it again (what a match does) would cost most of the time. A direct
request carries the engine's own `private_view(seat)` dict and option payloads instead: the same
fields the wire would carry, with fields the engine leaves out simply absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine import GameState, Option, Seat
from sdk.types import ClockInfo, OptionInfo, Packed, Request

_CLOCK = ClockInfo(per_decision_seconds=0.0, bank_remaining_seconds=0.0)


def _packed(data: Mapping[str, Any]) -> Packed:
    packed = Packed()
    packed.__dict__["as_dict"] = data  # the cached_property's slot: nothing to unpack or decode
    packed.__dict__["message"] = None
    return packed


def direct_request(state: GameState, seat: Seat, options: Sequence[Option]) -> Request:
    """The request `seat` faces in `state` with its legal `options`, without protobuf (see module doc)."""
    infos = [OptionInfo(index, option.id, option.label, _packed(option.payload)) for index, option in enumerate(options)]
    return Request(
        request_id=0,
        game=state.game.id,
        seat=seat,
        players=state.players,
        variants=state.config.variants,
        decision=state.decision_name(seat),
        options=infos,
        events=[],
        clock=_CLOCK,
        packed_view=_packed(state.private_view(seat)),
    )
