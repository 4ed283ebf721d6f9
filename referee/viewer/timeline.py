"""A replay as a timeline of steps a person can walk through: the state after each step, the events it
produced, the options each deciding seat was offered, the one chosen, how and how fast.

The replay file records config, decisions and chance outcomes; the options offered at each decision are
recomputed by re-running the engine (its legal options are deterministic), so the file needs nothing more.
States are kept at checkpoints and rebuilt on demand, so opening a long replay costs one re-simulation.
Records can be fed one by one, which is how a running match is followed live.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html import escape
from typing import Any

from referee.engine import Event, GameState
from referee.errors import ArenaError, ReplayError
from referee.registry import get_game
from referee.viewer.pictures import draw_view
from referee.viewer.words import event_words

#: A full state is kept every this many steps; any other is rebuilt from the one before it.
CHECKPOINT_EVERY = 16
#: Rebuilt states kept for stepping back and forth.
CACHED_STATES = 8


@dataclass
class SeatDecision:
    """What one deciding seat was offered and chose at one decision."""

    seat: int
    decision: str
    options: list[tuple[str, str]]
    chosen: str
    how: str
    seconds: float | None
    #: What the seat's bot wrote (stdout, stderr) while deciding, when the replay holds it.
    log: str = ""

    def to_json(self, with_log: bool = False) -> dict[str, Any]:
        labels = dict(self.options)
        return {
            **({"log": self.log} if with_log and self.log else {}),
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
    """One step of the match: the start, a chance outcome or a decision (its choices, how and how fast)."""

    index: int
    kind: str
    outcome: str = ""
    choices: dict[int, str] = field(default_factory=dict)
    how: dict[int, str] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    #: The decision each deciding seat faced (its name), for the move list.
    names: dict[int, str] = field(default_factory=dict)
    #: What each seat's bot wrote while deciding (a local match's replay records it).
    logs: dict[int, str] = field(default_factory=dict)


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
        self.steps: list[Step] = [Step(0, "start", over=self.state.is_terminal())]
        self.checkpoints: dict[int, GameState] = {0: self.state.clone()}
        self.cache: OrderedDict[int, GameState] = OrderedDict()
        self.result: dict[str, Any] | None = None
        self.pending_faults: list[dict[str, Any]] = []
        self.pending_logs: dict[int, str] = {}
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
                if kind == "chance":
                    outcome = str(record["outcome"])
                    self.state.apply_chance(outcome)
                    self._push(Step(len(self.steps), "chance", outcome=outcome))
                elif kind == "decision":
                    choices = {int(seat): str(option) for seat, option in record["choices"].items()}
                    names = {seat: self.state.decision_name(seat) for seat in choices}
                    self.state.apply_decisions(choices)
                    how = {int(seat): str(value) for seat, value in record.get("how", {}).items()}
                    seconds = {int(seat): float(value) for seat, value in record.get("seconds", {}).items()}
                    self._push(Step(len(self.steps), "decision", choices=choices, how=how, seconds=seconds, names=names))
                elif kind == "logs":
                    self.pending_logs.update({int(seat): str(text) for seat, text in record["seats"].items()})
                elif kind == "fault":
                    self.pending_faults.append({key: value for key, value in record.items() if key != "type"})
                elif kind == "result":
                    self.result = {key: value for key, value in record.items() if key != "type"}
                elif kind == "seed":
                    self.header["seed"] = int(record["seed"])  # revealed once the match is over
            except ArenaError as error:
                raise ReplayError(f"replay step {len(self.steps)} does not apply: {error}") from None
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise ReplayError(f"replay: malformed {kind} record ({error})") from None

    def _push(self, step: Step) -> None:
        step.faults, self.pending_faults = self.pending_faults, []
        step.logs, self.pending_logs = self.pending_logs, {}
        step.over = self.state.is_terminal()
        self.steps.append(step)
        if step.index % CHECKPOINT_EVERY == 0:
            self.checkpoints[step.index] = self.state.clone()
        self._attach_events()

    def _attach_events(self) -> None:
        """Give every event the engine produced so far to the latest step."""
        if self._events_seen < len(self.state.events):
            self.steps[-1].events.extend(self.state.events.since(self._events_seen))
            self._events_seen = len(self.state.events)

    # ----- states on demand ------------------------------------------------------------
    def state_at(self, index: int) -> GameState:
        """The state after step `index` (do not change it: it may be shared)."""
        self.check_step(index)
        if index == len(self.steps) - 1:
            return self.state
        if index in self.checkpoints:
            return self.checkpoints[index]
        if index in self.cache:
            self.cache.move_to_end(index)
            return self.cache[index]
        base = max((i for i in self.cache if i < index), default=-1)
        start = max(base, index - index % CHECKPOINT_EVERY)
        state = (self.cache[start] if start in self.cache else self.checkpoints[start]).clone()
        for step in self.steps[start + 1 : index + 1]:
            if step.kind == "chance":
                state.apply_chance(step.outcome)
            else:
                state.apply_decisions(step.choices)
        self.cache[index] = state
        while len(self.cache) > CACHED_STATES:
            self.cache.popitem(last=False)
        return state

    def decisions(self, index: int) -> list[SeatDecision]:
        """The options each deciding seat was offered at step `index` (recomputed from the state before it)."""
        step = self.check_step(index)
        if step.kind != "decision":
            return []
        before = self.state_at(index - 1)
        return [
            SeatDecision(
                seat,
                before.decision_name(seat),
                [(option.id, option.label) for option in before.legal_options(seat)],
                step.choices.get(seat, ""),
                step.how.get(seat, "bot"),
                step.seconds.get(seat),
                step.logs.get(seat, ""),
            )
            for seat in before.deciding_seats()
        ]

    # ----- what a page shows ---------------------------------------------------------
    def check_seat(self, seat: int | None) -> None:
        if seat is not None and seat != ALL_SEATS and not 0 <= seat < self.players:
            raise ReplayError(f"no seat {seat} in a {self.players}-player game (seats 0 to {self.players - 1})")

    def check_step(self, index: int) -> Step:
        if not 0 <= index < len(self.steps):
            raise ReplayError(f"no step {index}: the replay has steps 0 to {len(self.steps) - 1}")
        return self.steps[index]

    def view(self, index: int, seat: int | None) -> dict[str, Any]:
        """The view the seat (None = spectator) had after step `index`."""
        self.check_seat(seat)
        state = self.state_at(index)
        return state.public_view() if seat is None else state.private_view(seat)

    def frame(self, index: int, seat: int | None = None) -> str:
        """The SVG picture after step `index`, from the spectator's (None), one seat's, or every seat's view
        (ALL_SEATS: each seat's picture one under the other, hidden information included)."""
        if seat == ALL_SEATS:
            return stack_pictures([(f"seat {s}'s view", draw_view(self.game.id, self.view(index, s))) for s in range(self.players)])
        return draw_view(self.game.id, self.view(index, seat))

    @staticmethod
    def step_label(step: Step) -> str:
        """What the step was, as the picture after it is captioned: 'after seat 1's decision'."""
        if step.kind == "decision":
            seats = sorted(step.choices)
            return "after " + " and ".join(f"seat {seat}'s" for seat in seats) + (" decisions" if len(seats) > 1 else " decision")
        if step.kind == "chance":
            return "after a chance step"
        return "the start"

    def offered_at(self, index: int) -> list[SeatDecision]:
        """The decision the position after step `index` asks for: each deciding seat's options and, when
        the next step was played, the option it chose (so the panel describes the position the picture shows)."""
        self.check_step(index)
        if index + 1 < len(self.steps):
            return self.decisions(index + 1)
        state = self.state_at(index)
        if state.is_terminal() or state.is_chance_node():
            return []
        return [
            SeatDecision(seat, state.decision_name(seat), [(o.id, o.label) for o in state.legal_options(seat)], "", "", None)
            for seat in state.deciding_seats()
        ]

    def next_kind(self, index: int) -> str:
        """What follows the position after step `index`: 'decision', 'chance' or 'over'."""
        state = self.state_at(index)
        if state.is_terminal():
            return "over"
        return "chance" if state.is_chance_node() else "decision"

    def step_json(self, index: int, seat: int | None, reveal: bool, logs: bool = False) -> dict[str, Any]:
        """Everything the viewer shows for one step from one perspective: the picture after the step, the
        events and faults that led to it, and the decision that position asks for (`decisions`).

        `reveal` (the match is over) shows every seat's options and choice, how it was made and how fast;
        otherwise a seat sees only its own, and of the others only who decided what (whether a decision
        was forced, and think times, can tell a seat's secrets while the match runs).
        `logs` adds what each bot wrote while deciding (for its owner: local pages, never a public one)."""
        step = self.check_step(index)
        self.check_seat(seat)
        if seat == ALL_SEATS and not reveal:
            raise ReplayError("every seat's view is shown once the match is over")
        decisions = []
        for decision in self.offered_at(index):
            if reveal or decision.seat == seat:
                decisions.append(decision.to_json(with_log=logs))
            else:
                decisions.append({"seat": decision.seat, "decision": decision.decision})
        audience = None if seat == ALL_SEATS else seat
        events = [event_words(event.kind, event.data) for event in step.events if seat == ALL_SEATS or event.visible_to(audience)]
        return {
            "step": index,
            "kind": step.kind,
            "label": self.step_label(step),
            "svg": self.frame(index, seat),
            "events": events,
            "decisions": decisions,
            "next": self.next_kind(index),
            "faults": step.faults,
            "over": step.over,
            "result": self.result if step.over else None,
        }

    def summary_json(self) -> dict[str, Any]:
        """The timeline's outline: game, seats, one short entry per step (who decided, think time) and the result.

        The seed travels as text: a 64-bit number does not survive JavaScript's doubles."""
        seed = self.header.get("seed")
        return {
            "game": self.game.id,
            "name": self.game.name,
            "players": self.players,
            "seats": list(self.header.get("seats", [])),
            "match_id": self.header.get("match_id"),
            "seed": None if seed is None else str(seed),
            "seed_commitment": self.header.get("seed_commitment"),
            "variants": dict(self.config.variants),
            "steps": [self.step_outline(step, reveal=self.finished) for step in self.steps],
            "result": self.result,
            "finished": self.finished,
        }

    @staticmethod
    def step_outline(step: Step, reveal: bool) -> dict[str, Any]:
        """One step in short, for the slider's marks and the move list: who decided what, faults, public
        events; the options chosen, chance outcomes and think times only once the match is over (`reveal`)."""
        marks = [{"seat": int(f.get("seat", -1)), "kind": str(f.get("kind", "fault"))} for f in step.faults]
        marks += [{"seat": seat, "kind": how} for seat, how in sorted(step.how.items()) if how in ("fallback", "timeout")]
        outline: dict[str, Any] = {
            "kind": step.kind,
            "seats": sorted(step.choices),
            "decisions": {str(seat): name for seat, name in sorted(step.names.items())},
            "events": [event.kind for event in step.events if event.visible_to(None)],
            "faults": len(step.faults),
            "marks": marks,
        }
        if reveal:
            outline["choices"] = {str(seat): option for seat, option in sorted(step.choices.items())}
            if step.kind == "chance":
                outline["outcome"] = step.outcome
            outline["seconds"] = max(step.seconds.values(), default=0.0)
        return outline


#: The perspective that sees every seat's hidden information (finished matches only).
ALL_SEATS = -1
#: The size a drawing gives its <svg> element.
SVG_SIZE = re.compile(r'<svg[^>]*? width="([0-9.]+)" height="([0-9.]+)"')


def stack_pictures(pictures: list[tuple[str, str]]) -> str:
    """Several SVG pictures one under the other in one SVG, each under a caption."""
    parts, y, width = [], 0.0, 0.0
    for caption, svg in pictures:
        found = SVG_SIZE.search(svg)
        w, h = (float(found.group(1)), float(found.group(2))) if found else (800.0, 600.0)
        parts.append(f'<text x="8" y="{y + 22:g}" font-size="18" font-weight="bold" fill="#222">{escape(caption)}</text>')
        parts.append(svg.replace("<svg ", f'<svg x="0" y="{y + 30:g}" ', 1))
        y += h + 40
        width = max(width, w)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {y:g}" width="{width:g}" height="{y:g}" '
        f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' + "".join(parts) + "</svg>"
    )
