"""DEEP DIVE's playout policy: the heuristic's own choices, read straight from the engine state.

The heuristic (bots/heuristic/deep_dive.py) reads a few fields of a view: the depths' face-down,
unseen and face-up tiles, its own board and, solo, the AI. Inside a search, where it decides every
move of every playout, building the whole view (every seat's board and score, every depth's
revealed tiles) for each decision cost a fifth of a playout. This policy gives it a view whose
fields are computed only when read (`LazyView`): same values, so the same choices (the suite
checks it on many positions).
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.heuristic.deep_dive import HeuristicBot
from referee.engine import GameState, Option, Seat
from referee.games.deep_dive.views import LazyView


class FastDeepDiveHeuristic(HeuristicBot):
    """The DEEP DIVE heuristic deciding from an engine state (`choose_in_state`)."""

    name = "deep_dive_heuristic_fast"

    def choose_in_state(self, state: GameState, seat: Seat, options: Sequence[Option]) -> str:
        """The heuristic's option id for `seat` in `state` among its legal `options`."""
        return self.decide(LazyView(state, seat), seat, options)  # type: ignore[arg-type]
