"""Fuji 99: engine (state.py), card effects (effects.py), data (fuji99.json, data.py), views, scoring."""

from referee.games.fuji99.game import Fuji99Game

GAME = Fuji99Game()
