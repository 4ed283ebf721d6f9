"""Events, options and decisions in words for people (the viewer's step log, the terminal seat)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

def value_words(value: Any) -> str:  # noqa: ANN401 - any JSON value
    """A JSON value as short text: yes/no, whole floats without '.0', lists and mappings inline."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {value_words(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(value_words(item) for item in value) + "]"
    return str(value)


def event_words(kind: str, data: Mapping[str, Any]) -> str:
    """One event as a sentence-like line: who first (when the event names a seat), then what and its details."""
    who = ""
    for key in ("seat", "player"):
        if isinstance(data.get(key), int) and not isinstance(data.get(key), bool):
            who = f"seat {data[key]}: "
            break
    details = ", ".join(
        f"{key.replace('_', ' ')} {value_words(value)}" for key, value in data.items() if not (who and key in ("seat", "player"))
    )
    return f"{who}{kind.replace('_', ' ')}" + (f" ({details})" if details else "")


#: View fields whose ids are not worth explaining one by one (tiles not yet seen, discard piles).
UNEXPLAINED_FIELDS = ("unseen", "discard", "removed", "solo_removed", "poster_discard", "captured_tiles", "discarded_rocks")
ID_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_#-]*")


def ids_in(value: Any, skip: tuple[str, ...] = UNEXPLAINED_FIELDS) -> list[str]:  # noqa: ANN401 - any JSON value
    """Every string token in a JSON value, in order of appearance, leaving out the fields in `skip`."""
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key not in skip:
                found.extend(ids_in(item, skip))
    elif isinstance(value, list):
        for item in value:
            found.extend(ids_in(item, skip))
    elif isinstance(value, str):
        found.extend(ID_TOKEN.findall(value))
    return found


def explain(tokens: list[str], glossary: Mapping[str, str]) -> list[str]:
    """'id: what it is' for each token that names a component, once each, in order."""
    seen: dict[str, str] = {}
    for token in tokens:
        if token in glossary and token not in seen:
            seen[token] = glossary[token]
    return [f"{key}: {text}" for key, text in seen.items()]
