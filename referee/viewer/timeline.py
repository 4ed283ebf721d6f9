"""A replay as a timeline of steps a person can walk through: the state after each step, the events it
produced, the options each deciding seat was offered, the one chosen, how and how fast.

The replay file records config, decisions and chance outcomes; the options offered at each decision are
recomputed by re-running the engine (its legal options are deterministic), so the file needs nothing more.
Records can be fed one by one, which is how a running match is followed live.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.engine import Event, GameState
from referee.errors import ArenaError, ReplayError
from referee.registry import get_game
from referee.viewer.pictures import draw_view
from referee.viewer.words import event_words


@dataclass
class SeatDecision:
    """What one deciding seat was offered and chose at one decision."""

    seat: int
    decision: str
    options: list[tuple[str, str]]
    chosen: str
    how: str
    seconds: float | None

    def to_json(self) -> dict[str, Any]:
        labels = dict(self.options)
        return {
            "seat": self.seat,
            "decision": self.decision,
            "options": [{"id": option_id, "label": label} for option_id, label in self.options],
            "chosen": self.chosen,
            "chosen_label": labels.get(self.chosen, self.chosen),
            "how": self.how,
            "seconds": self.seconds,
        }


@dataclass
class Step:
    """One step of the match: the start, a chance outcome or a decision, and the state after it."""

    index: int
    kind: str
    state: GameState
    events: list[Event] = field(default_factory=list)
    decisions: list[SeatDecision] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)
    outcome: str = ""


class Timeline:
    """Steps of one match built from replay records (all at once, or fed as a live match writes them)."""

    def __init__(self, header: Mapping[str, Any]) -> None:
        if header.get("type") != "header":
            raise ReplayError("a replay starts with its header")
        self.header = dict(header)
        try:
            self.game = get_game(str(header["config"]["game"]))
            config = self.game.config_from_json(header["config"])
        except (KeyError, TypeError) as error:
            raise ReplayError(f"replay header lacks {error}") from None
        except ArenaError as error:
            raise ReplayError(f"replay header: {error}") from None
        self.config = config
        self.state = self.game.new_initial_state(config)
        self.steps: list[Step] = [Step(0, "start", self.state.clone())]
        self.result: dict[str, Any] | None = None
        self.pending_faults: list[dict[str, Any]] = []
        self._events_seen = 0
        self._attach_events()

    @classmethod
    def from_records(cls, records: list[dict[str, Any]]) -> Timeline:
        """The timeline of a whole replay (records as `read_replay` returns them)."""
        timeline = cls(records[0])
        timeline.feed(records[1:])
        return timeline

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def finished(self) -> bool:
        return self.result is not None

    def feed(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Apply replay records after the header; ReplayError if one does not fit the game."""
        for record in records:
            kind = record.get("type")
            try:
                if kind == "event":
                    self._attach_events()
                elif kind == "chance":
                    self.state.apply_chance(str(record["outcome"]))
                    self._push("chance", outcome=str(record["outcome"]))
                elif kind == "decision":
                    self._decision(record)
                elif kind == "fault":
                    self.pending_faults.append({key: value for key, value in record.items() if key != "type"})
                elif kind == "result":
                    self.result = {key: value for key, value in record.items() if key != "type"}
            except ArenaError as error:
                raise ReplayError(f"replay step {len(self.steps)} does not apply: {error}") from None
            except (KeyError, TypeError, ValueError) as error:
                raise ReplayError(f"replay: malformed {kind} record ({error})") from None
        self._attach_events()

    def _decision(self, record: Mapping[str, Any]) -> None:
        choices = {int(seat): str(option) for seat, option in record["choices"].items()}
        how = record.get("how", {})
        seconds = record.get("seconds", {})
        decisions = []
        for seat in self.state.deciding_seats():
            offered = [(option.id, option.label) for option in self.state.legal_options(seat)]
            decisions.append(
                SeatDecision(
                    seat,
                    self.state.decision_name(seat),
                    offered,
                    choices.get(seat, ""),
                    str(how.get(str(seat), "bot")),
                    seconds.get(str(seat)),
                )
            )
        self.state.apply_decisions(choices)
        self._push("decision", decisions=decisions)

    def _push(self, kind: str, decisions: list[SeatDecision] | None = None, outcome: str = "") -> None:
        step = Step(len(self.steps), kind, self.state.clone(), decisions=decisions or [], outcome=outcome)
        step.faults, self.pending_faults = self.pending_faults, []
        self.steps.append(step)
        self._attach_events()

    def _attach_events(self) -> None:
        """Give every event the engine produced so far to the latest step that has not got it yet."""
        if self._events_seen < len(self.state.events):
            self.steps[-1].events.extend(self.state.events.since(self._events_seen))
            self._events_seen = len(self.state.events)

    # ----- what a page shows ---------------------------------------------------------
    def check_seat(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < self.players:
            raise ReplayError(f"no seat {seat} in a {self.players}-player game (seats 0 to {self.players - 1})")

    def check_step(self, index: int) -> Step:
        if not 0 <= index < len(self.steps):
            raise ReplayError(f"no step {index}: the replay has steps 0 to {len(self.steps) - 1}")
        return self.steps[index]

    def view(self, index: int, seat: int | None) -> dict[str, Any]:
        """The view the seat (None = spectator) had after step `index`."""
        self.check_seat(seat)
        state = self.check_step(index).state
        return state.public_view() if seat is None else state.private_view(seat)

    def frame(self, index: int, seat: int | None = None) -> str:
        """The SVG picture after step `index`, from the spectator's (None) or one seat's view."""
        return draw_view(self.game.id, self.view(index, seat))

    def step_label(self, step: Step) -> str:
        if step.kind == "start":
            return "start"
        if step.kind == "chance":
            return "chance"
        return "decision: " + ", ".join(f"seat {d.seat}" for d in step.decisions)

    def step_json(self, index: int, seat: int | None, reveal: bool) -> dict[str, Any]:
        """Everything the viewer shows for one step from one perspective.

        `reveal` (the match is over) shows every seat's options and choice; otherwise a seat sees only its
        own and a spectator sees who decided, how and how long they took."""
        step = self.check_step(index)
        self.check_seat(seat)
        decisions = []
        for decision in step.decisions:
            if reveal or decision.seat == seat:
                decisions.append(decision.to_json())
            else:
                decisions.append({"seat": decision.seat, "decision": decision.decision, "how": decision.how, "seconds": decision.seconds})
        events = [event_words(event.kind, event.data) for event in step.events if event.visible_to(seat)]
        return {
            "step": index,
            "kind": step.kind,
            "label": self.step_label(step),
            "svg": self.frame(index, seat),
            "events": events,
            "decisions": decisions,
            "faults": step.faults,
            "over": step.state.is_terminal(),
        }

    def summary_json(self) -> dict[str, Any]:
        """The timeline's outline: game, seats, one short label per step, think times and the result."""
        seats = list(self.header.get("seats", []))
        return {
            "game": self.game.id,
            "name": self.game.name,
            "players": self.players,
            "seats": seats,
            "match_id": self.header.get("match_id"),
            "seed": self.header.get("seed"),
            "variants": dict(self.config.variants),
            "steps": [
                {
                    "kind": step.kind,
                    "seats": [d.seat for d in step.decisions],
                    "seconds": max((d.seconds or 0.0 for d in step.decisions), default=0.0),
                    "faults": len(step.faults),
                }
                for step in self.steps
            ],
            "result": self.result,
            "finished": self.finished,
        }
