"""Events, options and decisions in words for people (the viewer's step log, the terminal seat)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: Keys that name who an entry is about: they lead, and the rest follow in alphabetical order.
WHO_KEYS = ("seat", "player")


def _ordered(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A mapping's items in a stable order: who first, then by key (engines build them in varying orders)."""
    return sorted(data.items(), key=lambda item: (item[0] not in WHO_KEYS, WHO_KEYS.index(item[0]) if item[0] in WHO_KEYS else 0, item[0]))


def _scalar_words(value: Any) -> str | None:  # noqa: ANN401 - any JSON value
    """yes/no, none and whole floats without '.0'; None for any other value (each caller words those)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return None


def value_words(value: Any) -> str:  # noqa: ANN401 - any JSON value
    """A JSON value as short text: yes/no, whole floats without '.0', lists and mappings inline (the terminal view)."""
    scalar = _scalar_words(value)
    if scalar is not None:
        return scalar
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {value_words(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(value_words(item) for item in value) + "]"
    return str(value)


def plain_words(value: Any, top: bool = True) -> str:  # noqa: ANN401 - any JSON value
    """A JSON value as words for an event line: a mapping as 'key value' pairs in a stable order, a list of
    entries about seats as 'seat 0: ...; seat 1: ...' (no braces or brackets)."""
    scalar = _scalar_words(value)
    if scalar is not None:
        return scalar
    if isinstance(value, Mapping):
        return "(" + _pairs(value) + ")"
    if isinstance(value, list):
        if top and value and all(isinstance(item, Mapping) for item in value):
            return "; ".join(_entry(item) for item in value)
        return ", ".join(plain_words(item, top=False) for item in value) if value else "none"
    return str(value)


def _pairs(data: Mapping[str, Any]) -> str:
    return ", ".join(f"{key.replace('_', ' ')} {plain_words(item, top=False)}" for key, item in _ordered(data))


def _entry(data: Mapping[str, Any]) -> str:
    """One entry of a list: 'seat 0: the rest' when it names a seat, else its pairs."""
    for key in WHO_KEYS:
        if isinstance(data.get(key), int) and not isinstance(data.get(key), bool):
            rest = {k: v for k, v in data.items() if k != key}
            return f"seat {data[key]}: " + _pairs(rest)
    return _pairs(data)


def event_words(kind: str, data: Mapping[str, Any]) -> str:
    """One event as a sentence-like line: who first (when the event names a seat), then what and its details
    in a stable order."""
    who = ""
    for key in WHO_KEYS:
        if isinstance(data.get(key), int) and not isinstance(data.get(key), bool):
            who = f"seat {data[key]}: "
            break
    details = ", ".join(
        f"{key.replace('_', ' ')} {plain_words(value)}" for key, value in _ordered(data) if not (who and key in WHO_KEYS)
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
