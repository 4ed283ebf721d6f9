"""The game engine contract: what every game implements so the referee, SDK, bots and tests treat all alike.

A game is a `Game` (static: id, player range, config flags, component data) that makes
`GameState`s. A state is at exactly one kind of node at a time:

- terminal: `result()` gives ranks (1 = best, ties share a rank) and scores;
- chance: `chance_outcomes()` lists outcomes with probabilities; whoever drives the state
  (referee with its seeded RNG, a bot's search with its own) picks one and calls `apply_chance`;
- decision: `deciding_seats()` names one seat, or several for a simultaneous choice; each has
  `legal_options(seat)` (never empty, deterministic order, stable ids) and all answers are given
  at once to `apply_decisions`.

Engines import nothing from gRPC, processes, databases or the CLI.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Self

from referee.errors import (
    ConfigError,
    GameOverError,
    IllegalOptionError,
    NotChanceNodeError,
    NotDecidingError,
)

Seat = int
JsonValue = Any


@dataclass(frozen=True, slots=True)
class Option:
    """One legal choice: a stable id, a human label and a structured payload (the game's typed message)."""

    id: str
    label: str
    payload: Mapping[str, JsonValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """One outcome of a chance node with its probability; ids are stable and unique within the node."""

    id: str
    probability: float
    label: str = ""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with the exact audience allowed to see it (None = every seat and spectators)."""

    kind: str
    data: Mapping[str, JsonValue]
    audience: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """True if `seat` (None = a spectator) may see this event."""
        if self.audience is None:
            return True
        return seat is not None and seat in self.audience


@dataclass(frozen=True, slots=True)
class GameResult:
    """Final ranks (1 = best; equal ranks are ties) and scores, one entry per seat.

    A solo game against an engine-run opponent (`Game.solo_opponent`) ranks its seat 1 or 2."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    details: Mapping[str, JsonValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Flag:
    """A named config flag: its default (the rulebook's standard game) and how a value is checked.

    `check` takes a JSON value or a command-line string and returns the canonical value, or raises
    ConfigError saying what is wrong.
    """

    name: str
    default: JsonValue
    doc: str
    check: Callable[[JsonValue], JsonValue]

    @staticmethod
    def boolean(name: str, default: bool, doc: str) -> Flag:
        def check(value: JsonValue) -> bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            raise ConfigError(f"flag {name!r} takes true or false, not {value!r}")

        return Flag(name, default, doc, check)

    @staticmethod
    def integer(
        name: str,
        default: int | None,
        doc: str,
        minimum: int | None = None,
        maximum: int | None = None,
        nullable: bool = False,
    ) -> Flag:
        def check(value: JsonValue) -> int | None:
            if nullable and (value is None or (isinstance(value, str) and value.lower() in ("null", "none"))):
                return None
            number: int
            if isinstance(value, bool):
                raise ConfigError(f"flag {name!r} takes an integer, not {value!r}")
            if isinstance(value, int):
                number = value
            elif isinstance(value, str):
                try:
                    number = int(value)
                except ValueError:
                    raise ConfigError(f"flag {name!r} takes an integer, not {value!r}") from None
            else:
                raise ConfigError(f"flag {name!r} takes an integer, not {value!r}")
            if minimum is not None and number < minimum:
                raise ConfigError(f"flag {name!r} must be at least {minimum}, not {number}")
            if maximum is not None and number > maximum:
                raise ConfigError(f"flag {name!r} must be at most {maximum}, not {number}")
            return number

        return Flag(name, default, doc, check)

    @staticmethod
    def choice(name: str, default: JsonValue, doc: str, choices: Sequence[JsonValue]) -> Flag:
        def check(value: JsonValue) -> JsonValue:
            for candidate in choices:
                if value == candidate or (isinstance(value, str) and value == str(candidate)):
                    return candidate
            allowed = ", ".join(str(c) for c in choices)
            raise ConfigError(f"flag {name!r} takes one of {allowed}, not {value!r}")

        return Flag(name, default, doc, check)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """A complete, validated game configuration: player count and every flag's value."""

    game_id: str
    players: int
    variants: Mapping[str, JsonValue]

    def to_json(self) -> dict[str, JsonValue]:
        return {"game": self.game_id, "players": self.players, "variants": dict(self.variants)}


class Game(ABC):
    """Static description of one game: id, player range, flags, component data; makes initial states."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    flags: ClassVar[tuple[Flag, ...]] = ()
    #: False for games where no seat ever holds a secret (only undealt components are unknown).
    hidden_information: ClassVar[bool] = True
    #: True if a 1-player game is ranked against an opponent the engine runs (rank 2 = lost to it).
    solo_opponent: ClassVar[bool] = False
    #: What a score counts, for result tables ("points", "P", ...).
    score_unit: ClassVar[str] = "points"
    #: How seats are ranked when it is more than "higher score first" (tie-breaks, seats that rank last).
    ranking_rule: ClassVar[str] = "higher score first; equal scores share a rank"
    #: Decisions whose being forced (one legal option) depends on a seat's secret: the referee asks the
    #: seat anyway, so neither the timing of the match nor its record tells the others which it was.
    asked_even_when_forced: ClassVar[frozenset[str]] = frozenset()
    #: Variant settings the conformance suite cycles through besides the defaults.
    test_variants: ClassVar[tuple[Mapping[str, JsonValue], ...]] = ({},)

    def make_config(self, players: int | None = None, variants: Mapping[str, JsonValue] | None = None) -> GameConfig:
        """Validate a player count and flag values (unknown flags are errors) and fill in defaults."""
        count = self.default_players if players is None else players
        if isinstance(count, bool) or not isinstance(count, int):
            raise ConfigError(f"{self.id}: player count must be an integer, not {count!r}")
        if not self.min_players <= count <= self.max_players:
            raise ConfigError(
                f"{self.id} is played by {self.min_players}"
                + (f" to {self.max_players}" if self.max_players != self.min_players else "")
                + f" players, not {count}"
            )
        known = {flag.name: flag for flag in self.flags}
        values: dict[str, JsonValue] = {flag.name: flag.default for flag in self.flags}
        for name, value in (variants or {}).items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise ConfigError(f"{self.id} has no flag {name!r} (flags: {names})")
            values[name] = known[name].check(value)
        self.check_config(count, values)
        return GameConfig(self.id, count, values)

    def check_config(self, players: int, variants: Mapping[str, JsonValue]) -> None:
        """Cross-flag checks a game needs (for example a flag only legal at some player counts)."""

    def config_from_json(self, data: Mapping[str, JsonValue]) -> GameConfig:
        """Rebuild a config saved with `GameConfig.to_json` (replays, the ladder)."""
        if data.get("game") != self.id:
            raise ConfigError(f"config is for game {data.get('game')!r}, not {self.id!r}")
        return self.make_config(data.get("players"), data.get("variants") or {})

    @abstractmethod
    def new_initial_state(self, config: GameConfig) -> GameState:
        """The state before the first chance outcome or decision."""


@lru_cache(maxsize=64)
def _single_audience(seat: Seat) -> frozenset[Seat]:
    """The audience of an event for one seat (shared: events are emitted for one seat very often)."""
    return frozenset((seat,))


class EventLog:
    """An append-only event list whose copies share storage until one of them appends (cheap clones).

    An engine may also append an event as its parts, `(build, arguments...)` (`defer`, or `entries`
    in a loop): the Event is built by `build(*arguments)` when the log is first read, so playouts that
    never read their log do not pay for it. Readers see the same events, in the same order, as if each
    had been built at once: the arguments must not change after they are appended, and the event must
    depend on them only (a copy that has appended builds its own Event from the same parts).
    """

    __slots__ = ("_items", "_owned", "_built")

    def __init__(self, items: list[Event] | None = None) -> None:
        self._items: list[Any] = items if items is not None else []
        self._owned = True
        #: every entry before this index is an Event already
        self._built = 0

    def append(self, event: Event) -> None:
        if not self._owned:
            self._items = list(self._items)
            self._owned = True
        self._items.append(event)

    def defer(self, build: Callable[..., Event], *arguments: Any) -> None:  # noqa: ANN401 - the builder's own
        """Append the event `build(*arguments)` will make when the log is read."""
        if not self._owned:
            self._items = list(self._items)
            self._owned = True
        self._items.append((build, *arguments))

    def entries(self) -> list[Any]:
        """This log's own list, to append Events or deferred ones, `(build, arguments...)`, to in a loop."""
        if not self._owned:
            self._items = list(self._items)
            self._owned = True
        return self._items

    def _events(self) -> list[Event]:
        """The entries with every deferred event built (in place: a log sharing them sees the same Events)."""
        items = self._items
        if self._built < len(items):
            for index in range(self._built, len(items)):
                item = items[index]
                if type(item) is tuple:
                    items[index] = item[0](*item[1:])
            self._built = len(items)
        return items

    def copy(self) -> EventLog:
        twin = EventLog(self._items)
        twin._owned = False
        twin._built = self._built
        self._owned = False
        return twin

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Event:
        return self._events()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events())

    def since(self, start: int) -> list[Event]:
        items = self._items
        if self._built < len(items):  # deferred events to build first (`_events`)
            items = self._events()
        return items[start:]


class GameState(ABC):
    """One game in progress. Subclasses implement the abstract methods; validation lives here."""

    game: Game
    config: GameConfig

    def __init__(self, game: Game, config: GameConfig) -> None:
        self.game = game
        self.config = config
        self.events = EventLog()

    # ----- what kind of node this is -------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def is_chance_node(self) -> bool:
        """True if the next step is a chance outcome (and no seat is deciding)."""

    @abstractmethod
    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        """The outcomes of the pending chance node, probabilities summing to 1, in a fixed order."""

    @abstractmethod
    def deciding_seats(self) -> tuple[Seat, ...]:
        """Seats that must decide now, ascending; empty at chance and terminal nodes."""

    @abstractmethod
    def decision_name(self, seat: Seat) -> str:
        """The name of the decision point `seat` faces now (for example 'stake')."""

    @abstractmethod
    def legal_options(self, seat: Seat) -> Sequence[Option]:
        """The seat's legal options, never empty, in the spec's deterministic order."""

    # ----- applying ------------------------------------------------------------------
    def apply_chance(self, outcome_id: str) -> None:
        """Resolve the pending chance node with the outcome of this id."""
        if self.is_terminal():
            raise GameOverError(f"{self.game.id}: the game is over; no chance outcome can be applied")
        if not self.is_chance_node():
            raise NotChanceNodeError(f"{self.game.id}: no chance node is pending (deciding: {self.deciding_seats()})")
        for outcome in self.chance_outcomes():
            if outcome.id == outcome_id:
                self._apply_chance(outcome)
                return
        raise NotChanceNodeError(f"{self.game.id}: {outcome_id!r} is not an outcome of the pending chance node")

    def apply_decisions(self, choices: Mapping[Seat, str]) -> None:
        """Apply one option id for every deciding seat at once (a simultaneous choice gives several)."""
        if self.is_terminal():
            raise GameOverError(f"{self.game.id}: the game is over; no decision can be applied")
        deciding = self.deciding_seats()
        if set(choices) != set(deciding):
            raise NotDecidingError(
                f"{self.game.id}: decisions given for seats {sorted(choices)} but seats {list(deciding)} are deciding"
            )
        chosen: dict[Seat, Option] = {}
        for seat in deciding:
            option_id = choices[seat]
            for option in self.legal_options(seat):
                if option.id == option_id:
                    chosen[seat] = option
                    break
            else:
                raise IllegalOptionError(
                    f"{self.game.id}: {option_id!r} is not a legal option for seat {seat} "
                    f"at {self.decision_name(seat)!r}"
                )
        self._apply_decisions(chosen)

    def apply_decision(self, seat: Seat, option_id: str) -> None:
        """Shorthand for a decision where only `seat` is deciding."""
        self.apply_decisions({seat: option_id})

    @abstractmethod
    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        """Apply a validated chance outcome."""

    @abstractmethod
    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        """Apply validated options, one per deciding seat."""

    # ----- information ---------------------------------------------------------------
    @abstractmethod
    def private_view(self, seat: Seat) -> dict[str, JsonValue]:
        """What `seat` may know now, built field by field from an allowlist (JSON-able)."""

    @abstractmethod
    def public_view(self) -> dict[str, JsonValue]:
        """What a spectator may know now (JSON-able)."""

    def events_for(self, seat: Seat | None, start: int = 0) -> list[Event]:
        """Events from log index `start` on that `seat` may see (None = a spectator)."""
        return [event for event in self.events.since(start) if event.visible_to(seat)]

    def emit(self, kind: str, to: Seat | Sequence[Seat] | None = None, **data: JsonValue) -> None:
        """Record an event for everyone (to=None) or only for the given seat(s)."""
        audience: frozenset[Seat] | None
        if to is None:
            audience = None
        elif isinstance(to, int):
            audience = _single_audience(to)
        else:
            audience = frozenset(to)
        self.events.append(Event(kind, data, audience))

    def renew_tokens(self) -> None:
        """Forget what the state recorded as changed (a game whose state keeps change tokens renews them all).

        Called after the state was edited from outside the rules, so that views and observations written
        before are never taken for the edited position's. A state that records nothing has nothing to do.
        """

    # ----- the end ------------------------------------------------------------------
    @abstractmethod
    def result(self) -> GameResult:
        """Ranks and scores; raises GameOverError if the game is not over yet."""

    # ----- search support -----------------------------------------------------------
    @abstractmethod
    def clone(self) -> Self:
        """An independent copy sharing immutable component data; cheap enough for search."""

    @abstractmethod
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """A full state consistent with all `seat` knows, drawn from all such states.

        Hidden information that is still to be dealt stays as chance nodes; only what other seats
        hold privately (or what was dealt unseen) is sampled.
        """

    def require_over(self) -> None:
        """Raise GameOverError unless the game has ended (for `result`)."""
        if not self.is_terminal():
            raise GameOverError(f"{self.game.id}: the game is not over yet")

    @property
    def players(self) -> int:
        return self.config.players
