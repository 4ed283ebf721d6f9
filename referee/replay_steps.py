"""A replay walked step by step on a fresh engine: the options each deciding seat was offered, the state at a step.

`b99 replay show --json` and `b99 replay position` read replays through this; `referee.replay.simulate`
remains the one check that a replay is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine import GameState
from referee.errors import ArenaError, ReplayError
from referee.registry import get_game


@dataclass
class Step:
    """One record of a replay with the state just before it (None for records that are not steps)."""

    record: dict[str, Any]
    number: int
    before: GameState | None


def initial_state(records: list[dict[str, Any]], path: str | Path = "replay") -> GameState:
    """The game's initial state from a replay's header config."""
    try:
        if "position" in records[0]:
            from referee.position import load_position

            return load_position(records[0]["position"])
        game = get_game(str(records[0]["config"]["game"]))
        return game.new_initial_state(game.config_from_json(records[0]["config"]))
    except (KeyError, TypeError, IndexError) as error:
        raise ReplayError(f"replay {path}: header lacks {error}") from None
    except ArenaError as error:
        raise ReplayError(f"replay {path}: {error}") from None


def _apply(state: GameState, record: dict[str, Any], number: int, path: str | Path) -> None:
    """Apply one chance or decision record to `state`; ReplayError when it does not apply."""
    try:
        if record["type"] == "chance":
            state.apply_chance(str(record["outcome"]))
        else:
            state.apply_decisions({int(seat): str(option) for seat, option in record["choices"].items()})
    except ArenaError as error:
        raise ReplayError(f"replay {path}: step {number + 1} does not apply: {error}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"replay {path}: malformed {record.get('type')} record ({error})") from None


def walk(records: list[dict[str, Any]], path: str | Path = "replay") -> Iterator[Step]:
    """Every record after the header with the step count so far; chance and decision records carry the state
    before them (the caller must not change it) and are then applied."""
    state = initial_state(records, path)
    number = 0
    for record in records[1:]:
        if record.get("type") not in ("chance", "decision"):
            yield Step(record, number, None)
            continue
        yield Step(record, number, state)
        _apply(state, record, number, path)
        number += 1


def state_at(records: list[dict[str, Any]], step: int, path: str | Path = "replay") -> GameState:
    """The state after `step` steps (0 = the initial state); ReplayError if the replay has fewer."""
    steps = [record for record in records[1:] if record.get("type") in ("chance", "decision")]
    if not 0 <= step <= len(steps):
        raise ReplayError(f"replay {path}: has {len(steps)} steps, so no step {step} (choose 0..{len(steps)})")
    state = initial_state(records, path)
    for number, record in enumerate(steps[:step]):
        _apply(state, record, number, path)
    return state


def timeline_json(records: list[dict[str, Any]], seat: int | None = None, path: str | Path = "replay") -> dict[str, Any]:
    """The replay as JSON for programs: header, then every step with the options each deciding seat was offered
    (id and label), its choice, how it was made and its think time; events, faults and the result.
    With `seat`, only what that seat saw (its own decisions and options, events it was told)."""
    header = records[0]
    rows: list[dict[str, Any]] = []
    for item in walk(records, path):
        record = item.record
        kind = record.get("type")
        if kind == "chance":
            if seat is None:
                rows.append({"type": "chance", "step": item.number + 1, "outcome": record.get("outcome")})
        elif kind == "decision" and item.before is not None:
            seats = []
            for who, option in sorted(record.get("choices", {}).items(), key=lambda pair: int(pair[0])):
                if seat is not None and int(who) != seat:
                    continue
                offered = item.before.legal_options(int(who))
                seats.append(
                    {
                        "seat": int(who),
                        "decision": item.before.decision_name(int(who)),
                        "chosen": option,
                        "how": record.get("how", {}).get(who, "bot"),
                        "seconds": record.get("seconds", {}).get(who),
                        "options": [{"id": o.id, "label": o.label} for o in offered],
                    }
                )
            if seats:
                rows.append({"type": "decision", "step": item.number + 1, "seats": seats})
        elif kind == "event":
            audience = record.get("audience")
            if seat is None or audience is None or seat in audience:
                rows.append({key: record.get(key) for key in ("type", "seq", "kind", "data", "audience")})
        elif kind in ("fault", "faults", "result"):
            if kind == "fault" and seat is not None and record.get("seat") != seat:
                continue
            rows.append(record)
    return {"header": header, "seat": seat, "timeline": rows}
