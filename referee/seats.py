"""How the runner talks to each seat: an in-process Bot object, or a bot process over its gRPC stream.

Both take the same protobuf messages, so an in-process bot sees exactly what a remote one sees.
`await_answer` returns the option id a bot chose, or the Fault that ends its turn.
"""

from __future__ import annotations

import time
import traceback
from abc import ABC, abstractmethod
from dataclasses import dataclass

import b99.arena_pb2 as arena_pb2
from referee.arena_server import FLOOD_PREFIX, SeatLine
from referee.engine import GameState
from referee.faults import Fault, FaultKind
from referee.launcher import BotProcess
from referee.messages import OutgoingRequest
from sdk.answer import BadAnswer, option_id_of
from sdk.bot import Bot
from sdk.decode import game_over_info, game_start_info, request_info
from sdk.forward import InformationSet
from sdk.types import GameStartInfo


#: A request as the runner holds it: written as bytes (what a match sends), or a message (tests, benchmarks).
SentRequest = arena_pb2.DecisionRequest | OutgoingRequest
#: What the runner sends a seat: a message, or a request written as bytes.
Outgoing = arena_pb2.RefereeMessage | OutgoingRequest

#: How long closing a seat waits, at most, for what was sent to it to be written to its stream.
FLUSH_SECONDS = 0.2


@dataclass(frozen=True, slots=True)
class Answer:
    """A bot's answer: the option id it named (not yet checked against the options) and its thinking time."""

    option_id: str
    elapsed: float


class SeatAgent(ABC):
    """One seat's bot as the runner sees it."""

    name: str

    @property
    def wants_world(self) -> bool:
        """True if the bot asked for a world of its information set with each request (sdk.forward)."""
        return False

    @abstractmethod
    def connect(self, timeout: float) -> Fault | None:
        """Wait until the bot is ready to play; a Fault if it never is."""

    def poll_startup(self, allowance: float) -> Fault | bool:
        """True once the bot is ready, its Fault once it cannot be, False while it may still start."""
        return True

    def flood(self) -> Fault | None:
        """The flood fault if the bot sent more than the referee holds for it (its stream is cut)."""
        return None

    @abstractmethod
    def send(self, message: Outgoing) -> None:
        """Deliver game start, a request, an error or game over."""

    @abstractmethod
    def await_answer(self, request: SentRequest, timeout: float) -> Answer | Fault:
        """The answer to `request` within `timeout` seconds (from when it was sent), or the fault."""

    @abstractmethod
    def close(self, grace_seconds: float = 0.0) -> None:
        """Release the bot: give its process `grace_seconds` to exit by itself, then stop it."""

    def exit_code(self) -> int | None:
        return None

    def stderr_tail(self) -> str:
        return ""


class InProcessSeat(SeatAgent):
    """A Bot object called directly: no gRPC, same messages. Its time is measured, not preempted."""

    def __init__(self, name: str, bot: Bot) -> None:
        self.name = name
        self.bot = bot
        self.start: GameStartInfo | None = None
        self.sent_at = 0.0
        self.last_error = ""
        self.pending_world: GameState | None = None

    @property
    def wants_world(self) -> bool:
        return bool(getattr(self.bot, "wants_world", False))

    def connect(self, timeout: float) -> Fault | None:
        return None

    def send(self, message: Outgoing) -> None:
        if isinstance(message, OutgoingRequest):
            self.sent_at = time.monotonic()
            return
        body = message.WhichOneof("body")
        try:
            if body == "game_start":
                self.start = game_start_info(message.game_start)
                self.bot.on_game_start(self.start)
            elif body == "game_over":
                self.bot.on_game_over(game_over_info(message.game_over))
            elif body == "decision_request":
                self.sent_at = time.monotonic()
        except Exception:  # noqa: BLE001 - a bot's exception is its fault, reported, never the referee's crash
            self.last_error = traceback.format_exc(limit=5)

    def await_answer(self, request: SentRequest, timeout: float) -> Answer | Fault:
        if self.last_error:
            return Fault(FaultKind.CRASH, "bot raised: " + self.last_error.strip().splitlines()[-1])
        if self.start is None:
            return Fault(FaultKind.PROTOCOL_ERROR, "decision requested before game start")
        began = time.monotonic()
        try:
            info = request_info(self.start, request.decision_request if isinstance(request, OutgoingRequest) else request)
            if self.pending_world is not None:
                info.local_world = InformationSet(info.seat, self.pending_world)
                self.pending_world = None
            answer = self.bot.choose(info)
            option_id = option_id_of(info, answer)
        except BadAnswer as error:
            return Fault(FaultKind.ILLEGAL_OPTION, str(error))
        except Exception:  # noqa: BLE001
            self.last_error = traceback.format_exc(limit=5)
            return Fault(FaultKind.CRASH, "bot raised: " + self.last_error.strip().splitlines()[-1])
        elapsed = time.monotonic() - began
        if elapsed > timeout:
            return Fault(FaultKind.TIMEOUT, f"answered after {elapsed:.3f}s, limit {timeout:.3f}s")
        return Answer(option_id, elapsed)

    def close(self, grace_seconds: float = 0.0) -> None:
        pass

    def stderr_tail(self) -> str:
        return self.last_error


class RemoteSeat(SeatAgent):
    """A bot process (or a remote bot) on a gRPC stream, reached through its SeatLine."""

    def __init__(self, name: str, line: SeatLine, process: BotProcess | None) -> None:
        self.name = name
        self.line = line
        self.process = process
        self.timed_out: set[int] = set()
        self.answered: set[int] = set()
        self.sent_at: dict[int, float] = {}
        self.closed_reason = ""
        #: When the bot was launched (or its seat opened): its start-up allowance runs from here.
        self.launched_at = time.monotonic()

    @property
    def wants_world(self) -> bool:
        return self.line.hello is not None and self.line.hello.want_world

    def connect(self, timeout: float) -> Fault | None:
        deadline = time.monotonic() + timeout
        allowance = deadline - self.launched_at
        while True:
            status = self.poll_startup(allowance)
            if status is True:
                return None
            if isinstance(status, Fault):
                return status
            self.line.pause(0.02)

    def poll_startup(self, allowance: float) -> Fault | bool:
        """True once the bot said hello within `allowance` seconds of its own launch; the Fault once
        it cannot any more; False while it still may. Never blocks."""
        line = self.line
        if line.hello_at is not None and line.hello_at - self.launched_at <= allowance:
            return True
        if line.flooded:
            return Fault(FaultKind.FLOOD, f"before saying hello: {line.flooded}")
        if line.hello_at is None and line.has_inbound():
            ended = line.take()
            if ended is not None and ended.message is None:
                reason = ended.reason.removeprefix("protocol violation: ")
                return Fault(FaultKind.STARTUP, f"{reason} (no hello)")
        if line.hello_at is not None:
            late = line.hello_at - self.launched_at
            return Fault(FaultKind.STARTUP, f"no hello within {allowance:.1f}s of its launch (it came after {late:.1f}s)")
        if self.process is not None and self.process.exit_code() is not None:
            ended = self.process.end_fault("before saying hello")
            kind = ended.kind if ended.kind in (FaultKind.MEMORY, FaultKind.CPU, FaultKind.OUTPUT_FLOOD) else FaultKind.STARTUP
            return Fault(kind, f"exited before saying hello ({ended.detail.removesuffix(' (before saying hello)')})")
        if time.monotonic() - self.launched_at > allowance:
            return Fault(FaultKind.STARTUP, f"no hello within {allowance:.1f}s of its launch")
        return False

    def flood(self) -> Fault | None:
        """The flood fault if its stream was cut, or the CPU fault once its processes together passed the CPU cap."""
        if self.line.flooded:
            return Fault(FaultKind.FLOOD, self.line.flooded)
        return self.process.cpu_overrun() if self.process is not None else None

    def send(self, message: Outgoing) -> None:
        if isinstance(message, OutgoingRequest):
            # Its bytes go on the stream as they are (the server's serializer passes bytes through).
            self.sent_at[message.request_id] = time.monotonic()
            self.line.send(message.message_bytes())
            return
        if message.WhichOneof("body") == "decision_request":
            self.sent_at[message.decision_request.request_id] = time.monotonic()
        self.line.send(message)

    def await_answer(self, request: SentRequest, timeout: float) -> Answer | Fault:
        request_id = request.request_id
        sent_at = self.sent_at.get(request_id, time.monotonic())
        deadline = sent_at + timeout
        while True:
            flooded = self.flood()
            if flooded is not None:
                return flooded
            remaining = deadline - time.monotonic()
            # Past the deadline, look once more without waiting: an answer that came in time (while
            # the referee was waiting for another seat of a simultaneous decision) still counts.
            inbound = self.line.take(min(max(remaining, 0.0), 0.25))
            if inbound is None:
                if remaining <= 0:
                    self.timed_out.add(request_id)
                    return self._timeout(f"no answer within {timeout:.3f}s")
                if self.process is not None and self.process.exit_code() is not None and not self.line.has_inbound():
                    return self._ended("the process exited")
                continue
            if inbound.message is None:
                return self._ended(inbound.reason)
            body = inbound.message.WhichOneof("body")
            if body != "decision":
                return Fault(FaultKind.PROTOCOL_ERROR, f"sent {body or 'an empty message'} while a decision was pending")
            decision = inbound.message.decision
            if decision.request_id == request_id and inbound.received_at < sent_at:
                return Fault(FaultKind.PROTOCOL_ERROR, f"answered request {request_id} before it was sent")
            if decision.request_id != request_id:
                if decision.request_id in self.timed_out:
                    self.line.send(
                        arena_pb2.RefereeMessage(
                            error=arena_pb2.Error(
                                code=arena_pb2.STALE_REQUEST,
                                message=f"request {decision.request_id} already timed out; answer dropped",
                                request_id=decision.request_id,
                            )
                        )
                    )
                    continue
                what = "already answered" if decision.request_id in self.answered else "unknown"
                return Fault(
                    FaultKind.PROTOCOL_ERROR,
                    f"answered request {decision.request_id} ({what}) while request {request_id} was pending",
                )
            elapsed = inbound.received_at - sent_at
            if elapsed > timeout:
                self.timed_out.add(request_id)
                return self._timeout(f"answered after {elapsed:.3f}s, limit {timeout:.3f}s")
            self.answered.add(request_id)
            choice = decision.WhichOneof("choice")
            if choice == "option_index":
                if decision.option_index >= len(request.options):
                    return Fault(FaultKind.ILLEGAL_OPTION, f"option index {decision.option_index} out of range")
                return Answer(request.options[decision.option_index].id, elapsed)
            if choice != "option_id":
                return Fault(FaultKind.PROTOCOL_ERROR, "decision names no option")
            return Answer(decision.option_id, elapsed)

    def _timeout(self, detail: str) -> Fault:
        notes = self.process.cap_notes() if self.process is not None else ""
        return Fault(FaultKind.TIMEOUT, f"{detail}; {notes}" if notes else detail)

    def _ended(self, reason: str) -> Fault:
        self.closed_reason = reason
        if reason.startswith("protocol violation: "):
            return Fault(FaultKind.PROTOCOL_ERROR, reason.removeprefix("protocol violation: "))
        if reason.startswith(FLOOD_PREFIX):
            return Fault(FaultKind.FLOOD, reason.removeprefix(FLOOD_PREFIX))
        if self.process is not None:
            return self.process.end_fault(reason)
        return Fault(FaultKind.DISCONNECT, reason)

    def drain(self) -> list[arena_pb2.BotMessage]:
        """Messages that arrived while no decision was pending (each one is a protocol violation)."""
        stray = []
        while True:
            inbound = self.line.take(0.0)  # driven: what the loop has ready is read first
            if inbound is None:
                return stray
            if inbound.message is None:
                self.closed_reason = inbound.reason
            else:
                stray.append(inbound.message)

    def close(self, grace_seconds: float = 0.0) -> None:
        """Hang up (what was sent still reaches the bot: a REPLACED error, the game over), give the process
        `grace_seconds` to exit by itself, then stop it."""
        self.line.hang_up()
        self.line.flush(max(grace_seconds, FLUSH_SECONDS))
        if self.process is not None:
            if grace_seconds > 0 and self.process.exit_code() is None:
                self._wait_exit(grace_seconds)
            self.process.stop()

    def _wait_exit(self, seconds: float) -> None:
        """Wait up to `seconds` for the process to exit; a driven line serves its stream meanwhile."""
        if self.process is None:
            return
        if self.line.driver is None:
            self.process.wait(seconds)
            return
        deadline = time.monotonic() + seconds
        while self.process.exit_code() is None and time.monotonic() < deadline:
            self.line.driver.run(min(0.01, deadline - time.monotonic()))

    def exit_code(self) -> int | None:
        return self.process.exit_code() if self.process is not None else None

    def stderr_tail(self) -> str:
        return self.process.stderr_tail() if self.process is not None else ""
