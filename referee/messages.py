"""Building the protobuf messages a seat receives, from that seat's view, options and events only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.protobuf import struct_pb2

import b99.arena_pb2 as arena_pb2
from referee.clock import SeatClock, TimeControl
from referee.engine import Event, GameConfig, GameResult, GameState, Option, Seat
from referee.wire import GameWire


def event_messages(wire: GameWire, events: Sequence[tuple[int, Event]]) -> list[arena_pb2.Event]:
    return [arena_pb2.Event(**event_fields(wire, index, event)) for index, event in events]


def event_fields(wire: GameWire, index: int, event: Event) -> dict[str, Any]:
    """An arena Event's fields as a dict (a request is then built in one constructor call)."""
    return {"sequence": index, "kind": event.kind, "data": wire.any_event(event)}


def seat_events(state: GameState, seat: Seat, start: int) -> list[tuple[int, Event]]:
    """Events from log position `start` on that `seat` may see, with their positions."""
    return [(start + offset, event) for offset, event in enumerate(state.events.since(start)) if event.visible_to(seat)]


def game_start(
    match_id: str, config: GameConfig, seat: Seat, time_control: TimeControl, seed_commitment: str = ""
) -> arena_pb2.RefereeMessage:
    variants = struct_pb2.Struct()
    variants.update(dict(config.variants))
    return arena_pb2.RefereeMessage(
        game_start=arena_pb2.GameStart(
            match_id=match_id,
            game=config.game_id,
            seat=seat,
            players=config.players,
            variants=variants,
            time_control=arena_pb2.TimeControl(
                per_decision_seconds=time_control.per_decision_seconds,
                bank_seconds=time_control.bank_seconds,
                increment_seconds=time_control.increment_seconds,
                startup_seconds=time_control.startup_seconds,
            ),
            seed_commitment=seed_commitment,
        )
    )


def decision_request(
    wire: GameWire,
    request_id: int,
    state: GameState,
    seat: Seat,
    options: Sequence[Option],
    events: Sequence[tuple[int, Event]],
    clock: SeatClock,
) -> arena_pb2.DecisionRequest:
    # Nested dicts, not messages: the constructor builds every part in C instead of copying messages in.
    return arena_pb2.DecisionRequest(
        request_id=request_id,
        decision=state.decision_name(seat),
        view=wire.any_view(state.private_view(seat)),
        options=[{"id": o.id, "label": o.label, "payload": wire.any_option(o)} for o in options],
        events=[event_fields(wire, index, event) for index, event in events],
        clock={
            "per_decision_seconds": clock.control.per_decision_seconds,
            "bank_remaining_seconds": clock.bank_remaining,
            "strikes": clock.strikes,
            "strikes_allowed": clock.control.strikes_allowed,
        },
    )


def game_over(
    wire: GameWire, result: GameResult, ranks: Sequence[int], events: Sequence[tuple[int, Event]], summary: str,
    seed: int = 0,
) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(
        game_over=arena_pb2.GameOver(
            ranks=list(ranks),
            scores=[float(score) for score in result.scores],
            events=event_messages(wire, events),
            summary=summary,
            seed=seed,
        )
    )


def error(code: int, text: str, request_id: int = 0) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(error=arena_pb2.Error(code=code, message=text, request_id=request_id))
