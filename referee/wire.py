"""Encoding engine views, options and events as each game's typed protobuf messages (and back).

An engine speaks JSON-able dicts whose keys are its proto fields; each game's `wire.py` names the
three message types (View, OptionPayload, Event). Encoding is strict: a key the proto lacks is an
error, so a view can never carry a field its message does not declare.

A dict is handed to the message's constructor, which fills nested messages, lists and maps in
protobuf's C runtime in one call; only a dict the constructor refuses goes through `fill`, which
says which field is wrong (or, where it is more lenient, encodes it the same way as before).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from google.protobuf import any_pb2, json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from referee.engine import Event, Option


class WireError(ValueError):
    """An engine dict does not fit its game's message (a key the proto lacks, or a wrong type)."""


@cache
def _fields(descriptor: Descriptor) -> dict[str, tuple[str, FieldDescriptor]]:
    """Each field of a message type with how a dict value is put into it."""
    table: dict[str, tuple[str, FieldDescriptor]] = {}
    for field in descriptor.fields:
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
            kind = "map_message" if value_field.message_type is not None else "map_scalar"
        elif field.message_type is not None:
            kind = "repeated_message" if field.is_repeated else "message"
        elif field.is_repeated:
            kind = "repeated_scalar"
        elif field.type == FieldDescriptor.TYPE_ENUM:
            kind = "enum"
        else:
            kind = "scalar"
        table[field.name] = (kind, field)
    return table


def fill(message: Message, data: Mapping[str, Any]) -> Message:
    """Set `message`'s fields from a dict keyed by proto field names; strict, and much faster than ParseDict.

    None means "not set". Unknown keys and values of the wrong type raise WireError naming the path.
    """
    fields = _fields(message.DESCRIPTOR)
    for key, value in data.items():
        if value is None:
            continue
        entry = fields.get(key)
        if entry is None:
            raise WireError(f"{message.DESCRIPTOR.full_name} has no field {key!r}")
        kind, field = entry
        try:
            if kind == "scalar":
                setattr(message, key, value)
            elif kind == "message":
                fill(getattr(message, key), value)
            elif kind == "repeated_scalar":
                getattr(message, key).extend(value)
            elif kind == "repeated_message":
                container = getattr(message, key)
                for item in value:
                    fill(container.add(), item)
            elif kind == "enum":
                setattr(message, key, field.enum_type.values_by_name[value].number if isinstance(value, str) else value)
            elif kind == "map_scalar":
                getattr(message, key).update(value)
            else:
                target = getattr(message, key)
                for map_key, map_value in value.items():
                    fill(target[map_key], map_value)
        except WireError as error:
            raise WireError(f"{message.DESCRIPTOR.name}.{key}: {error}") from None
        except (TypeError, ValueError, AttributeError, KeyError) as error:
            raise WireError(f"{message.DESCRIPTOR.full_name}.{key} = {value!r}: {error}") from None
    return message


def encode(message_type: type[Message], data: Mapping[str, Any]) -> Message:
    """A `message_type` with the fields of `data` (as `fill`), built by the message's constructor in C.

    `fill` runs only when the constructor refuses the dict: it raises the WireError that names the
    field, or encodes what the constructor is stricter about exactly as it always did.
    """
    try:
        return message_type(**data)
    except Exception:  # noqa: BLE001 - the constructor raises TypeError, ValueError, KeyError...; fill says which field
        return fill(message_type(), data)


#: The prefix of every Any's type URL (what `Any.Pack` writes).
TYPE_URL_PREFIX = "type.googleapis.com/"


@dataclass(frozen=True, slots=True)
class GameWire:
    """The typed messages of one game."""

    view: type[Message]
    option: type[Message]
    event: type[Message]

    def view_message(self, view: Mapping[str, Any]) -> Message:
        return encode(self.view, view)

    def option_message(self, payload: Mapping[str, Any]) -> Message:
        return encode(self.option, payload)

    def event_message(self, event: Event) -> Message:
        # An event without data leaves its oneof unset (the constructor would set it to an empty message).
        return encode(self.event, {event.kind: event.data}) if event.data else fill(self.event(), {event.kind: event.data})

    def pack_view(self, view: Mapping[str, Any]) -> any_pb2.Any:
        return pack(self.view_message(view))

    def pack_option(self, option: Option) -> any_pb2.Any:
        return pack(self.option_message(option.payload))

    def pack_event(self, event: Event) -> any_pb2.Any:
        return pack(self.event_message(event))

    def any_view(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """`pack_view` as the constructor arguments of an Any, for building a request in one call."""
        return packed_fields(self.view_message(view))

    def any_option(self, option: Option) -> dict[str, Any]:
        """`pack_option` as the constructor arguments of an Any."""
        return packed_fields(self.option_message(option.payload))

    def any_event(self, event: Event) -> dict[str, Any]:
        """`pack_event` as the constructor arguments of an Any."""
        return packed_fields(self.event_message(event))


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def packed_fields(message: Message) -> dict[str, Any]:
    """The fields of `message` packed in an Any (the same bytes `Any.Pack` writes), as a dict."""
    return {"type_url": TYPE_URL_PREFIX + message.DESCRIPTOR.full_name, "value": message.SerializeToString()}


def to_dict(message: Message) -> dict[str, Any]:
    """A typed message as a dict with the proto's field names (what engines produce)."""
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


@cache
def get_wire(game_id: str) -> GameWire:
    """The typed messages of `game_id`, from referee/games/<id>/wire.py."""
    module = importlib.import_module(f"referee.games.{game_id}.wire")
    wire = getattr(module, "WIRE")
    if not isinstance(wire, GameWire):
        raise TypeError(f"referee.games.{game_id}.wire.WIRE is not a GameWire")
    return wire
