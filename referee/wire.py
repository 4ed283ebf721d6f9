"""Encoding engine views, options and events as each game's typed protobuf messages (and back).

An engine speaks JSON-able dicts whose keys are its proto fields; each game's `wire.py` names the
three message types (View, OptionPayload, Event). Encoding is strict: a key the proto lacks is an
error, so a view can never carry a field its message does not declare.
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


@dataclass(frozen=True, slots=True)
class GameWire:
    """The typed messages of one game."""

    view: type[Message]
    option: type[Message]
    event: type[Message]

    def view_message(self, view: Mapping[str, Any]) -> Message:
        return fill(self.view(), view)

    def option_message(self, payload: Mapping[str, Any]) -> Message:
        return fill(self.option(), payload)

    def event_message(self, event: Event) -> Message:
        return fill(self.event(), {event.kind: event.data})

    def pack_view(self, view: Mapping[str, Any]) -> any_pb2.Any:
        return pack(self.view_message(view))

    def pack_option(self, option: Option) -> any_pb2.Any:
        return pack(self.option_message(option.payload))

    def pack_event(self, event: Event) -> any_pb2.Any:
        return pack(self.event_message(event))


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


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
