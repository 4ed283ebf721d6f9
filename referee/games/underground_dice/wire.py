"""Underground Dice's typed messages (proto/b99/games/underground_dice.proto)."""

from b99.games import underground_dice_pb2 as pb

from referee.wire import GameWire

WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event)
