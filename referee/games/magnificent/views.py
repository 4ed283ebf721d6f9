"""Views of The Magnificent, built field by field; every field is public (spec §5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.games.magnificent.data import COLOURS, DIE_COLOURS
from referee.games.magnificent.model import position_label

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState


def build_view(state: MagnificentState, seat: int | None) -> dict[str, Any]:
    return {}
