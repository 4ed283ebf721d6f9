"""Turning the referee's protobuf messages into the SDK's typed records (views as dicts with proto field names)."""

from __future__ import annotations

import importlib
from typing import Any

from google.protobuf import any_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.message import Message

import b99.arena_pb2 as arena_pb2
from sdk.types import ClockInfo, EventInfo, GameOverInfo, GameStartInfo, OptionInfo, Packed, Request


def load_game_messages(game: str) -> None:
    """Import the game's generated module so its message types can be unpacked from Any."""
    importlib.import_module(f"b99.games.{game}_pb2")


def unpack(packed: any_pb2.Any) -> Message | None:
    """The typed message inside an Any (None when empty)."""
    if not packed.type_url:
        return None
    descriptor = descriptor_pool.Default().FindMessageTypeByName(packed.TypeName())
    message = message_factory.GetMessageClass(descriptor)()
    packed.Unpack(message)
    return message


def message_dict(message: Message | None) -> dict[str, Any]:
    """A message as a dict keyed by proto field names, every non-optional field present."""
    if message is None:
        return {}
    return json_format.MessageToDict(
        message,
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
        unquote_int64_if_possible=True,
    )


def event_info(event: arena_pb2.Event) -> EventInfo:
    return EventInfo(event.sequence, event.kind, Packed(event.data, unpack, message_dict))


def game_start_info(start: arena_pb2.GameStart) -> GameStartInfo:
    load_game_messages(start.game)
    return GameStartInfo(
        match_id=start.match_id,
        game=start.game,
        seat=start.seat,
        players=start.players,
        variants=json_format.MessageToDict(start.variants),
        events=[event_info(event) for event in start.events],
        seed_commitment=start.seed_commitment,
    )


def request_info(start: GameStartInfo, request: arena_pb2.DecisionRequest) -> Request:
    options = [
        OptionInfo(index, option.id, option.label, Packed(option.payload, unpack, message_dict))
        for index, option in enumerate(request.options)
    ]
    clock = request.clock
    return Request(
        request_id=request.request_id,
        game=start.game,
        seat=start.seat,
        players=start.players,
        variants=start.variants,
        decision=request.decision,
        options=options,
        events=[event_info(event) for event in request.events],
        clock=ClockInfo(
            clock.per_decision_seconds, clock.bank_remaining_seconds, clock.strikes, clock.strikes_allowed
        ),
        packed_view=Packed(request.view, unpack, message_dict),
        packed_world=request.world,
    )


def game_over_info(over: arena_pb2.GameOver) -> GameOverInfo:
    return GameOverInfo(
        ranks=list(over.ranks),
        scores=list(over.scores),
        events=[event_info(event) for event in over.events],
        summary=over.summary,
        seed=over.seed,
    )
