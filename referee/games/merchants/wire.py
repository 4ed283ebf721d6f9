"""Merchants of B99's typed messages (proto/b99/games/merchants.proto)."""

from __future__ import annotations

from b99.games import merchants_pb2 as pb

from referee.wire import GameWire

WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event)
