"""How a seat's faults are shown to the bot's author: each fault, then the last lines of its stderr.

The stderr tail holds the bot's own last words (a traceback, `python: not found`) and, for a bot
behind `b99 bridge`, the bridge's reason (the command did not start, exited with code 127, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.text import Text

from referee.faults import Fault

#: Lines of a bot's stderr shown under its faults.
STDERR_LINES = 8


def last_lines(text: str, count: int = STDERR_LINES) -> list[str]:
    """The last `count` non-empty lines of `text` (a bot's stderr tail), right-stripped."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    return lines[-count:]


def fault_block(title: str, faults: Sequence[Fault], stderr_tail: str, replaced: bool = False) -> Group:
    """`title`, each fault on an indented line, then the stderr tail's last lines (or that it was empty)."""
    parts = [Text(title, style="bold")]
    for fault in faults:
        where = f" at decision {fault.decision_index}" if fault.decision_index is not None else ""
        parts.append(Text(f"  {fault.kind}{where}: {fault.detail}", style="red"))
    if replaced:
        parts.append(Text("  the fallback played this seat on; ranked last", style="dim"))
    tail = last_lines(stderr_tail)
    if tail:
        parts.append(Text(f"  last {len(tail)} line(s) of its stderr:", style="dim"))
        parts.extend(Text(f"    | {line}") for line in tail)
    else:
        parts.append(Text("  its stderr was empty", style="dim"))
    return Group(*parts)
