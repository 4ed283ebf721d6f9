"""Building the protobuf messages a seat receives, from that seat's view, options and events only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.protobuf import struct_pb2

import b99.arena_pb2 as arena_pb2
from referee.clock import SeatClock, TimeControl
from referee.engine import Event, GameConfig, GameResult, GameState, Option, Seat
from referee.wire import (
    ANY_VALUE,
    EVENT_SEQUENCE,
    GameWire,
    SharedParts,
    double_field,
    key,
    message_field,
    string_field,
    varint,
    varint_field,
)


def event_messages(wire: GameWire, events: Sequence[tuple[int, Event]]) -> list[arena_pb2.Event]:
    return [arena_pb2.Event(**event_fields(wire, index, event)) for index, event in events]


def event_fields(wire: GameWire, index: int, event: Event) -> dict[str, Any]:
    """An arena Event's fields as a dict (a request is then built in one constructor call)."""
    return {"sequence": index, "kind": event.kind, "data": wire.any_event(event)}


def seat_events(state: GameState, seat: Seat, start: int) -> list[tuple[int, Event]]:
    """Events from log position `start` on that `seat` may see, with their positions."""
    # Event.visible_to, inline: this runs for every event of every request.
    return [
        (position, event)
        for position, event in enumerate(state.events.since(start), start)
        if event.audience is None or seat in event.audience
    ]


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
    """The DecisionRequest `seat` is sent (the body of `decision_message`, which the runner sends whole)."""
    return decision_message(wire, request_id, state, seat, options, events, clock).decision_request


def decision_message(
    wire: GameWire,
    request_id: int,
    state: GameState,
    seat: Seat,
    options: Sequence[Option],
    events: Sequence[tuple[int, Event]],
    clock: SeatClock,
    shared: SharedParts | None = None,
) -> arena_pb2.RefereeMessage:
    """A RefereeMessage holding `seat`'s DecisionRequest, written as bytes and parsed once in protobuf's C runtime.

    Options and events are serialized once per object (`GameWire.options_fields`, `event_tail`) and the view
    straight from the state where the game has a writer, so a request costs the joining of its parts.
    `shared`: one dict for all the requests of one decision (the state unchanged), so that what every
    seat's view shows alike is written once.
    """
    view = wire.seat_view_bytes(state, seat, shared)
    view_any = wire.view_type_url + message_field(ANY_VALUE, view) if view else wire.view_type_url
    parts = [
        varint_field(REQUEST_ID, request_id),
        string_field(REQUEST_DECISION, state.decision_name(seat)),
        REQUEST_VIEW + varint(len(view_any)) + view_any,
        wire.options_fields(options),
    ]
    if events:
        event_tail = wire.event_tail
        for sequence, event in events:
            body = (EVENT_SEQUENCE + varint(sequence) if sequence else b"") + event_tail(event)
            parts.append(REQUEST_EVENT + varint(len(body)) + body)
    control = clock.control
    clock_key = (control.per_decision_seconds, clock.bank_remaining, clock.strikes, control.strikes_allowed)
    clock_field = _CLOCKS.get(clock_key)
    if clock_field is None:
        clock_field = _clock_field(*clock_key)
        if len(_CLOCKS) >= 256:
            _CLOCKS.clear()
        _CLOCKS[clock_key] = clock_field
    parts.append(clock_field)
    return arena_pb2.RefereeMessage.FromString(message_field(MESSAGE_DECISION_REQUEST, b"".join(parts)))


def _clock_field(per_decision: float, bank: float, strikes: int, strikes_allowed: int) -> bytes:
    """DecisionRequest's clock (field 6)."""
    return message_field(
        REQUEST_CLOCK,
        double_field(CLOCK_PER_DECISION, per_decision)
        + double_field(CLOCK_BANK, bank)
        + varint_field(CLOCK_STRIKES, strikes)
        + varint_field(CLOCK_STRIKES_ALLOWED, strikes_allowed),
    )


#: Clock fields already written, by their four values (a bank changes only when a seat overruns its allowance).
_CLOCKS: dict[tuple[float, float, int, int], bytes] = {}
MESSAGE_DECISION_REQUEST = key(2, 2)
REQUEST_ID, REQUEST_DECISION, REQUEST_VIEW, REQUEST_EVENT, REQUEST_CLOCK = key(1, 0), key(2, 2), key(3, 2), key(5, 2), key(6, 2)
CLOCK_PER_DECISION, CLOCK_BANK, CLOCK_STRIKES, CLOCK_STRIKES_ALLOWED = key(1, 1), key(2, 1), key(3, 0), key(4, 0)


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
