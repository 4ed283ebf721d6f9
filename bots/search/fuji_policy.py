"""Fuji 99's playout policy: the heuristic's own choices, read straight from the engine state.

The heuristic (bots/heuristic/fuji99.py) reads a handful of a view's fields; inside a search, where
it decides every move of every playout, building the whole view for each decision cost more than
the decision itself. This policy gives it a view whose fields are computed only when read
(`LazyView`), and the cards left in the deck from the state instead of subtracting every seen card
from the deck list. Same values, so the same choices (the suite checks it on many positions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bots.heuristic.fuji99 import HeuristicBot
from referee.engine import GameState, Option, Seat
from referee.games.fuji99.views import LazyView


class FastFujiHeuristic(HeuristicBot):
    """The Fuji 99 heuristic deciding from an engine state (`choose_in_state`)."""

    name = "fuji99-heuristic-fast"

    def choose_in_state(self, state: GameState, seat: Seat, options: Sequence[Option]) -> str:
        """The heuristic's option id for `seat` in `state` among its legal `options`."""
        return self.decide(LazyView(state, seat), state.decision_name(seat), options)  # type: ignore[arg-type]

    def _deck(self, view: Mapping[str, Any]) -> list[str]:
        state = view.state if isinstance(view, LazyView) else None
        if state is None:
            return super()._deck(view)
        return list(state.deck) if state.deck else list(state.discard)
