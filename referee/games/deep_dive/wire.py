"""DEEP DIVE's typed messages on the wire."""

from b99.games import deep_dive_pb2 as pb

from referee.wire import GameWire

WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event)
