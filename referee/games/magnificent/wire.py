"""The Magnificent's typed messages on the wire."""

from b99.games import magnificent_pb2 as pb

from referee.wire import GameWire

WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event)
