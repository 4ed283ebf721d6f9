"""The one failure taxonomy of the platform, and what a seat's report records of it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from collections.abc import Mapping
from typing import Any


class FaultKind(StrEnum):
    """What went wrong with a bot."""

    STARTUP = "startup"                 #: did not start, or never said hello in time
    PROTOCOL_ERROR = "protocol_error"   #: message out of order, for an unknown request, malformed
    ILLEGAL_OPTION = "illegal_option"   #: named an option that is not offered
    TIMEOUT = "timeout"                 #: answered too late (or never)
    CRASH = "crash"                     #: the process exited or the in-process bot raised
    DISCONNECT = "disconnect"           #: the stream ended while the process lived on
    MEMORY = "memory"                   #: killed at its memory cap
    CPU = "cpu"                         #: killed at its CPU-time cap
    OUTPUT_FLOOD = "output_flood"       #: wrote more output than its log cap
    FLOOD = "flood"                     #: sent the referee more messages, or a bigger one, than it holds for a seat


@dataclass(slots=True)
class Fault:
    """One fault of one seat; `decision_index` counts the match's decisions from 0, `seat_decision` the
    seat's own decisions from 1 (its request id: the number its author sees), None before its first."""

    kind: str
    detail: str
    decision_index: int | None = None
    seat_decision: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def fault_words(fault: Fault | Mapping[str, Any]) -> str:
    """A fault in its author's words: "kind at its decision N: detail", N counted over the seat's own
    decisions (a record without that number, from before it was kept, names no decision)."""
    record = fault.to_json() if isinstance(fault, Fault) else fault
    detail = str(record.get("detail") or "")
    number = record.get("seat_decision")
    where = f" at its decision {number}" if number is not None and f"at its decision {number}" not in detail else ""
    return f"{record.get('kind')}{where}: {detail}"
