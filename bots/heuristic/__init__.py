"""Per-game heuristic reference bots: bots/heuristic/<game id>.py defines HeuristicBot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class OptionLike(Protocol):
    """A request's option (`sdk.OptionInfo`) or an engine's (`referee.engine.Option`)."""

    @property
    def id(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...
