"""Replays: one JSON object per line, enough to re-simulate a match exactly and to show it to a person.

Line kinds, in order: `header` (format, match id, game config, the seed's commitment and chance
scheme, seat names, time control),
then for each step a `chance` (outcome id) or a `decision` (per deciding seat: option id, and how it
was made: bot / forced / fallback), each followed by the `event`s it produced (kind, data,
audience: null for everyone or the list of seats), then `faults` and a final `result`. A `fault`
record (seat, kind, detail, decision_index) stands in the timeline where a fault happened (a timeout
just before the decision the fallback then made); replay verification skips it. The last line,
`seed`, reveals the seed once the match is over: verification checks it against the header's
commitment and re-draws every chance outcome from it. (Replays written before seeds were secret
carry the seed in the header and no commitment; their chance outcomes are replayed as recorded.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.chance import CHANCE_SCHEME, KeyedRandom, sample_outcome, seed_commitment
from referee.engine import Event, GameState
from referee.errors import ArenaError, ReplayError
from referee.registry import get_game

FORMAT = "b99-replay/1"


def event_record(index: int, event: Event) -> dict[str, Any]:
    return {
        "type": "event",
        "seq": index,
        "kind": event.kind,
        "data": event.data,
        "audience": None if event.audience is None else sorted(event.audience),
    }


@dataclass
class ReplayRecorder:
    """Collects the lines of a replay while a match runs."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    events_written: int = 0
    #: While the match runs, every line is also appended here at once (a live page follows it); removed at the end.
    live_path: Path | None = None

    def header(self, **fields: Any) -> None:
        self._line({"type": "header", "format": FORMAT, **fields})

    def _line(self, record: dict[str, Any]) -> None:
        self.lines.append(record)
        if self.live_path is not None:
            with self.live_path.open("a", encoding="utf-8") as handle:
                handle.write(_json_line(record))

    def chance(self, state: GameState, outcome_id: str) -> None:
        self._line({"type": "chance", "outcome": outcome_id})
        self._events(state)

    def decision(self, state: GameState, choices: Mapping[int, str], how: Mapping[int, str], elapsed: Mapping[int, float]) -> None:
        self._line(
            {
                "type": "decision",
                "choices": {str(seat): option for seat, option in sorted(choices.items())},
                "how": {str(seat): kind for seat, kind in sorted(how.items())},
                "seconds": {str(seat): round(value, 6) for seat, value in sorted(elapsed.items())},
            }
        )
        self._events(state)

    def initial_events(self, state: GameState) -> None:
        self._events(state)

    def _events(self, state: GameState) -> None:
        for index in range(self.events_written, len(state.events)):
            self._line(event_record(index, state.events[index]))
        self.events_written = len(state.events)

    def add(self, record: dict[str, Any]) -> None:
        self._line(record)

    def write(self, path: str | Path) -> None:
        """Write the replay to `path`: a file is replaced whole (a reader never sees half of one); a device or a
        pipe (`/dev/null`, `/dev/stdout`) is written through, never replaced by a file."""
        target = Path(path)
        if target.exists() and not target.is_file():
            self._write_lines(target)
        else:
            temporary = target.with_name(target.name + ".partial")
            self._write_lines(temporary)
            temporary.replace(target)
        if self.live_path is not None:
            self.live_path.unlink(missing_ok=True)

    def _write_lines(self, target: Path) -> None:
        """Every line collected, as JSON, one a line."""
        with target.open("w", encoding="utf-8") as handle:
            for line in self.lines:
                handle.write(_json_line(line))


def _json_line(record: dict[str, Any]) -> str:
    """A replay record as its file's line: compact JSON, keys sorted (a replay's bytes depend on nothing else)."""
    return json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n"


def live_path_of(replay_path: str | Path) -> Path:
    """Where a running match streams its replay lines (beside the final file, which replaces it at the end)."""
    path = Path(replay_path)
    return path.with_name(path.name + ".live")


def read_replay(path: str | Path) -> list[dict[str, Any]]:
    """Parse a replay file; ReplayError names the line that is broken."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"replay {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"replay {path} cannot be read: {error}") from None
    records: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ReplayError(f"replay {path} line {number}: not JSON ({error.msg})") from None
        if not isinstance(record, dict) or "type" not in record:
            raise ReplayError(f"replay {path} line {number}: not a replay record")
        records.append(record)
    if not records or records[0].get("type") != "header" or records[0].get("format") != FORMAT:
        raise ReplayError(f"replay {path}: no {FORMAT} header on the first line")
    return records


@dataclass(frozen=True)
class VerifiedReplay:
    state: GameState
    steps: int
    events: int


_MISSING = "<absent>"


def first_difference(recorded: Any, expected: Any, where: str = "") -> tuple[str, Any, Any]:  # noqa: ANN401 - JSON values
    """The path of the first field where two JSON values differ (`data.cubes_drawn[1]`) and both values there."""
    if isinstance(recorded, dict) and isinstance(expected, dict):
        for key in sorted(set(recorded) | set(expected)):
            if recorded.get(key, _MISSING) != expected.get(key, _MISSING):
                return first_difference(recorded.get(key, _MISSING), expected.get(key, _MISSING), f"{where}.{key}" if where else key)
    if isinstance(recorded, list) and isinstance(expected, list):
        for position, (left, right) in enumerate(zip(recorded, expected)):
            if left != right:
                return first_difference(left, right, f"{where}[{position}]")
        if len(recorded) != len(expected):
            return f"{where} (length)", len(recorded), len(expected)
    return where or "the record", recorded, expected


def _steps(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for record in records:
        if record["type"] in ("chance", "decision", "event", "result", "void"):
            yield record


def simulate(records: list[dict[str, Any]], path: str | Path = "replay") -> VerifiedReplay:
    """Re-run the recorded steps on a fresh engine, checking every event and the result; ReplayError on any difference."""
    header = records[0]
    try:
        game = get_game(str(header["config"]["game"]))
        config = game.config_from_json(header["config"])
    except (KeyError, TypeError) as error:
        raise ReplayError(f"replay {path}: header lacks {error}") from None
    except ArenaError as error:
        raise ReplayError(f"replay {path}: {error}") from None
    state = game.new_initial_state(config) if "position" not in header else _start_position(header["position"], path)
    chance = _chance_check(records, path)
    checked = 0
    steps = 0
    result_seen = False

    for number, record in enumerate(_steps(records), start=2):
        kind = record["type"]
        try:
            if kind == "chance":
                if chance is not None:
                    drawn = sample_outcome(state.chance_outcomes(), chance).id
                    if drawn != str(record["outcome"]):
                        raise ReplayError(
                            f"replay {path}: chance step {steps + 1} recorded {record['outcome']!r}, "
                            f"but the revealed seed draws {drawn!r}"
                        )
                state.apply_chance(str(record["outcome"]))
                steps += 1
            elif kind == "decision":
                state.apply_decisions({int(seat): str(option) for seat, option in record["choices"].items()})
                steps += 1
            elif kind == "event":
                index = int(record["seq"])
                if index >= len(state.events) or index != checked:
                    raise ReplayError(f"replay {path}: event {index} is not produced by the recorded steps")
                event = state.events[index]
                expected = event_record(index, event)
                recorded = {key: record.get(key) for key in expected}
                expected_json = json.loads(json.dumps(expected, sort_keys=True))
                if expected_json != recorded:
                    where, was, now = first_difference(recorded, expected_json)
                    raise ReplayError(
                        f"replay {path}: event {index} ({event.kind}) differs at {where}: "
                        f"recorded {json.dumps(was)}, re-simulated {json.dumps(now)}"
                    )
                checked += 1
            elif kind == "void":
                result_seen = True  # nobody played: the steps up to here are checked, there is no result
            elif kind == "result":
                result_seen = True
                if not state.is_terminal():
                    raise ReplayError(f"replay {path}: the recorded steps do not finish the game")
                result = state.result()
                if list(result.ranks) != list(record["engine_ranks"]) or [float(s) for s in result.scores] != [
                    float(s) for s in record["scores"]
                ]:
                    raise ReplayError(
                        f"replay {path}: result differs: recorded ranks {record['engine_ranks']} scores {record['scores']}, "
                        f"re-simulated ranks {list(result.ranks)} scores {list(result.scores)}"
                    )
        except ReplayError:
            raise
        except ArenaError as error:
            raise ReplayError(f"replay {path}: step {steps + 1} does not apply: {error}") from None
        except (KeyError, TypeError, ValueError) as error:
            raise ReplayError(f"replay {path}: malformed {kind} record ({error})") from None
    if checked != len(state.events):
        raise ReplayError(f"replay {path}: {len(state.events) - checked} events produced but not recorded")
    if not result_seen:
        raise ReplayError(f"replay {path}: no result record (the match did not finish)")
    return VerifiedReplay(state, steps, checked)


def _start_position(position: Any, path: str | Path) -> GameState:  # noqa: ANN401 - JSON
    """The state a replay of a match started from a position begins with."""
    from referee.position import load_position

    try:
        return load_position(position)
    except ArenaError as error:
        raise ReplayError(f"replay {path}: its start {error}") from None


def revealed_seed(records: list[dict[str, Any]]) -> int | None:
    """The seed a finished replay reveals (its `seed` line, or an old header's), None while it is secret."""
    for record in reversed(records):
        if record.get("type") == "seed":
            return int(record["seed"])
    seed = records[0].get("seed") if records else None
    return None if seed is None else int(seed)


def _chance_check(records: list[dict[str, Any]], path: str | Path) -> KeyedRandom | None:
    """The generator that must reproduce every recorded chance outcome; ReplayError if the seed breaks its commitment."""
    header = records[0]
    commitment = header.get("seed_commitment")
    if commitment is None:
        return None  # an old replay: no commitment, chance outcomes are taken as recorded
    seed = revealed_seed(records)
    if seed is None:
        raise ReplayError(f"replay {path}: the seed is not revealed (the match did not finish)")
    if seed_commitment(seed, str(header.get("match_id"))) != commitment:
        raise ReplayError(f"replay {path}: the revealed seed does not match the commitment published at the start")
    if header.get("chance") != CHANCE_SCHEME:
        raise ReplayError(f"replay {path}: unknown chance scheme {header.get('chance')!r}")
    return KeyedRandom(seed, "chance")


def verify_replay(path: str | Path) -> VerifiedReplay:
    """Read and re-simulate a replay file."""
    return simulate(read_replay(path), path)
