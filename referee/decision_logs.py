"""What each bot wrote (stdout and stderr) while it decided: cut per decision from the log files the referee
keeps, bounded per decision and per match, and recorded in the replay beside the decision.

A bot author reads it in the viewer at the step where it was written; the cut is made once the referee's log
pumps have copied everything the bot had written when its answer arrived (`LogPump.caught_up`), so a line the
bot wrote (and flushed) before answering is cut with that decision. Output a bot keeps in its own buffers
until later lands with the decision at which it is written out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: The most kept of one decision's output (its last bytes): a page shows it beside the decision.
PER_DECISION_BYTES = 2048
#: The most kept of one seat's output over a whole match (the replay stays small).
PER_SEAT_BYTES = 64 * 1024
#: The longest the referee waits at a decision for the log pumps to copy what the bots wrote before answering.
CATCH_UP_SECONDS = 0.25


@dataclass
class DecisionLogs:
    """Read offsets into each seat's stdout and stderr files, and what each seat has been given so far."""

    per_decision: int = PER_DECISION_BYTES
    per_seat: int = PER_SEAT_BYTES
    offsets: dict[tuple[int, str], int] = field(default_factory=dict)
    kept: dict[int, int] = field(default_factory=dict)

    def take(self, seat: int, streams: Mapping[str, Path]) -> str:
        """What the seat wrote to each stream since the last call, cut to the bounds ('' when nothing)."""
        parts: list[tuple[str, str]] = []
        for name, path in streams.items():
            try:
                size = path.stat().st_size
            except OSError:
                continue
            start = self.offsets.get((seat, name), 0)
            self.offsets[(seat, name)] = size
            if size <= start:
                continue
            room = min(self.per_decision, self.per_seat - self.kept.get(seat, 0))
            if room <= 0:
                parts.append((name, f"({size - start} bytes not kept: this match's log budget of {self.per_seat} bytes is spent)"))
                continue
            with path.open("rb") as handle:
                handle.seek(max(start, size - room))
                data = handle.read(min(room, size - start))
            self.kept[seat] = self.kept.get(seat, 0) + len(data)
            text = data.decode("utf-8", errors="replace")
            if size - start > len(data):
                text = f"(the first {size - start - len(data)} bytes are not kept)\n" + text
            parts.append((name, text.rstrip("\n")))
        if len(parts) == 1 and parts[0][0] == "stderr":
            return parts[0][1]
        return "\n".join(f"[{name}]\n{text}" for name, text in parts)

    def record(self, seats: Mapping[int, Mapping[str, Path]]) -> dict[str, object] | None:
        """A replay record of what the seats (seat -> its stream files) wrote while deciding; None when nothing."""
        logs = {str(seat): text for seat, streams in sorted(seats.items()) if (text := self.take(seat, streams))}
        return {"type": "logs", "seats": logs} if logs else None
