"""DEEP DIVE: push-your-luck penguin dives for food tiles, 1 to 6 players (solo against an engine-run AI)."""

from referee.games.deep_dive.game import DeepDiveGame

GAME = DeepDiveGame()
