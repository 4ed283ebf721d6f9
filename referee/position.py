"""Positions as data: a whole game state written to JSON and a game started from one (as FEN is for chess).

A position is `{"format": "b99-position/1", "game": ID, "config": {...}, "state": {...}}`. `state` holds
every attribute of the engine's state object that is not shared component data, encoded as plain JSON
where it can be (numbers, strings, lists, string-keyed objects) and tagged where it cannot:
`{"__tuple__": [...]}`, `{"__set__": [...]}`, `{"__dict__": [[key, value], ...]}` (keys that are not
strings), `{"__object__": "module.Class", "fields": {...}}` (the engines' own records, only classes of
`referee.` modules). The event log is not part of a position: a game started from one begins a new log.

Loading checks the position: the game and config, the attribute names and kinds against a fresh state of
that config, then the game's own rules of what can exist (`referee/games/<id>/position.py`: counts of
components, a component in two places), then that the position can be played (its decisions and
options can be listed). Any problem is a PositionError with one line saying what and where.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.compiled import instance_fields
from referee.engine import GameState
from referee.errors import ArenaError
from referee.registry import get_game

FORMAT = "b99-position/1"
#: Attributes never part of a position (history, not state).
NOT_STATE = frozenset({"events"})


class PositionError(ArenaError):
    """A position that cannot be read or cannot exist (with what is wrong and where)."""


def _encode(value: Any, where: str) -> Any:  # noqa: ANN401 - any engine value
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"__enum__": f"{type(value).__module__}.{type(value).__qualname__}", "name": value.name}
    if isinstance(value, list):
        return [_encode(item, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(item, f"{where}[{i}]") for i, item in enumerate(value)]}
    if isinstance(value, (set, frozenset)):
        tag = "__frozenset__" if isinstance(value, frozenset) else "__set__"
        items = [_encode(item, where) for item in value]
        return {tag: sorted(items, key=lambda item: json.dumps(item, sort_keys=True))}
    if isinstance(value, dict):
        if all(isinstance(key, str) and not key.startswith("__") for key in value):
            return {key: _encode(item, f"{where}.{key}") for key, item in value.items()}
        return {"__dict__": [[_encode(key, where), _encode(item, f"{where}[{key!r}]")] for key, item in value.items()]}
    kind = type(value)
    if kind.__module__.startswith("referee."):
        if dataclasses.is_dataclass(value):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        elif hasattr(value, "__dict__") or hasattr(kind, "__mypyc_attrs__"):
            fields = instance_fields(value)
        else:
            fields = {name: getattr(value, name) for name in getattr(kind, "__slots__", ())}
        return {"__object__": f"{kind.__module__}.{kind.__qualname__}", "fields": {k: _encode(v, f"{where}.{k}") for k, v in fields.items()}}
    raise PositionError(f"{where}: a {kind.__name__} cannot be written to a position")


def _engine_class(name: str, where: str) -> type:
    module_name, _, class_name = name.rpartition(".")
    if not module_name.startswith("referee."):
        raise PositionError(f"{where}: {name!r} is not a class of the engines")
    try:
        found = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError):
        raise PositionError(f"{where}: no class {name!r}") from None
    if not isinstance(found, type):
        raise PositionError(f"{where}: {name!r} is not a class")
    return found


def _decode(value: Any, where: str) -> Any:  # noqa: ANN401 - any JSON value
    if isinstance(value, list):
        return [_decode(item, f"{where}[{i}]") for i, item in enumerate(value)]
    if not isinstance(value, dict):
        return value
    if "__tuple__" in value:
        return tuple(_decode(item, f"{where}[{i}]") for i, item in enumerate(value["__tuple__"]))
    if "__set__" in value:
        return {_decode(item, where) for item in value["__set__"]}
    if "__frozenset__" in value:
        return frozenset(_decode(item, where) for item in value["__frozenset__"])
    if "__dict__" in value:
        return {_hashable(_decode(key, where), where): _decode(item, f"{where}[{key!r}]") for key, item in value["__dict__"]}
    if "__enum__" in value:
        kind = _engine_class(str(value["__enum__"]), where)
        try:
            return kind[value["name"]]  # type: ignore[index]
        except KeyError:
            raise PositionError(f"{where}: {value['__enum__']} has no member {value.get('name')!r}") from None
    if "__object__" in value:
        kind = _engine_class(str(value["__object__"]), where)
        fields = {key: _decode(item, f"{where}.{key}") for key, item in dict(value.get("fields", {})).items()}
        try:
            if dataclasses.is_dataclass(kind):
                return kind(**fields)
            made = object.__new__(kind)
            for key, item in fields.items():
                object.__setattr__(made, key, item)
            return made
        except (TypeError, AttributeError) as error:
            raise PositionError(f"{where}: not a {kind.__name__}: {error}") from None
    return {key: _decode(item, f"{where}.{key}") for key, item in value.items()}


def _hashable(value: Any, where: str) -> Any:  # noqa: ANN401
    try:
        hash(value)
    except TypeError:
        raise PositionError(f"{where}: a key must be a number, a string or a tuple, not {value!r}") from None
    return value


def _state_attributes(state: GameState, fresh: GameState) -> dict[str, Any]:
    """The state's own attributes: not the history, not what it shares with every state (component data)."""
    fresh_fields = instance_fields(fresh)
    return {
        name: value
        for name, value in instance_fields(state).items()
        if name not in NOT_STATE and not (name in fresh_fields and fresh_fields[name] is value and not _mutable(value))
    }


def _mutable(value: Any) -> bool:  # noqa: ANN401
    """True for values a state owns even when equal to a fresh state's: containers and plain values (only
    shared component objects, such as the game's data, are left out of a position)."""
    return value is None or isinstance(value, (list, dict, set, frozenset, tuple, bool, int, float, str, enum.Enum))


def position_json(state: GameState) -> dict[str, Any]:
    """The whole state as a JSON-ready position."""
    game = state.game
    fresh = game.new_initial_state(state.config)
    encoded = {name: _encode(value, name) for name, value in _state_attributes(state, fresh).items()}
    return {"format": FORMAT, "game": game.id, "config": state.config.to_json(), "state": encoded}


def _kind(value: Any) -> str:  # noqa: ANN401
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, (list, tuple)):
        return "list"
    return type(value).__name__


def load_position(data: Any) -> GameState:  # noqa: ANN401 - JSON
    """A state from a position, checked; PositionError says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PositionError(f"not a position: the format must be {FORMAT!r}")
    try:
        game = get_game(str(data.get("game")))
        config = game.config_from_json(data["config"])
    except KeyError as error:
        raise PositionError(f"position lacks {error}") from None
    except ArenaError as error:
        raise PositionError(f"position: {error}") from None
    state = game.new_initial_state(config)
    fresh = game.new_initial_state(config)
    expected = _state_attributes(fresh, game.new_initial_state(config))
    given = data.get("state")
    if not isinstance(given, dict):
        raise PositionError("position: 'state' must be an object")
    fresh_fields = instance_fields(fresh)
    unknown = sorted(set(given) - set(fresh_fields))
    if unknown:
        raise PositionError(f"position: {game.id} has no state field {unknown[0]!r}")
    missing = sorted(set(expected) - set(given))
    if missing:
        raise PositionError(f"position: state field {missing[0]!r} is missing")
    for name, raw in given.items():
        value = _decode(raw, name)
        before = fresh_fields.get(name)
        if before is not None and value is not None and _kind(before) != _kind(value):
            raise PositionError(f"position: state field {name!r} must be a {_kind(before)}, not {_kind(value)} ({json.dumps(raw)[:80]})")
        try:
            setattr(state, name, value)
        except TypeError as error:  # a compiled engine checks each field's type as it is set
            raise PositionError(f"position: state field {name!r}: {error}") from None
    check_position(state)
    return state


def check_position(state: GameState) -> None:
    """The game's own checks (referee/games/<id>/position.py), then that the position can be played."""
    try:
        module = importlib.import_module(f"referee.games.{state.game.id}.position")
    except ModuleNotFoundError:
        module = None
    checker: Callable[[GameState], None] | None = getattr(module, "check", None)
    if checker is not None:
        checker(state)
    state = state.clone()  # listing options may fill caches: the position itself stays as it was read
    try:
        if not state.is_terminal():
            if state.is_chance_node():
                outcomes = list(state.chance_outcomes())
                if not outcomes:
                    raise PositionError("position: a chance node with no outcome")
            else:
                seats = state.deciding_seats()
                if not seats:
                    raise PositionError("position: nobody decides and it is neither chance nor the end")
                for seat in seats:
                    if not state.legal_options(seat):
                        raise PositionError(f"position: seat {seat} must decide but has no legal option")
        else:
            state.result()
    except PositionError:
        raise
    except Exception as error:  # noqa: BLE001 - an engine failing on a hand-made state means the state cannot exist
        raise PositionError(f"position cannot be played: {type(error).__name__}: {error}") from None


def read_position(path: str | Path) -> GameState:
    """A checked state from a position file; PositionError for a missing, unreadable or impossible one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionError(f"position file {path} does not exist") from None
    except (OSError, json.JSONDecodeError) as error:
        raise PositionError(f"position file {path} is not JSON: {error}") from None
    return load_position(data)


def write_position(state: GameState, path: str | Path) -> None:
    Path(path).write_text(json.dumps(position_json(state), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
