"""Fuji 99's typed protobuf messages (proto/b99/games/fuji99.proto)."""

from b99.games import fuji99_pb2 as pb

from referee.wire import GameWire

WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event)
