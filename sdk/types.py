"""What a bot sees: typed, read-only records of a game start, a decision request and a game over.

Views, option payloads and event data are dicts keyed by the game's proto field names, with every
non-optional field present (optional fields appear only when set). The typed protobuf messages are
there too (`view_message`, `payload_message`, `data_message`) for bots that prefer them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import Message


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One legal option of a request: answer with its `id` (or its `index`)."""

    index: int
    id: str
    label: str
    payload: Mapping[str, Any]
    payload_message: Message | None = None


@dataclass(frozen=True, slots=True)
class EventInfo:
    """One event this seat may see."""

    sequence: int
    kind: str
    data: Mapping[str, Any]
    data_message: Message | None = None


@dataclass(frozen=True, slots=True)
class ClockInfo:
    """The seat's clock when the request was sent."""

    per_decision_seconds: float
    bank_remaining_seconds: float
    strikes: int = 0
    strikes_allowed: int = 0


@dataclass(frozen=True, slots=True)
class GameStartInfo:
    match_id: str
    game: str
    seat: int
    players: int
    variants: Mapping[str, Any]
    events: Sequence[EventInfo] = ()


@dataclass(frozen=True, slots=True)
class Request:
    """One decision to make: the seat's private view, its legal options and what happened since last time."""

    request_id: int
    game: str
    seat: int
    players: int
    variants: Mapping[str, Any]
    decision: str
    view: Mapping[str, Any]
    options: Sequence[OptionInfo]
    events: Sequence[EventInfo]
    clock: ClockInfo
    view_message: Message | None = None

    def option(self, option_id: str) -> OptionInfo:
        """The option with this id (KeyError if there is none)."""
        for option in self.options:
            if option.id == option_id:
                return option
        raise KeyError(option_id)


@dataclass(frozen=True, slots=True)
class GameOverInfo:
    ranks: Sequence[int]
    scores: Sequence[float]
    events: Sequence[EventInfo] = ()
    summary: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
