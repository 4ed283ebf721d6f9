"""Running one match: launch or wrap each seat's bot, drive the engine, enforce clocks, survive faults.

`run_match(spec)` is the one function the ladder and the CLI call. A bot that crashes, hangs,
disconnects, breaks the protocol or names an option that is not offered is replaced by the
fallback policy (a random legal option) for the rest of the game and ranked last.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import secrets
import shutil
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import b99.arena_pb2 as arena_pb2
from referee import messages
from referee.arena_server import ArenaServer, SeatLine
from referee.chance import CHANCE_SCHEME, KeyedRandom, sample_outcome, seed_commitment
from referee.clock import SeatClock, TimeControl
from referee.engine import GameState, Seat
from referee.errors import BotLaunchError, ConfigError
from referee.decision_logs import CATCH_UP_SECONDS, DecisionLogs
from referee.fault_text import timeout_fault
from referee.faults import Fault, FaultKind, fault_words
from referee.launcher import WarmRequest, launch
from referee.ranking import competition_ranks
from referee.registry import get_game
from referee.replay import ReplayRecorder, live_path_of
from referee.sandbox import Limits, SandboxRequest
from referee.sandbox.bubblewrap import SOCKET as SANDBOX_SOCKET
from referee.sandbox.reaper import Lease, reap_once
from referee.seats import Answer, InProcessSeat, RemoteSeat, SeatAgent
from referee.wire import SharedParts, get_wire
from sdk.bot import Bot
from sdk.forward import encode_world, in_process_world

ADDRESS_VARIABLE = "B99_ARENA_ADDRESS"
TOKEN_VARIABLE = "B99_SEAT_TOKEN"
SANDBOX_LEVELS = ("none", "basic", "strict")
GAME_OVER_GRACE_SECONDS = 1.0
#: MatchReport.status values.
COMPLETE = "complete"
VOID = "void"

__all__ = ["COMPLETE", "VOID", "BotSpec", "Fault", "MatchReport", "MatchSpec", "SeatReport", "TimeControl", "run_match"]


@dataclass(frozen=True)
class BotSpec:
    """One seat's bot: a process to launch (`command`) or an in-process Bot (`factory`)."""

    name: str
    command: tuple[str, ...] | None = None
    factory: Callable[[], Bot] | None = None
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    sandbox: str = "none"
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if (self.command is None) == (self.factory is None):
            raise ConfigError(f"bot {self.name!r}: give exactly one of a command or an in-process factory")
        if self.command is not None and not self.command:
            raise ConfigError(f"bot {self.name!r}: empty command")
        if self.sandbox not in SANDBOX_LEVELS:
            raise ConfigError(f"bot {self.name!r}: sandbox must be one of {', '.join(SANDBOX_LEVELS)}, not {self.sandbox!r}")


@dataclass(frozen=True)
class MatchSpec:
    """Everything that defines a match; the same spec and seed replay the same chance outcomes."""

    game: str
    bots: Sequence[BotSpec]
    seed: int
    variants: Mapping[str, Any] = field(default_factory=dict)
    time_control: TimeControl = field(default_factory=TimeControl)
    replay_path: str | None = None
    match_id: str | None = None
    ask_forced: bool = False
    transport: str = "unix"
    #: Send a world of its information set with each request to a bot that asks (sdk.forward).
    worlds: bool = True
    #: Start from this position (referee.position JSON) instead of the game's initial state.
    position: Mapping[str, Any] | None = None
    #: Also stream the replay, line by line, to `<replay_path>.live` while the match runs (live pages follow it).
    live_replay: bool = False
    #: Record what each bot process wrote (stdout, stderr) while deciding, beside its decision (local matches:
    #: the replay then holds the bots' own logs).
    decision_logs: bool = False
    #: With decision_logs, write them to this file instead (JSON lines: seat, the seat's decision number,
    #: text), so the replay stays public and each bot's output can be kept for its owner alone (the ladder).
    decision_logs_path: str | None = None
    #: A warm pool's address (referee.warm.WarmPool): Python bots at sandbox level none are forked from warm
    #: parents instead of starting a fresh interpreter each. None: every bot starts cold.
    warm_pool: str | None = None


@dataclass
class SeatReport:
    """How one seat fared."""

    seat: int
    name: str
    rank: int
    score: float
    faults: list[Fault] = field(default_factory=list)
    replaced: bool = False
    exit_code: int | None = None
    stderr_tail: str = ""
    sandbox: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "rank": self.rank,
            "score": self.score,
            "faults": [fault.to_json() for fault in self.faults],
            "replaced": self.replaced,
            "exit_code": self.exit_code,
            "stderr_tail": self.stderr_tail,
            "sandbox": self.sandbox,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> SeatReport:
        return SeatReport(
            seat=int(data["seat"]),
            name=str(data["name"]),
            rank=int(data["rank"]),
            score=float(data["score"]),
            faults=[Fault(**fault) for fault in data.get("faults", [])],
            replaced=bool(data.get("replaced", False)),
            exit_code=data.get("exit_code"),
            stderr_tail=str(data.get("stderr_tail", "")),
            sandbox=dict(data.get("sandbox", {})),
        )


@dataclass
class MatchReport:
    """The outcome of a match: ranks after fault penalties, scores, and what went wrong per seat."""

    match_id: str
    game: str
    config: dict[str, Any]
    seed: int
    ranks: list[int]
    scores: list[float]
    seats: list[SeatReport]
    decisions: int
    duration_seconds: float
    replay_path: str | None
    engine_ranks: list[int] = field(default_factory=list)
    #: The game's own result details (for example a solo rank title), JSON-able.
    details: dict[str, Any] = field(default_factory=dict)
    #: COMPLETE, or VOID: every seat faulted before any bot made a decision, so there is no result
    #: (ranks and scores are empty; a ladder must not rate it). `void_reason` says why.
    status: str = COMPLETE
    void_reason: str = ""
    #: The hash of the seed published at the start (referee.chance.seed_commitment).
    seed_commitment: str = ""
    #: The match started from a position (MatchSpec.position), not from the game's initial state.
    from_position: bool = False

    @property
    def void(self) -> bool:
        """True if the match has no result (see `status`)."""
        return self.status == VOID

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "status": self.status,
            "void_reason": self.void_reason,
            "game": self.game,
            "config": self.config,
            "seed": self.seed,
            "ranks": self.ranks,
            "scores": self.scores,
            "engine_ranks": self.engine_ranks,
            "seats": [seat.to_json() for seat in self.seats],
            "decisions": self.decisions,
            "duration_seconds": self.duration_seconds,
            "replay_path": self.replay_path,
            "details": self.details,
            "seed_commitment": self.seed_commitment,
            "from_position": self.from_position,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> MatchReport:
        return MatchReport(
            match_id=str(data["match_id"]),
            game=str(data["game"]),
            config=dict(data["config"]),
            seed=int(data["seed"]),
            ranks=[int(rank) for rank in data["ranks"]],
            scores=[float(score) for score in data["scores"]],
            seats=[SeatReport.from_json(seat) for seat in data["seats"]],
            decisions=int(data["decisions"]),
            duration_seconds=float(data["duration_seconds"]),
            replay_path=data.get("replay_path"),
            engine_ranks=[int(rank) for rank in data.get("engine_ranks", [])],
            details=dict(data.get("details") or {}),
            from_position=bool(data.get("from_position", False)),
            status=str(data.get("status", COMPLETE)),
            void_reason=str(data.get("void_reason", "")),
            seed_commitment=str(data.get("seed_commitment", "")),
        )


def final_ranks(engine_ranks: Sequence[int], replaced: Sequence[bool]) -> list[int]:
    """Ranks after penalties: every replaced seat ranks below every other seat; order otherwise kept.

    With no replaced seat, or a single seat (ranked by the engine against its own opponent), the
    engine's ranks stand.
    """
    if not any(replaced) or len(engine_ranks) == 1:
        return list(engine_ranks)
    keys = [(0 if out else 1, -rank) for rank, out in zip(engine_ranks, replaced)]
    return list(competition_ranks(keys))


@dataclass
class _Seat:
    """The runner's bookkeeping for one seat."""

    index: int
    spec: BotSpec
    agent: SeatAgent | None
    clock: SeatClock
    fallback_rng: random.Random
    world_rng: random.Random
    faults: list[Fault] = field(default_factory=list)
    replaced: bool = False
    event_cursor: int = 0
    faults_recorded: int = 0
    #: This seat's own numbering: request ids and event sequence numbers count only what it received.
    next_request_id: int = 1
    events_sent: int = 0

    def number_events(self, events: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
        """Renumber events (from log positions) in this seat's own sequence, so gaps say nothing of others."""
        numbered = messages.seat_numbered(events, self.events_sent)
        self.events_sent += len(events)
        return numbered

    def fault(self, fault: Fault, decision_index: int | None) -> None:
        """Keep a fault with where it happened: the match's decision and this seat's last request."""
        fault.decision_index = decision_index
        if decision_index is not None and self.next_request_id > 1:
            fault.seat_decision = self.next_request_id - 1
        self.faults.append(fault)


def start_position(position: Mapping[str, Any], game: str, players: int) -> GameState:
    """The checked state a match starts from; ConfigError if it is another game's or another player count's."""
    from referee.position import load_position

    state = load_position(position)
    if state.game.id != game:
        raise ConfigError(f"the position is of {state.game.id}, not {game}")
    if state.config.players != players:
        raise ConfigError(f"the position has {state.config.players} players, but {players} bots were given")
    return state


class _Match:
    """One match in progress (internal: use run_match)."""

    def __init__(self, spec: MatchSpec, on_result: Callable[[MatchReport], None] | None = None) -> None:
        self.spec = spec
        #: Called with the report the moment the result is known, before the bots are stopped.
        self.on_result = on_result
        self.game = get_game(spec.game)
        self.config = self.game.make_config(len(spec.bots), spec.variants)
        self.start = None if spec.position is None else start_position(spec.position, spec.game, len(spec.bots))
        if self.start is not None:
            self.config = self.start.config
        self.wire = get_wire(spec.game)
        self.match_id = spec.match_id or uuid.uuid4().hex[:12]
        # Chance, fallback choices and worlds each draw from their own stream keyed by the secret seed.
        self.rng = KeyedRandom(spec.seed, "chance")
        self.commitment = seed_commitment(spec.seed, self.match_id)
        self.recorder = ReplayRecorder()
        self.decision_logs = DecisionLogs() if spec.decision_logs else None
        if spec.live_replay and spec.replay_path:
            self.recorder.live_path = live_path_of(spec.replay_path)
            self.recorder.live_path.unlink(missing_ok=True)
        self.decisions = 0
        #: Decisions a bot answered itself (not forced, not the fallback): none means nobody played.
        self.bot_decisions = 0
        self.server: ArenaServer | None = None
        #: The requests of the decision being awaited, and the answers of its bot processes not yet handled.
        self.answers_for: Mapping[Seat, messages.OutgoingRequest] | None = None
        self.early_answers: dict[Seat, Answer | Fault] = {}
        self.scratch: Path | None = None
        self.lease: Lease | None = None
        self.seats: list[_Seat] = [
            _Seat(
                i,
                bot,
                None,
                SeatClock.start(spec.time_control),
                KeyedRandom(spec.seed, f"fallback:{i}"),
                KeyedRandom(spec.seed, f"world:{i}"),
            )
            for i, bot in enumerate(spec.bots)
        ]

    # ----- set-up -------------------------------------------------------------------
    def start_bots(self) -> None:
        control = self.spec.time_control
        if any(seat.spec.command is not None for seat in self.seats):
            reap_once()
            self.scratch = Path(tempfile.mkdtemp(prefix=f"b99-{self.match_id}-"))
            self.lease = Lease.create(self.scratch)
            # no listener shared by the seats: each seat gets its own (open_seat), so one seat's
            # connections can never crowd out another's
            # driven: this thread runs the server's loop while it waits, so no decision crosses threads
            self.server = ArenaServer(None, driven=True).start()
        for seat in self.seats:
            if seat.spec.factory is not None:
                try:
                    seat.agent = InProcessSeat(seat.spec.name, seat.spec.factory())
                except Exception as error:  # noqa: BLE001 - a bot that cannot be built is a start-up fault
                    seat.fault(Fault(FaultKind.STARTUP, f"bot could not be created: {error}"), None)
                    seat.replaced = True
                continue
            server = self.server
            if server is None:
                raise RuntimeError("arena server missing")
            token = secrets.token_urlsafe(24)
            line = SeatLine(seat.index, token)
            environment = dict(seat.spec.env)
            environment[ADDRESS_VARIABLE] = server.open_seat(line, self.seat_address(seat.index))
            environment[TOKEN_VARIABLE] = token
            try:
                process = self.launch(seat, environment)
            except BotLaunchError as error:
                seat.fault(Fault(FaultKind.STARTUP, str(error)), None)
                seat.replaced = True
                continue
            seat.agent = RemoteSeat(seat.spec.name, line, process)
            self.pause(0.0)  # the hellos of seats launched so far are read (and timed) now, not after every launch
        self.await_hellos(control.startup_seconds)

    def await_hellos(self, allowance: float) -> None:
        """Wait for every seat's hello at once; each seat has `allowance` seconds from its own launch,
        and only a seat that did not say hello in its own time is faulted."""
        waiting = [(seat, seat.agent) for seat in self.seats if seat.agent is not None and not seat.replaced]
        while waiting:
            still = []
            for seat, agent in waiting:
                status = agent.poll_startup(allowance)
                if isinstance(status, Fault):
                    self.replace(seat, status, None)
                elif status is False:
                    still.append((seat, agent))
            waiting = still
            if waiting:
                self.pause(0.02)

    def pause(self, seconds: float) -> None:
        """Let `seconds` pass, serving the bots' streams meanwhile."""
        if self.server is not None:
            self.server.pause(seconds)
        else:
            time.sleep(seconds)

    def seat_address(self, index: int) -> str:
        """Where seat `index`'s own listener goes: a Unix socket whose name the other seats cannot
        guess (the match directory is not listable), or a fresh loopback port."""
        if self.spec.transport != "unix" or self.scratch is None:
            return "127.0.0.1:0"
        return f"unix:{self.scratch / f'seat{index}-{secrets.token_hex(8)}.sock'}"

    def launch(self, seat: _Seat, environment: dict[str, str]):  # type: ignore[no-untyped-def]
        """Start a seat's process under its sandbox level; BotLaunchError if that level cannot run here."""
        if self.scratch is None or self.server is None:
            raise RuntimeError("no scratch directory")
        command = seat.spec.command or ()
        level = seat.spec.sandbox
        socket_path = self.server.seat_addresses.get(seat.index, ("", None))[1]
        if level == "strict":
            if socket_path is None:
                raise BotLaunchError(f"seat {seat.index}: a strict sandbox has no network; play it over the Unix socket, not TCP")
            environment[ADDRESS_VARIABLE] = f"unix:{SANDBOX_SOCKET}"
        request = SandboxRequest(level, seat.spec.limits, socket_path, self.lease)
        warm = None
        if self.spec.warm_pool is not None and level == "none":
            slot = sum(1 for other in self.seats[: seat.index] if other.spec == seat.spec)
            warm = WarmRequest(self.spec.warm_pool, seat.spec.name, slot)
        return launch(seat.index, command, environment, self.scratch / f"seat{seat.index}", seat.spec.cwd, request, warm)

    def record_faults(self) -> None:
        """Put every fault not yet in the replay into its timeline, where it happened."""
        for seat in self.seats:
            for fault in seat.faults[seat.faults_recorded :]:
                self.recorder.add({"type": "fault", "seat": seat.index, **fault.to_json()})
            seat.faults_recorded = len(seat.faults)

    # ----- faults -------------------------------------------------------------------
    def replace(self, seat: _Seat, fault: Fault, decision_index: int | None) -> None:
        """Record the fault, tell the bot, and hand the seat to the fallback policy for good."""
        seat.fault(fault, decision_index)
        if seat.replaced:
            return
        seat.replaced = True
        if seat.agent is not None:
            seat.agent.send(messages.error(arena_pb2.REPLACED, f"{fault_words(fault)}; the fallback policy plays this seat"))
            seat.agent.close()

    # ----- the game loop ------------------------------------------------------------
    def play(self) -> MatchReport:
        began = time.monotonic()
        state = self.game.new_initial_state(self.config) if self.start is None else self.start.clone()
        self.recorder.header(
            **({} if self.spec.position is None else {"position": dict(self.spec.position)}),
            match_id=self.match_id,
            config=self.config.to_json(),
            # The seed itself is revealed only by the last line, once the match is over.
            seed_commitment=self.commitment,
            chance=CHANCE_SCHEME,
            seats=[seat.spec.name for seat in self.seats],
            time_control=vars_of(self.spec.time_control),
            ask_forced=self.spec.ask_forced,
        )
        self.recorder.initial_events(state)
        try:
            self.start_bots()
            self.record_faults()
            if self.nobody_plays():
                return self.finish_void(time.monotonic() - began)
            for seat in self.seats:
                if seat.agent is not None and not seat.replaced:
                    seat.agent.send(messages.game_start(self.match_id, self.config, seat.index, self.spec.time_control, self.commitment))
            while not state.is_terminal():
                if state.is_chance_node():
                    outcome = sample_outcome(state.chance_outcomes(), self.rng)
                    state.apply_chance(outcome.id)
                    self.recorder.chance(state, outcome.id)
                else:
                    self.decide(state)
                    if self.nobody_plays():
                        return self.finish_void(time.monotonic() - began)
            return self.finish(state, time.monotonic() - began)
        finally:
            self.shutdown()

    def decide(self, state: GameState) -> None:
        deciding = state.deciding_seats()
        options = {seat: list(state.legal_options(seat)) for seat in deciding}
        choices: dict[Seat, str] = {}
        how: dict[Seat, str] = {}
        elapsed: dict[Seat, float] = {}
        pending: dict[Seat, messages.OutgoingRequest] = {}
        decision_index = self.decisions
        shared: SharedParts = {}  # what every deciding seat's view shows alike, written once for this decision
        for seat in self.seats:
            flooded = seat.agent.flood() if seat.agent is not None and not seat.replaced else None
            if flooded is not None:
                self.replace(seat, flooded, decision_index)
        for seat_index in deciding:
            seat = self.seats[seat_index]
            seat_options = options[seat_index]
            if len(seat_options) == 1 and not self.spec.ask_forced \
                    and state.decision_name(seat_index) not in self.game.asked_even_when_forced:
                choices[seat_index] = seat_options[0].id
                how[seat_index] = "forced"
                continue
            if seat.replaced or seat.agent is None:
                continue
            events = seat.number_events(messages.seat_events(state, seat_index, seat.event_cursor))
            seat.event_cursor = len(state.events)
            # Written as bytes: a bot process's stream sends them as they are, an in-process bot parses them.
            request = messages.outgoing_request(self.wire, seat.next_request_id, state, seat_index, seat_options, events, seat.clock, shared)
            seat.next_request_id += 1
            if self.spec.worlds and seat.agent.wants_world:
                # A separate RNG per seat: asking for worlds never changes the match's chance outcomes.
                try:
                    if isinstance(seat.agent, InProcessSeat):
                        seat.agent.pending_world = in_process_world(state, seat_index, seat.world_rng)
                    else:
                        request.world = encode_world(state, seat_index, seat.world_rng)
                except (pickle.PicklingError, TypeError, AttributeError) as error:
                    # An engine state that cannot travel: the bot plays on without worlds.
                    warnings.warn(f"{self.game.id}: no world for seat {seat_index}: {error}", RuntimeWarning, stacklevel=1)
            seat.agent.send(request)
            pending[seat_index] = request
        for seat_index, request in pending.items():
            seat = self.seats[seat_index]
            if seat.agent is None:
                continue
            outcome = self.answer(seat_index, pending)
            if isinstance(outcome, Answer):
                legal = {option.id for option in options[seat_index]}
                if outcome.option_id in legal:
                    seat.clock.charge(outcome.elapsed)
                    choices[seat_index] = outcome.option_id
                    how[seat_index] = "bot"
                    elapsed[seat_index] = outcome.elapsed
                    self.bot_decisions += 1
                    continue
                self.replace(seat, Fault(FaultKind.ILLEGAL_OPTION, f"{outcome.option_id!r} is not offered"), decision_index)
            elif outcome.kind == FaultKind.TIMEOUT:
                outcome = timeout_fault(outcome, seat.clock, request.request_id)
                if seat.clock.strike():
                    self.replace(seat, outcome, decision_index)
                else:
                    seat.fault(outcome, decision_index)
                    seat.agent.send(messages.error(arena_pb2.TIMEOUT, outcome.detail, request.request_id))
            else:
                self.replace(seat, outcome, decision_index)
        for seat_index in deciding:
            if seat_index not in choices:
                seat = self.seats[seat_index]
                seat_options = options[seat_index]
                choices[seat_index] = seat_options[seat.fallback_rng.randrange(len(seat_options))].id
                how[seat_index] = "fallback"
        if self.decision_logs is not None:
            self.record_logs(pending)
        self.record_faults()
        state.apply_decisions(choices)
        self.decisions += 1
        self.recorder.decision(state, choices, how, elapsed)

    def answer(self, seat_index: Seat, pending: Mapping[Seat, messages.OutgoingRequest]) -> Answer | Fault:
        """Seat `seat_index`'s answer to its request in `pending`, or its fault. The first call of a decision
        takes every bot process's answer (kept until asked for) before any in-process bot thinks: bot
        processes are read only while the referee waits, and an in-process bot's thinking would otherwise
        delay their answers past their limits."""
        if self.answers_for is not pending:
            self.answers_for = pending
            self.early_answers = {
                other: self.await_seat(other, request)
                for other, request in pending.items()
                if isinstance(self.seats[other].agent, RemoteSeat)
            }
        if seat_index in self.early_answers:
            return self.early_answers.pop(seat_index)
        return self.await_seat(seat_index, pending[seat_index])

    def await_seat(self, seat_index: Seat, request: messages.OutgoingRequest) -> Answer | Fault:
        seat = self.seats[seat_index]
        if seat.agent is None:
            return Fault(FaultKind.DISCONNECT, "no bot")
        return seat.agent.await_answer(request, seat.clock.deadline_seconds())

    def record_logs(self, asked: Mapping[Seat, object]) -> None:
        """The output of each asked seat's process since its last decision: a replay line before the decision, or
        lines of the side file (decision_logs_path)."""
        streams = {}
        for seat_index in asked:
            process = getattr(self.seats[seat_index].agent, "process", None)
            if process is not None:
                for pump in process.logs:
                    pump.caught_up(CATCH_UP_SECONDS)
                streams[seat_index] = {"stdout": process.stdout_path, "stderr": process.stderr_path}
        record = self.decision_logs.record(streams) if self.decision_logs is not None else None
        if record is None:
            return
        if self.spec.decision_logs_path is None:
            self.recorder.add(record)
            return
        with open(self.spec.decision_logs_path, "a", encoding="utf-8") as side:
            for seat_index, text in dict(record["seats"]).items():  # type: ignore[call-overload]
                request = asked[int(seat_index)]
                line = {"seat": int(seat_index), "decision": int(getattr(request, "request_id", 0)), "text": text}
                side.write(json.dumps(line) + "\n")

    def finish(self, state: GameState, duration: float) -> MatchReport:
        result = state.result()
        for seat in self.seats:
            if isinstance(seat.agent, RemoteSeat) and not seat.replaced:
                flooded = seat.agent.flood()
                stray = seat.agent.drain()
                if flooded is not None:
                    seat.fault(flooded, None)
                elif stray:
                    seat.fault(Fault(FaultKind.PROTOCOL_ERROR, f"{len(stray)} unrequested message(s) at game end"), None)
                flood = seat.agent.process.output_flood() if seat.agent.process is not None else None
                if flood is not None:
                    seat.fault(flood, None)
        replaced = [seat.replaced for seat in self.seats]
        ranks = final_ranks(result.ranks, replaced)
        summary = ", ".join(f"seat {i}: rank {rank}" for i, rank in enumerate(ranks))
        for seat in self.seats:
            if seat.agent is not None and not seat.replaced:
                events = seat.number_events(messages.seat_events(state, seat.index, seat.event_cursor))
                seat.event_cursor = len(state.events)
                seat.agent.send(messages.game_over(self.wire, result, ranks, events, summary, self.spec.seed))
        self.record_faults()
        # Bots get a moment to run their game-over hooks and exit by themselves before being stopped;
        # the caller's handling of the result runs within that moment.
        grace_deadline = time.monotonic() + GAME_OVER_GRACE_SECONDS
        for seat in self.seats:
            if isinstance(seat.agent, RemoteSeat) and not seat.replaced:
                seat.agent.line.flush(max(0.0, grace_deadline - time.monotonic()))
        # Nothing found while the bots are stopped changes the result: it is known, and handed over, now.
        self.recorder.add({"type": "faults", "seats": [[f.to_json() for f in seat.faults] for seat in self.seats]})
        self.recorder.add(
            {
                "type": "result",
                "engine_ranks": list(result.ranks),
                "ranks": ranks,
                "scores": [float(score) for score in result.scores],
                "replaced": replaced,
            }
        )
        self.recorder.add({"type": "seed", "seed": self.spec.seed})
        if self.spec.replay_path:
            self.recorder.write(self.spec.replay_path)
        report = MatchReport(
            match_id=self.match_id,
            game=self.game.id,
            config=self.config.to_json(),
            seed=self.spec.seed,
            ranks=ranks,
            scores=[float(score) for score in result.scores],
            seats=[seat_report(seat, ranks[seat.index], float(result.scores[seat.index])) for seat in self.seats],
            decisions=self.decisions,
            duration_seconds=duration,
            replay_path=self.spec.replay_path,
            engine_ranks=list(result.ranks),
            details=dict(result.details),
            seed_commitment=self.commitment,
            from_position=self.spec.position is not None,
        )
        try:
            if self.on_result is not None:
                self.on_result(report)
        finally:
            for seat in self.seats:
                if seat.agent is not None:
                    seat.agent.close(max(0.0, grace_deadline - time.monotonic()))
        # The bots are stopped: their exit codes and last stderr lines complete the report.
        return dataclasses.replace(report, seats=[seat_report(seat, ranks[seat.index], float(result.scores[seat.index]))
                                                  for seat in self.seats])

    def nobody_plays(self) -> bool:
        """True when every seat has been replaced and no bot ever made a decision: a void match."""
        return self.bot_decisions == 0 and all(seat.replaced for seat in self.seats)

    def finish_void(self, duration: float) -> MatchReport:
        """End a match nobody played: no ranks, no scores, every fault kept, the replay says why."""
        reason = "every seat faulted before any bot made a decision: " + "; ".join(
            f"seat {seat.index} {seat.faults[0].kind}" for seat in self.seats if seat.faults
        )
        self.record_faults()
        seat_reports = []
        for seat in self.seats:
            if seat.agent is not None:
                seat.agent.close()
            seat_reports.append(
                seat_report(seat, 0, 0.0)
            )
        self.recorder.add({"type": "faults", "seats": [[f.to_json() for f in seat.faults] for seat in self.seats]})
        self.recorder.add({"type": "void", "reason": reason, "decisions": self.decisions})
        self.recorder.add({"type": "seed", "seed": self.spec.seed})
        if self.spec.replay_path:
            self.recorder.write(self.spec.replay_path)
        report = MatchReport(
            match_id=self.match_id,
            game=self.game.id,
            config=self.config.to_json(),
            seed=self.spec.seed,
            ranks=[],
            scores=[],
            seats=seat_reports,
            decisions=self.decisions,
            duration_seconds=duration,
            replay_path=self.spec.replay_path,
            status=VOID,
            void_reason=reason,
            seed_commitment=self.commitment,
            from_position=self.spec.position is not None,
        )
        if self.on_result is not None:
            self.on_result(report)
        return report

    def shutdown(self) -> None:
        for seat in self.seats:
            if seat.agent is not None:
                try:
                    seat.agent.close()
                except Exception:  # noqa: BLE001 - shutting down must not hide the match's own outcome
                    pass
        if self.server is not None:
            self.server.stop()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
        if self.lease is not None:
            self.lease.release()


def seat_report(seat: _Seat, rank: int, score: float) -> SeatReport:
    """A seat's line in the report: its result, faults, exit code, stderr tail and sandbox."""
    return SeatReport(
        seat=seat.index,
        name=seat.spec.name,
        rank=rank,
        score=score,
        faults=seat.faults,
        replaced=seat.replaced,
        exit_code=seat.agent.exit_code() if seat.agent is not None else None,
        stderr_tail=seat.agent.stderr_tail()[-2000:] if seat.agent is not None else "",
        sandbox=seat_sandbox(seat),
    )


def seat_sandbox(seat: _Seat) -> dict[str, Any]:
    """What confined a seat's bot (an in-process bot runs inside the referee)."""
    if isinstance(seat.agent, RemoteSeat) and seat.agent.process is not None:
        return seat.agent.process.sandbox_report()
    if seat.spec.factory is not None:
        return {"level": "in-process", "isolation": "none: the bot runs inside the referee"}
    return {"level": seat.spec.sandbox}


def vars_of(control: TimeControl) -> dict[str, Any]:
    return {name: getattr(control, name) for name in control.__dataclass_fields__}


def run_match(spec: MatchSpec, on_result: Callable[[MatchReport], None] | None = None) -> MatchReport:
    """Play one match to the end and report it (see the module docstring for the fault policy).

    `on_result`, when given, is called once with the report as soon as the result is known: the game
    is over, the bots were sent game over and the replay is written, but the bots are still being
    stopped (a bot that ignores game over holds them for up to its grace period). Its seats' exit codes
    and stderr tails are then those of that moment; the returned report has them after the bots ended.
    An exception it raises comes out of run_match once the bots are stopped. A void match calls it
    with its report just before run_match returns.

    A bad spec (unknown game, bad config, bad bot spec) raises ConfigError/UnknownGameError before
    any bot starts. Any other exception means the platform itself broke.
    """
    if not spec.bots:
        raise ConfigError("a match needs at least one bot")
    if spec.transport not in ("unix", "tcp"):
        raise ConfigError(f"transport must be unix or tcp, not {spec.transport!r}")
    return _Match(spec, on_result).play()
