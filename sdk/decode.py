"""Turning the referee's protobuf messages into the SDK's typed records (views as dicts with proto field names).

A decision request is decoded lazily: its record reads the message it came from, each field when the bot
first reads it (a bot that answers by index reads one option's id and nothing else). The message must not
change afterwards; the SDK parses a fresh one for every request.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from google.protobuf import any_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

import b99.arena_pb2 as arena_pb2
from sdk.types import ClockInfo, EventInfo, GameOverInfo, GameStartInfo, OptionInfo, Packed, Request, read_once


def load_game_messages(game: str) -> None:
    """Import the game's generated module so its message types can be unpacked from Any."""
    importlib.import_module(f"b99.games.{game}_pb2")


@cache
def message_class(type_name: str) -> type[Message]:
    """The generated class of a message type, looked up once per type (a game has a handful)."""
    return message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(type_name))


def unpack(packed: any_pb2.Any) -> Message | None:
    """The typed message inside an Any (None when empty)."""
    if not packed.type_url:
        return None
    message = message_class(packed.TypeName())()
    packed.Unpack(message)
    return message


def message_dict(message: Message | None) -> dict[str, Any]:
    """A message as a dict keyed by proto field names, every non-optional field present.

    The same dict as protobuf's json_format (the options below), keys in the same order, built by a
    decoder made once per message type (`dict_decoder`)."""
    if message is None:
        return {}
    return dict_decoder(message.DESCRIPTOR)(message)


def json_format_dict(message: Message) -> dict[str, Any]:
    """protobuf's own conversion, for the message types `dict_decoder` leaves to it."""
    return json_format.MessageToDict(
        message,
        preserving_proto_field_name=True,
        always_print_fields_with_no_presence=True,
        unquote_int64_if_possible=True,
    )


Converter = Callable[[Any], Any]
_INT64 = (FieldDescriptor.CPPTYPE_INT64, FieldDescriptor.CPPTYPE_UINT64)
_AS_IS = (FieldDescriptor.CPPTYPE_INT32, FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_BOOL)


def _int64(value: int) -> int | str:
    return value if float(value) == value else str(value)


def _nested(value: Message) -> dict[str, Any]:
    return dict_decoder(value.DESCRIPTOR)(value)


def _value_converter(field: FieldDescriptor) -> Converter | None:
    """How json_format writes one value of `field`; None for kinds left to json_format (floats, enums, bytes)."""
    if field.cpp_type == FieldDescriptor.CPPTYPE_MESSAGE:
        return _nested
    if field.cpp_type in _AS_IS or (field.cpp_type == FieldDescriptor.CPPTYPE_STRING and field.type == FieldDescriptor.TYPE_STRING):
        return _same
    if field.cpp_type in _INT64:
        return _int64
    return None


def _repeated(field: FieldDescriptor) -> bool:
    """Whether a field is repeated (`is_repeated` is newer than the oldest protobuf the SDK supports)."""
    repeated = getattr(field, "is_repeated", None)
    return field.label == FieldDescriptor.LABEL_REPEATED if repeated is None else bool(repeated)


def _same(value: Any) -> Any:  # noqa: ANN401 - any scalar, as it is
    return value


def _field_converter(field: FieldDescriptor) -> Converter | None:
    """How json_format writes a whole field's value (a map, a list, or one value); None: left to json_format."""
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        key = field.message_type.fields_by_name["key"]
        value = _value_converter(field.message_type.fields_by_name["value"])
        if value is None or key.cpp_type == FieldDescriptor.CPPTYPE_BOOL:
            return None
        return lambda entries: {str(k): value(entries[k]) for k in entries}
    one = _value_converter(field)
    if one is None:
        return None
    if _repeated(field):
        return list if one is _same else (lambda values: [one(v) for v in values])
    return one


@cache
def dict_decoder(descriptor: Descriptor) -> Callable[[Message], dict[str, Any]]:
    """A function turning messages of this type into json_format's dict: the set fields in field-number
    order (protobuf's ListFields), then every unset field without presence, as its default, in declaration
    order. Types with a kind it does not cover (floats, enums, bytes, well-known types, extensions) are
    left to json_format whole."""
    if descriptor.full_name.startswith("google.protobuf.") or descriptor.extension_ranges:
        return json_format_dict
    converters: dict[str, Converter] = {}
    defaults: list[tuple[str, Callable[[], Any]]] = []
    for field in descriptor.fields:
        converter = _field_converter(field)
        if converter is None:
            return json_format_dict
        converters[field.name] = converter
        if field.has_presence:
            continue
        if _repeated(field) and field.message_type is not None and field.message_type.GetOptions().map_entry:
            defaults.append((field.name, dict))
        elif _repeated(field):
            defaults.append((field.name, list))
        else:
            default = converter(field.default_value)
            defaults.append((field.name, lambda default=default: default))

    def decode(message: Message) -> dict[str, Any]:
        js = {field.name: converters[field.name](value) for field, value in message.ListFields()}
        for name, make in defaults:
            if name not in js:
                js[name] = make()
        return js

    return decode


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


class WireOption(OptionInfo):
    """An OptionInfo read from its protobuf option on first use of each field (see `request_info`)."""

    _wire: arena_pb2.Option

    @read_once
    def id(self) -> str:  # type: ignore[override]
        return self._wire.id

    @read_once
    def label(self) -> str:  # type: ignore[override]
        return self._wire.label

    @read_once
    def packed_payload(self) -> Packed:  # type: ignore[override]
        return Packed(self._wire.payload, unpack, message_dict)


def _wire_option(index: int, wire: arena_pb2.Option) -> WireOption:
    option = WireOption.__new__(WireOption)  # the dataclass __init__ would store every field at once
    option.index = index
    option._wire = wire
    return option


class WireRequest(Request):
    """A Request whose fields are read from its DecisionRequest when the bot first reads them.

    It is a Request in every way (`dataclasses.replace` and the constructor work as for any Request);
    only the decoding is deferred, field by field, and done once.
    """

    _wire: arena_pb2.DecisionRequest

    @read_once
    def decision(self) -> str:  # type: ignore[override]
        return self._wire.decision

    @read_once
    def options(self) -> list[OptionInfo]:  # type: ignore[override]
        return [_wire_option(index, option) for index, option in enumerate(self._wire.options)]

    @read_once
    def events(self) -> list[EventInfo]:  # type: ignore[override]
        return [event_info(event) for event in self._wire.events]

    @read_once
    def clock(self) -> ClockInfo:  # type: ignore[override]
        clock = self._wire.clock
        return ClockInfo(clock.per_decision_seconds, clock.bank_remaining_seconds, clock.strikes, clock.strikes_allowed)

    @read_once
    def packed_view(self) -> Packed:  # type: ignore[override]
        return Packed(self._wire.view, unpack, message_dict)

    @read_once
    def packed_world(self) -> bytes:  # type: ignore[override]
        return self._wire.world

    def wire_option_id(self, index: int) -> str | None:
        """The id of the option at `index` read from the message (None if there is none), decoding no option."""
        options = self._wire.options
        return options[index].id if 0 <= index < len(options) else None


def request_info(start: GameStartInfo, request: arena_pb2.DecisionRequest) -> Request:
    """The Request of a decision request, decoded lazily (a WireRequest): each field on first read."""
    info = WireRequest.__new__(WireRequest)  # the dataclass __init__ would decode every field at once
    info._wire = request
    info.request_id = request.request_id
    info.game = start.game
    info.seat = start.seat
    info.players = start.players
    info.variants = start.variants
    info.local_world = None
    return info


def game_over_info(over: arena_pb2.GameOver) -> GameOverInfo:
    return GameOverInfo(
        ranks=list(over.ranks),
        scores=list(over.scores),
        events=[event_info(event) for event in over.events],
        summary=over.summary,
        seed=over.seed,
    )
