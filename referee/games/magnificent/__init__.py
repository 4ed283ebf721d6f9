"""The Magnificent: dice drafting, camp building, travelling and performing (spec shared/games/magnificent.md)."""

from referee.games.magnificent.game import MagnificentGame

GAME = MagnificentGame()

__all__ = ["GAME", "MagnificentGame"]
