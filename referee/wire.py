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
from google.protobuf.message import Message

from referee.engine import Event, Option


@dataclass(frozen=True, slots=True)
class GameWire:
    """The typed messages of one game."""

    view: type[Message]
    option: type[Message]
    event: type[Message]

    def view_message(self, view: Mapping[str, Any]) -> Message:
        return json_format.ParseDict(view, self.view(), ignore_unknown_fields=False)

    def option_message(self, payload: Mapping[str, Any]) -> Message:
        return json_format.ParseDict(payload, self.option(), ignore_unknown_fields=False)

    def event_message(self, event: Event) -> Message:
        return json_format.ParseDict({event.kind: event.data}, self.event(), ignore_unknown_fields=False)

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
