"""Merchants of B99: simultaneous tile drafting into a 4×4 shop, trend cards, reputation, 1 to 4 players."""

from __future__ import annotations

from referee.compiled import prefer_current_sources

prefer_current_sources()  # before the engine's modules load: a source edited since the build runs as Python

from referee.games.merchants.game import GAME, MerchantsGame  # noqa: E402 - after the guard above

__all__ = ["GAME", "MerchantsGame"]
