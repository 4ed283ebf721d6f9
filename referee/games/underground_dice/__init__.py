"""Underground Dice (spec: games/underground_dice.md): the parent sets dice in secret, the child stakes and guesses."""

from referee.games.underground_dice.game import UndergroundDiceGame

GAME = UndergroundDiceGame()

__all__ = ["GAME", "UndergroundDiceGame"]
