"""Fuji 99 option objects: immutable, so each distinct one is built once and shared by every state."""

from __future__ import annotations

from functools import cache

from referee.engine import Option

END_USE = Option("end_use", "use no more cards", {"action": "end_use"})
CONTINUE = Option("continue", "put the cubes back and draw again", {"action": "continue"})


@cache
def use_option(card: str, name: str, cost: int | None) -> Option:
    """D2: use this card of the hand."""
    return Option(f"use:{card}", f"use {name} ({card}) for {cost} yellow", {"action": "use", "card": card})


@cache
def stop_option(space: int) -> Option:
    """D3: stop with the movement piece on this space."""
    return Option("stop", f"stop on space {space}", {"action": "stop"})


@cache
def place_option(card: str) -> Option:
    """D4: one clear cube from the pagoda onto this card."""
    return Option(f"place:{card}", f"place a clear cube on {card}", {"action": "place", "card": card})


@cache
def draw_options(size: int, minimum: int) -> tuple[Option, ...]:
    """D1: draw N for N from the minimum to the bag size, or the whole bag if it is smaller."""
    counts = [size] if size < minimum else range(minimum, size + 1)
    return tuple(Option(f"draw:{n}", f"draw {n} cubes", {"action": "draw", "count": n}) for n in counts)
