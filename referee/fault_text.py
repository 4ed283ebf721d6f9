"""How a seat's faults are shown to the bot's author: each fault, then the last lines of its stderr.

The stderr tail holds the bot's own last words (a traceback, `python: not found`) and, for a bot
behind `b99 bridge`, the bridge's reason (the command did not start, exited with code 127, ...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Group
from rich.text import Text

from referee.clock import SeatClock
from referee.faults import Fault, FaultKind

#: Lines of a bot's stderr shown under its faults.
STDERR_LINES = 8


def last_lines(text: str, count: int = STDERR_LINES) -> list[str]:
    """The last `count` non-empty lines of `text` (a bot's stderr tail), right-stripped."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    return lines[-count:]


#: What `b99 bridge` writes to the bot's stderr when the bot's reply cannot be a decision.
BRIDGE_PREFIX = "b99 bridge: "


def fault_reason(fault: Fault, stderr_tail: str) -> str:
    """A fault's detail; for a bridged bot whose reply named no option, the bridge's own reason (the line the
    bot printed) instead of the referee's 'decision names no option'."""
    if fault.kind == FaultKind.PROTOCOL_ERROR and fault.detail == "decision names no option":
        said = [line.removeprefix(BRIDGE_PREFIX) for line in last_lines(stderr_tail, 40) if line.startswith(BRIDGE_PREFIX + "your bot printed")]
        if said:
            return said[-1]
    return fault.detail


def fault_block(title: str, faults: Sequence[Fault], stderr_tail: str, replaced: bool = False) -> Group:
    """`title`, each fault on an indented line, then the stderr tail's last lines (or that it was empty)."""
    parts = [Text(title, style="bold")]
    for fault in faults:
        where = f" at decision {fault.decision_index}" if fault.decision_index is not None else ""
        parts.append(Text(f"  {fault.kind}{where}: {fault_reason(fault, stderr_tail)}", style="red"))
    if replaced:
        parts.append(Text("  the fallback played this seat on; ranked last", style="dim"))
    tail = last_lines(stderr_tail)
    if tail:
        parts.append(Text(f"  last {len(tail)} line(s) of its stderr:", style="dim"))
        parts.extend(Text(f"    | {line}") for line in tail)
    else:
        parts.append(Text("  its stderr was empty", style="dim"))
    return Group(*parts)


_TOOK = re.compile(r"answered after ([0-9.]+)s")


def _seconds(value: float) -> str:
    return f"{value:g} s" if value == int(value) else f"{value:.1f} s"


def timeout_fault(fault: Fault, clock: SeatClock, request_id: int) -> Fault:
    """A timeout in the bot author's words: how long the bot took at its own n-th decision, against the
    per-decision allowance and the bank it had left (read before the timeout spends the bank)."""
    if fault.kind != FaultKind.TIMEOUT:
        return fault
    took = _TOOK.search(fault.detail)
    what = f"your bot took {float(took.group(1)):.1f} s" if took else f"your bot did not answer within {clock.deadline_seconds():.1f} s"
    # A timeout spends whatever bank the seat had left when it was asked (answers book the bank, timeouts zero it).
    bank, total = clock.bank_remaining, clock.control.bank_seconds
    limit = f"its limit was {_seconds(clock.control.per_decision_seconds)} per decision"
    if bank >= total - 0.05 and total > 0:
        limit += f" plus a {_seconds(total)} bank, spent"
    elif bank > 0:
        limit += f" plus the {bank:.1f} s left of its bank, spent"
    notes = fault.detail.partition("; ")[2]
    detail = f"{what} at its decision {request_id}; {limit}" + (f"; {notes}" if notes else "")
    return Fault(fault.kind, detail, fault.decision_index)
