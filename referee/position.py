"""Positions as data: a whole game state written to JSON and a game started from one (as FEN is for chess).

A position is `{"format": "b99-position/1", "game": ID, "config": {...}, "state": {...}}`. `state` says what is
where: every attribute of the engine's state object that is neither shared component data, nor fixed by the
config (the game's `CONFIG_FIELDS`: the config is the one place a variant is written), nor derived by the
engine (its `DERIVED` caches: options, outcomes, results, bitmasks). Values are plain JSON where they can be
(numbers, strings, lists, string-keyed objects) and tagged where they cannot: `{"__tuple__": [...]}`,
`{"__set__": [...]}`, `{"__dict__": [[key, value], ...]}` (keys that are not strings), `{"__object__":
"module.Class", "fields": {...}}` (the engines' own records, only classes of `referee.` modules).

Loading checks the position as python-chess's `Board.status()` does: its shape (fields and their kinds), that it
agrees with its config, the game's own rules of what can exist (`referee/games/<id>/position.py`), that it can
be played; every problem found is reported at once, each naming the field and the rule (`Problem`). A loaded
state's event log holds one event, `position`, describing the position (its public view): a game started from
a position begins a new log.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from referee.compiled import instance_fields
from referee.engine import ChanceOutcome, EventLog, GameConfig, GameState, Option
from referee.errors import ArenaError
from referee.registry import get_game

FORMAT = "b99-position/1"
#: Attributes never part of a position (history, not state).
NOT_STATE = frozenset({"events"})
#: The kind of event a state loaded from a position starts its log with.
POSITION_EVENT = "position"


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a position: the field (as the position names it), the rule it breaks, and how."""

    field: str
    rule: str
    message: str

    def __str__(self) -> str:
        return self.message


#: The rule of a field that disagrees with the config, and of options a position lists that the engine does not offer.
CONFIG_RULE = "agrees with the config"
DERIVED_RULE = "derived by the engine"


class PositionError(ArenaError):
    """A position that cannot be read or cannot exist; `problems` lists every problem found (field, rule, message)."""

    def __init__(self, message: str = "", *, problems: Sequence[Problem] = ()) -> None:
        if not problems:
            problems = (Problem("", "a position", message.removeprefix("position: ")),)
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__(message or _summary(self.problems))


class ImpossiblePositionError(PositionError):
    """A position breaking the game's rules of what can exist (counts, limits, shapes, phase facts)."""


class ConfigMismatchError(ImpossiblePositionError):
    """A state that disagrees with its config (a variant in the config, another value in the state)."""


class DerivedFieldError(ImpossiblePositionError):
    """A position listing options or outcomes the engine does not derive from it (options are the engine's own)."""


def _summary(problems: Sequence[Problem]) -> str:
    if len(problems) == 1:
        return f"position: {problems[0].message}"
    return f"position: {len(problems)} problems: " + "; ".join(problem.message for problem in problems)


def _error(problems: Sequence[Problem]) -> PositionError:
    """The error for these problems, typed by the gravest kind among them (all are listed)."""
    rules = {problem.rule for problem in problems}
    kind = ConfigMismatchError if CONFIG_RULE in rules else DerivedFieldError if DERIVED_RULE in rules else ImpossiblePositionError
    return kind(problems=problems)


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
    if isinstance(value, list):
        value = _tuples(value)  # a key written as a plain list ([row, column]) is a tuple
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


class GameRules:
    """What a game's `referee/games/<id>/position.py` says of its positions (each part optional there).

    `CONFIG_FIELDS` maps a state field to the config entry that fixes it (a variant's name, or "players");
    `DERIVED` names the fields the engine computes (caches of options, outcomes, results); `FILLED` names fields
    a position may leave out, which `fill(state, left_out, given)` makes (a pile as what is not placed elsewhere;
    `given` is the position's JSON state, for what a record leaves out);
    `derive(state)` recomputes what the engine derives; `check(state)` reports what cannot exist.
    """

    def __init__(self, module: ModuleType | None) -> None:
        self.config_fields: Mapping[str, str] = getattr(module, "CONFIG_FIELDS", {})
        self.derived: tuple[str, ...] = tuple(getattr(module, "DERIVED", ()))
        self.filled: tuple[str, ...] = tuple(getattr(module, "FILLED", ()))
        self.fill: Callable[[Any, set[str], Mapping[str, Any]], None] | None = getattr(module, "fill", None)
        self.derive: Callable[[Any], None] | None = getattr(module, "derive", None)
        self.check: Callable[[Any], None] | None = getattr(module, "check", None)

    @property
    def not_written(self) -> frozenset[str]:
        """Fields a position never holds: the config's and the engine's own."""
        return frozenset(self.config_fields) | frozenset(self.derived)


def game_rules(game_id: str) -> GameRules:
    """The position rules of a game (empty when it has no position module)."""
    try:
        module: ModuleType | None = importlib.import_module(f"referee.games.{game_id}.position")
    except ModuleNotFoundError:
        module = None
    return GameRules(module)


def position_json(state: GameState) -> dict[str, Any]:
    """The whole state as a JSON-ready position (what is where; not the config's fields, not the engine's caches)."""
    game = state.game
    fresh = game.new_initial_state(state.config)
    skip = game_rules(game.id).not_written
    encoded = {name: _encode(value, name) for name, value in _state_attributes(state, fresh).items() if name not in skip}
    return {"format": FORMAT, "game": game.id, "config": state.config.to_json(), "state": encoded}


def initial_position(game_id: str, players: int | None = None, variants: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The position a new game of this config starts at (before any chance or decision): a start for writing one."""
    game = get_game(game_id)
    return position_json(game.new_initial_state(game.make_config(players, variants or {})))


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


def _show(value: Any) -> str:  # noqa: ANN401
    return json.dumps(value) if isinstance(value, (type(None), bool, int, float, str)) else repr(value)


def _game_and_config(data: Any) -> tuple[Any, GameConfig]:  # noqa: ANN401 - JSON
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PositionError(f"not a position: the format must be {FORMAT!r}")
    try:
        game = get_game(str(data.get("game")))
        config = game.config_from_json(data["config"])
    except KeyError as error:
        raise PositionError(f"position lacks {error}") from None
    except ArenaError as error:
        raise PositionError(f"position: {error}") from None
    return game, config


def load_position(data: Any) -> GameState:  # noqa: ANN401 - JSON
    """A state from a position, checked (every problem at once, in one PositionError); its log holds one event."""
    from referee.position_checks import collecting

    game, config = _game_and_config(data)
    rules = game_rules(game.id)
    given = data.get("state")
    if not isinstance(given, dict):
        raise PositionError("position: 'state' must be an object")
    state = game.new_initial_state(config)
    fresh_fields = instance_fields(game.new_initial_state(config))
    expected = _state_attributes(state, game.new_initial_state(config))
    problems: list[Problem] = []
    for name in sorted(set(given) - set(fresh_fields)):
        problems.append(Problem(name, "a field of the game's state", f"{game.id} has no state field {name!r}"))
    optional = rules.not_written | frozenset(rules.filled)
    for name in sorted(set(expected) - set(given) - optional):
        problems.append(Problem(name, "every field given", f"state field {name!r} is missing"))
    decoded: dict[str, Any] = {}
    for name, raw in given.items():
        if name not in fresh_fields:
            continue
        try:
            value = _decode(raw, name)
        except PositionError as error:
            problems.extend(Problem(name, problem.rule, problem.message) for problem in error.problems)
            continue
        before = fresh_fields[name]
        if isinstance(before, tuple) and isinstance(value, list):
            value = _tuples(value)  # a hand-written position may write a tuple as a plain list
        if before is not None and value is not None and _kind(before) != _kind(value):
            message = f"state field {name!r} must be a {_kind(before)}, not {_kind(value)} ({json.dumps(raw)[:80]})"
            problems.append(Problem(name, f"a {_kind(before)}", message))
            continue
        decoded[name] = value
    if problems:
        raise ImpossiblePositionError(problems=problems)
    for name, entry in rules.config_fields.items():
        if name in decoded and decoded[name] != fresh_fields[name]:
            message = f"state field {name!r} is {_show(decoded[name])}, but the config's {entry} makes it {_show(fresh_fields[name])}"
            problems.append(Problem(name, CONFIG_RULE, message))
        decoded.pop(name, None)
    listed = {name: decoded.pop(name) for name in rules.derived if name in decoded}
    for name, value in decoded.items():
        try:
            setattr(state, name, value)
        except TypeError as error:  # a compiled engine checks each field's type as it is set
            problems.append(Problem(name, "the engine's type", f"state field {name!r}: {error}"))
    if problems:
        raise _error(problems)
    with collecting() as found:
        try:
            if rules.fill is not None:
                rules.fill(state, set(rules.filled) - set(given), given)
            if rules.check is not None:
                rules.check(state)
            if rules.derive is not None and not found:
                rules.derive(state)
        except PositionError as error:
            found.extend(error.problems)
        except Exception as error:  # noqa: BLE001 - a check tripping over a broken field: the problems say why
            if not found:
                found.append(Problem("state", "checkable", f"the position cannot be checked: {type(error).__name__}: {error}"))
    if found:
        raise _error(found)
    problems = _playable(state) or _listed_problems(state, listed)
    if problems:
        raise _error(problems)
    begin_log(state)
    return state


def _tuples(value: Any) -> Any:  # noqa: ANN401 - decoded JSON
    """Lists made tuples, all the way down (what the engine keeps as a tuple of tuples)."""
    return tuple(_tuples(item) for item in value) if isinstance(value, (list, tuple)) else value


def begin_log(state: GameState) -> None:
    """Start the state's event log afresh with one event describing the position (its public view)."""
    state.events = EventLog()
    state.emit(POSITION_EVENT, view=state.public_view())


def _playable(state: GameState) -> list[Problem]:
    """Problems of a position that the engine cannot play on: no one to decide, no outcome, no result."""
    state = state.clone()  # listing options may fill caches: the position itself stays as it was read
    try:
        if state.is_terminal():
            state.result()
        elif state.is_chance_node():
            if not list(state.chance_outcomes()):
                return [Problem("phase", "a chance node has outcomes", "a chance node with no outcome")]
        else:
            seats = state.deciding_seats()
            if not seats:
                return [Problem("phase", "someone decides", "nobody decides and it is neither chance nor the end")]
            for seat in seats:
                if not state.legal_options(seat):
                    return [Problem("phase", "a deciding seat has options", f"seat {seat} must decide but has no legal option")]
    except Exception as error:  # noqa: BLE001 - an engine failing on a hand-made state means the state cannot exist
        return [Problem("state", "playable", f"the position cannot be played: {type(error).__name__}: {error}")]
    return []


def _choice_ids(value: Any) -> Iterator[str]:  # noqa: ANN401 - a decoded cache
    """The option and outcome ids a cache holds, however it nests them."""
    if isinstance(value, (Option, ChanceOutcome)):
        yield value.id
    elif isinstance(value, dict):
        for item in value.values():
            yield from _choice_ids(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _choice_ids(item)


def _listed_problems(state: GameState, listed: Mapping[str, Any]) -> list[Problem]:
    """Options or outcomes a position lists (the engine derives them: an older position may still list them) that
    the engine does not offer in that position."""
    if not listed:
        return []
    probe = state.clone()
    offered: set[str] = set()
    if probe.is_chance_node():
        offered.update(outcome.id for outcome in probe.chance_outcomes())
    elif not probe.is_terminal():
        for seat in probe.deciding_seats():
            offered.update(option.id for option in probe.legal_options(seat))
    problems = []
    for name, value in listed.items():
        extra = sorted(set(_choice_ids(value)) - offered)
        if extra:
            message = f"{name} offers {extra[0]!r}, which the engine does not offer in this position (options are the engine's own: leave {name} out)"
            problems.append(Problem(name, DERIVED_RULE, message))
    return problems


def refresh(state: GameState) -> GameState:
    """The state after an in-place edit, checked, with all the engine derives made afresh (options, results,
    caches: a cache kept from before the edit would offer what the edit took away). Its log is a new one."""
    return load_position(position_json(state))


def check_position(state: GameState) -> None:
    """Every problem of a state (as it would be loaded from its own position) in one PositionError, or nothing."""
    load_position(position_json(state))


def read_position(path: str | Path) -> GameState:
    """A checked state from a position file; PositionError for a missing, unreadable or impossible one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionError(f"position file {path} does not exist") from None
    except OSError as error:
        raise PositionError(f"position file {path} cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise PositionError(f"position file {path} is not JSON: not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise PositionError(f"position file {path} is not JSON: {error}") from None
    return load_position(data)


def position_text(data: Any, indent: int = 0) -> str:  # noqa: ANN401 - JSON
    """A position as JSON text for people: one field a line, a list of plain values on one line."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(data, dict) and data:
        items = [f"{inner}{json.dumps(key, ensure_ascii=False)}: {position_text(value, indent + 1)}" for key, value in data.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(data, list) and any(isinstance(item, (dict, list)) and item for item in data):
        return "[\n" + ",\n".join(f"{inner}{position_text(item, indent + 1)}" for item in data) + f"\n{pad}]"
    return json.dumps(data, ensure_ascii=False)


def write_position(state: GameState, path: str | Path) -> None:
    Path(path).write_text(position_text(position_json(state)) + "\n", encoding="utf-8")
