"""The referee's gRPC Arena service: bots dial in, prove their seat with a token, and exchange messages.

The servicer only moves messages between a stream and its seat's line; the match runner owns all
game logic and decides what every message means.

The server is asynchronous (grpc.aio on an event loop of its own): a stream that says nothing holds
a coroutine, not a worker thread, so no number of idle streams can delay another seat's hello. A
bot proves its seat before it sends anything, with its token in the call's metadata
(`b99-seat-token`); a stream without that metadata (an SDK that only puts the token in its hello)
is still served, but gets `HELLO_WAIT_SECONDS` to say hello and counts against a cap on such
streams, which never applies to streams that authenticated by metadata. Each seat's inbox is
bounded in messages and bytes: a bot that sends more than that, or one message larger than
MAX_MESSAGE_BYTES, floods, and its stream is cut before the referee's memory grows.

A match gives every seat a listener of its own (`open_seat`): a Unix socket (or loopback port) that
only that seat's token opens, which accepts at most SEAT_CONNECTIONS connections at once (gRPC closes
the rest as they are accepted, before any byte is read) and SEAT_UNAUTHENTICATED streams waiting for
a hello. A bot that opens connections by the thousand exhausts its own listener, never the other
seats' nor the referee's descriptors; the referee raises its own descriptor limit at start and
refuses new streams past DESCRIPTOR_SHARE of it.

A match drives the server's event loop from its own thread (`ArenaServer(driven=True)`): the loop runs
only while the match waits (for an answer, a hello, a bot's exit), so a request goes from the match to
the stream and the answer back with no hand-off between threads. Without `driven`, a thread of the
server's own runs the loop and whoever waits on a line is woken across threads.
"""

from __future__ import annotations

import asyncio
import collections
import os
import resource
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import grpc

import b99.arena_pb2 as arena_pb2
from sdk.run import TOKEN_METADATA

MAX_MESSAGE_BYTES = 256 * 1024
#: What the transport accepts: above MAX_MESSAGE_BYTES, so an oversized message is seen and reported, not just dropped.
TRANSPORT_MAX_BYTES = 2 * 1024 * 1024
#: Messages a seat may have waiting for the referee; an honest bot never has more than a few.
INBOX_MESSAGES = 32
#: Bytes a seat may have waiting for the referee.
INBOX_BYTES = 1024 * 1024
#: How long a stream without the token in its metadata may take to say hello.
HELLO_WAIT_SECONDS = 10.0
#: Streams without the token in their metadata that may wait for their hello at once.
MAX_UNAUTHENTICATED = 64
#: Streams one HTTP/2 connection may open at once (a bot needs one).
STREAMS_PER_CONNECTION = 8
#: Connections one seat's listener holds at once; an honest bot needs one (gRPC closes the others on accept).
SEAT_CONNECTIONS = 4
#: Streams on one seat's listener that may wait for their hello at once.
SEAT_UNAUTHENTICATED = 2
#: The largest hello accepted: a token and a few names.
HELLO_MAX_BYTES = 4 * 1024
#: New streams are refused once the referee holds more than this share of its descriptor limit.
DESCRIPTOR_SHARE = 0.5
#: The reason that starts an inbound end-of-stream when a bot flooded its inbox or sent an oversized message.
FLOOD_PREFIX = "flood: "


@dataclass(frozen=True, slots=True)
class Rejected:
    """A message from a bot that is not one: bytes that do not parse, or more of them than allowed."""

    reason: str
    oversized: bool = False


def read_bot_message(raw: bytes) -> arena_pb2.BotMessage | Rejected:
    """Parse a bot's message; never raises, so a bad message becomes a reported fault."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return Rejected(f"sent a {len(raw):,}-byte message; the limit is {MAX_MESSAGE_BYTES:,} bytes", oversized=True)
    try:
        return arena_pb2.BotMessage.FromString(raw)
    except Exception:  # noqa: BLE001 - protobuf raises DecodeError and others on garbage
        return Rejected(f"sent {len(raw):,} bytes that are not a BotMessage")


class Inbound(NamedTuple):
    """Something that arrived for a seat: a message, or the end of its stream (message None)."""

    message: arena_pb2.BotMessage | None
    received_at: float
    reason: str = ""
    size: int = 0


class LoopDriver:
    """An event loop run by the thread that waits on it, only while it waits (see the module docstring).

    One timer ends a run at its deadline; it is moved only when a run needs an earlier one (a timer
    that comes first re-arms itself), so a wait costs no timer of its own."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._deadline = 0.0
        self._running = False
        self._timer: asyncio.TimerHandle | None = None

    def run(self, timeout: float) -> None:
        """Run the loop until `stop` or `timeout` seconds passed (0: handle what is ready, once)."""
        loop = self.loop
        self._deadline = deadline = loop.time() + max(0.0, timeout)
        timer = self._timer
        if timer is None or timer.when() > deadline:
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(deadline, self._due)
        self._running = True
        try:
            loop.run_forever()
        finally:
            self._running = False

    def stop(self) -> None:
        """End the current run once the callback that calls this returns (called on the loop)."""
        if self._running:
            self._running = False
            self.loop.stop()

    def _due(self) -> None:
        self._timer = None
        if not self._running:
            return
        if self.loop.time() >= self._deadline:
            self.stop()
        else:
            self._timer = self.loop.call_at(self._deadline, self._due)


@dataclass
class SeatLine:
    """One seat's connection: a bounded inbox the runner reads, and an outbox the stream drains.

    The runner calls `send`, `hang_up`, `take`, `pause` and `flush`; the server's event loop calls the
    rest. With a `driver` (a driven server) both sides are the runner's thread: a wait runs the loop.
    """

    seat: int
    token: str
    connected: threading.Event = field(default_factory=threading.Event)
    hello: arena_pb2.Hello | None = None
    #: When the hello was accepted (time.monotonic()), None before.
    hello_at: float | None = None
    #: Why the seat's stream was cut for flooding ('' if it was not).
    flooded: str = ""
    #: Runs the server's loop while the runner waits (a driven server); None: the loop has a thread of its own.
    driver: LoopDriver | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    #: Without a driver: how the loop's thread wakes a runner waiting in `take`.
    _arrived: threading.Condition = field(init=False)
    _inbox: collections.deque[Inbound] = field(default_factory=collections.deque)
    _waiting_bytes: int = 0
    #: RefereeMessages, or RefereeMessages already serialized (a request written as bytes), None = hang up
    _outbox: collections.deque[arena_pb2.RefereeMessage | bytes | None] = field(default_factory=collections.deque)
    _loop: asyncio.AbstractEventLoop | None = None
    _wakeup: asyncio.Event | None = None
    #: Driven: what the runner waits for while it runs the loop (an arrival, the outbox written).
    _done: Callable[[], bool] | None = None
    _streaming: bool = False

    def __post_init__(self) -> None:
        self._arrived = threading.Condition(self._lock)

    # ----- the runner's side ------------------------------------------------------------
    def send(self, message: arena_pb2.RefereeMessage | bytes) -> None:
        """Queue a message, or a serialized one (sent as it is), for the stream."""
        self._post(message)

    def hang_up(self) -> None:
        self._post(None)

    def has_inbound(self) -> bool:
        """True if something waits to be taken (without running the loop)."""
        return bool(self._inbox)

    def take(self, timeout: float | None = None) -> Inbound | None:
        """The next inbound item, waiting up to `timeout` seconds for one (None: not at all); None if none came.

        Driven, even a zero timeout first handles what the loop has ready, so nothing that arrived is missed."""
        item = self._pop()
        if item is None and timeout is not None:
            if self.driver is not None:
                self._drive(timeout, self.has_inbound)
            elif timeout > 0:
                with self._arrived:
                    self._arrived.wait_for(self.has_inbound, timeout)
            item = self._pop()
        return item

    def pause(self, seconds: float) -> None:
        """Let `seconds` pass (driven: running the loop, so streams are served), returning early once connected."""
        if self.driver is not None:
            self._drive(seconds, self.connected.is_set)
        else:
            self.connected.wait(seconds)

    def flush(self, timeout: float) -> None:
        """Driven: run the loop until everything sent is written to the stream (or it ended), at most
        `timeout` seconds. A server with a thread of its own writes by itself."""
        if self.driver is not None and self._streaming:
            self._drive(timeout, lambda: not self._streaming or self._written())

    def _written(self) -> bool:
        return not self._outbox and self._wakeup is not None and not self._wakeup.is_set()

    def _drive(self, timeout: float, done: Callable[[], bool]) -> None:
        driver = self.driver
        if driver is None:
            return
        deadline = time.monotonic() + timeout
        while True:
            self._done = done
            try:
                driver.run(deadline - time.monotonic())
            finally:
                self._done = None
            if done() or time.monotonic() >= deadline:
                return

    def _pop(self) -> Inbound | None:
        if not self._inbox:
            return None
        with self._lock:
            item = self._inbox.popleft()
            self._waiting_bytes -= item.size
            return item

    def _post(self, message: arena_pb2.RefereeMessage | bytes | None) -> None:
        with self._lock:
            self._outbox.append(message)
            loop, wakeup = self._loop, self._wakeup
        if wakeup is None or loop is None:
            return
        if self.driver is not None:
            wakeup.set()  # the loop is this thread's, and not running: it writes when the runner next waits
            return
        try:
            loop.call_soon_threadsafe(wakeup.set)
        except RuntimeError:  # the server's loop is closed: nobody is left to read it
            pass

    # ----- the stream's side (on the server's event loop) -------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> asyncio.Event:
        wakeup = asyncio.Event()
        with self._lock:
            self._loop, self._wakeup = loop, wakeup
            self._streaming = True
        wakeup.set()  # whatever was posted before the stream came is sent now
        return wakeup

    def next_outgoing(self) -> tuple[bool, arena_pb2.RefereeMessage | bytes | None]:
        """(True, message or None = hang up) if something waits to be sent, else (False, None)."""
        with self._lock:
            if not self._outbox:
                return False, None
            return True, self._outbox.popleft()

    def detach(self) -> None:
        """The stream is over: nothing more is written."""
        self._streaming = False
        self.wake()

    def deliver(self, message: arena_pb2.BotMessage, size: int) -> bool:
        """Queue a message for the runner; False (and the seat marked flooded) if its inbox is full."""
        with self._lock:
            if len(self._inbox) >= INBOX_MESSAGES or self._waiting_bytes + size > INBOX_BYTES:
                self.flooded = (
                    f"sent more than the referee holds for a seat ({INBOX_MESSAGES} messages or "
                    f"{INBOX_BYTES // 1024} KiB waiting to be read)"
                )
                return False
            self._waiting_bytes += size
            self._inbox.append(Inbound(message, time.monotonic(), "", size))
        self._arrive()
        return True

    def end(self, reason: str) -> None:
        with self._lock:
            self._inbox.append(Inbound(None, time.monotonic(), reason))
        self._arrive()

    def _arrive(self) -> None:
        if self.driver is None:
            with self._arrived:
                self._arrived.notify()
        else:
            self.wake()

    def wake(self) -> None:
        """Driven: end the runner's wait if what it waits for came."""
        done = self._done
        if done is not None and self.driver is not None and done():
            self._done = None
            self.driver.stop()


class SeatDirectory:
    """Seat tokens of the matches being served; each token can be claimed by one stream only."""

    def __init__(self, driver: LoopDriver | None = None) -> None:
        self._lock = threading.Lock()
        self._lines: dict[str, SeatLine] = {}
        self._claimed: set[str] = set()
        #: Given to every line added: its waits run the server's loop (a driven server).
        self.driver = driver

    def add(self, line: SeatLine) -> None:
        line.driver = self.driver
        with self._lock:
            self._lines[line.token] = line

    def remove(self, token: str) -> None:
        with self._lock:
            self._lines.pop(token, None)
            self._claimed.discard(token)

    def claim(self, token: str) -> SeatLine | None:
        with self._lock:
            line = self._lines.get(token)
            if line is None or token in self._claimed:
                return None
            self._claimed.add(token)
            return line


def _error(code: int, text: str, request_id: int = 0) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(error=arena_pb2.Error(code=code, message=text, request_id=request_id))


def metadata_token(context: grpc.aio.ServicerContext) -> str | None:
    """The seat token a call carries in its metadata, or None."""
    for key, value in context.invocation_metadata() or ():
        if key == TOKEN_METADATA:
            return value if isinstance(value, str) else value.decode("utf-8", "replace")
    return None


class ArenaServicer:
    """Implements Arena.Play: authenticate, then one task reads into the seat's inbox while we drain its outbox."""

    def __init__(self, directory: SeatDirectory, hello_wait: float = HELLO_WAIT_SECONDS, max_unauthenticated: int = MAX_UNAUTHENTICATED) -> None:
        self.directory = directory
        self.hello_wait = hello_wait
        self.max_unauthenticated = max_unauthenticated
        self.unauthenticated = 0

    async def Play(self, request_iterator: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[arena_pb2.RefereeMessage | bytes]:
        token = metadata_token(context)
        line: SeatLine | None = None
        if over_descriptor_budget():
            yield _error(arena_pb2.UNKNOWN_TOKEN, "the referee holds too many connections; try again later")
            return
        if token is not None:
            # Authenticated before the stream is read: a stream without a free seat costs nothing more.
            line = self.directory.claim(token)
            if line is None:
                yield _error(arena_pb2.UNKNOWN_TOKEN, "this seat token names no seat waiting for its bot")
                return
        elif self.unauthenticated >= self.max_unauthenticated:
            yield _error(arena_pb2.UNKNOWN_TOKEN, f"too many streams waiting for their hello; put the seat token in the {TOKEN_METADATA!r} metadata")
            return
        first = await self._first_message(context, counted=line is None)
        too_big = first.oversized if isinstance(first, Rejected) else first is not None and first.ByteSize() > HELLO_MAX_BYTES
        if too_big:
            if line is not None:
                line.end(f"protocol violation: a hello over {HELLO_MAX_BYTES:,} bytes")
            yield _error(arena_pb2.PROTOCOL_ERROR, f"a hello may hold at most {HELLO_MAX_BYTES:,} bytes")
            return
        if first is None or isinstance(first, Rejected) or first.WhichOneof("body") != "hello":
            if line is not None:
                line.end("protocol violation: the first message of a stream must be hello" if first is not None else "stream ended before its hello")
            yield _error(arena_pb2.PROTOCOL_ERROR, "the first message of a stream must be hello")
            return
        if line is None:
            line = self.directory.claim(first.hello.seat_token)
            if line is None:
                yield _error(arena_pb2.UNKNOWN_TOKEN, "this seat token names no seat waiting for its bot")
                return
        elif first.hello.seat_token and first.hello.seat_token != token:
            line.end("protocol violation: the hello names another seat's token than the call's metadata")
            yield _error(arena_pb2.PROTOCOL_ERROR, "the hello's seat token differs from the call's metadata")
            return
        line.hello = first.hello
        line.hello_at = time.monotonic()
        wakeup = line.attach(asyncio.get_running_loop())
        reader = asyncio.ensure_future(self._read(context, line))
        line.connected.set()
        line.wake()
        try:
            while True:
                ready, message = line.next_outgoing()
                if not ready:
                    wakeup.clear()
                    ready, message = line.next_outgoing()
                    if not ready:
                        line.wake()  # all written: a runner flushing may go on
                        await wakeup.wait()
                        continue
                if message is None:
                    return
                yield message
                if line.flooded:
                    return
        finally:
            reader.cancel()
            line.detach()

    async def _first_message(self, context: grpc.aio.ServicerContext, counted: bool) -> Any:  # noqa: ANN401
        """The stream's first message, or None if it ended (or, unauthenticated, said nothing in time)."""
        if counted:
            self.unauthenticated += 1
        try:
            read = context.read()
            message = await (asyncio.wait_for(read, self.hello_wait) if counted else read)
        except (asyncio.TimeoutError, grpc.RpcError, asyncio.CancelledError):
            return None
        except Exception:  # noqa: BLE001 - a broken stream is a bot's problem, never the server's
            return None
        finally:
            if counted:
                self.unauthenticated -= 1
        return None if message is grpc.aio.EOF else message

    @staticmethod
    async def _read(context: grpc.aio.ServicerContext, line: SeatLine) -> None:
        # A message above TRANSPORT_MAX_BYTES is refused by grpc before it is read: the stream just ends
        # here (grpc tells the servicer nothing more, the same as a cancelled stream); the bot is told
        # RESOURCE_EXHAUSTED, which its stderr shows.
        reason = "stream ended by the bot"
        try:
            while True:
                message = await context.read()
                if message is grpc.aio.EOF:
                    break
                if isinstance(message, Rejected):
                    if message.oversized:
                        line.flooded = message.reason
                        reason = FLOOD_PREFIX + message.reason
                    else:
                        reason = f"protocol violation: {message.reason}"
                    break
                if not line.deliver(message, message.ByteSize()):
                    reason = FLOOD_PREFIX + line.flooded
                    break
        except asyncio.CancelledError:
            reason = "stream closed by the referee"
            line.end(reason)
            raise
        except Exception as error:  # noqa: BLE001 - a bad stream must never reach the runner as an exception
            reason = _broken(error)
            if "RESOURCE_EXHAUSTED" in reason:
                line.flooded = f"sent a message larger than the transport's {TRANSPORT_MAX_BYTES // (1024 * 1024)} MiB"
                reason = FLOOD_PREFIX + line.flooded
        line.end(reason)
        if line.flooded:
            line.hang_up()  # cut the stream: nothing more of this bot is read


def serialize_outgoing(message: arena_pb2.RefereeMessage | bytes) -> bytes:
    """The Arena stream's serializer: a RefereeMessage serialized, or one already written as bytes (a decision
    request, `referee.messages.OutgoingRequest`) passed through as it is."""
    return message if isinstance(message, bytes) else message.SerializeToString()


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (systemd starts services at
    1,024); returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def open_descriptors() -> int:
    """How many descriptors this process holds."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


def over_descriptor_budget() -> bool:
    """True when the process holds more than DESCRIPTOR_SHARE of its descriptor limit."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft != resource.RLIM_INFINITY and open_descriptors() > soft * DESCRIPTOR_SHARE


def _broken(error: Exception) -> str:
    code = error.code() if isinstance(error, grpc.RpcError) and hasattr(error, "code") else None
    return f"stream broken: {code.name if code is not None else error}"


class ArenaServer:
    """A gRPC server for the Arena service on a Unix socket or a loopback TCP port, on an event loop of its own."""

    def __init__(
        self,
        address: str | None,
        options: list[tuple[str, Any]] | None = None,
        hello_wait: float = HELLO_WAIT_SECONDS,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        driven: bool = False,
    ) -> None:
        """`address`: a listener every seat's token opens (None: none; seats get theirs from `open_seat`).
        `driven`: the thread that starts the server runs its loop whenever it waits on a line (`pause`
        otherwise); no thread of the server's own, no hand-off between threads."""
        self._loop = asyncio.new_event_loop()
        self.driver = LoopDriver(self._loop) if driven else None
        self.directory = SeatDirectory(self.driver)
        self.servicer = ArenaServicer(self.directory, hello_wait, max_unauthenticated)
        self._hello_wait = hello_wait
        self._requested = address
        self._options = [
            ("grpc.max_receive_message_length", TRANSPORT_MAX_BYTES),
            ("grpc.max_send_message_length", 16 * 1024 * 1024),
            ("grpc.max_concurrent_streams", STREAMS_PER_CONNECTION),
            ("grpc.so_reuseport", 0),
        ] + (options or [])
        self._thread = None if driven else threading.Thread(target=self._loop.run_forever, name="arena-server", daemon=True)
        self._servers: list[grpc.aio.Server] = []
        self.address = address or ""
        self.socket_path: str | None = None
        #: Each seat's own listener (open_seat): seat -> (address to dial, Unix socket path or None)
        self.seat_addresses: dict[int, tuple[str, str | None]] = {}

    async def _serve(self, servicer: ArenaServicer, address: str, options: list[tuple[str, Any]]) -> int:
        server = grpc.aio.server(options=options)
        play = grpc.stream_stream_rpc_method_handler(
            servicer.Play, request_deserializer=read_bot_message, response_serializer=serialize_outgoing
        )
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("b99.arena.Arena", {"Play": play}),))
        port = server.add_insecure_port(address)
        await server.start()
        self._servers.append(server)
        return port

    def _listen(self, servicer: ArenaServicer, address: str, options: list[tuple[str, Any]]) -> tuple[str, str | None]:
        """Start a listener at `address`; returns the address to dial and the Unix socket path (or None)."""
        port = self._run(self._serve(servicer, address, options), 10)
        if address.startswith("unix:"):
            path = address.removeprefix("unix://").removeprefix("unix:")
            # gRPC creates the socket 0755; a bot running as another user must be able to connect.
            os.chmod(path, 0o777)
            return address, path
        return f"{address.rsplit(':', 1)[0]}:{port}", None

    def _run(self, work: Coroutine[Any, Any, Any], timeout: float) -> Any:  # noqa: ANN401
        """Run `work` on the server's loop: here (driven) or on its thread, waiting at most `timeout` seconds."""
        if self._thread is None:
            return self._loop.run_until_complete(asyncio.wait_for(work, timeout))
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    def pause(self, seconds: float) -> None:
        """Let `seconds` pass; a driven server serves its streams meanwhile."""
        if self.driver is not None:
            self.driver.run(seconds)
        else:
            time.sleep(seconds)

    def start(self) -> ArenaServer:
        raise_descriptor_limit()
        if self._thread is not None:
            self._thread.start()
        if self._requested is not None:
            self.address, self.socket_path = self._listen(self.servicer, self._requested, self._options)
        return self

    def open_seat(self, line: SeatLine, address: str) -> str:
        """A listener of `line`'s own at `address` (after start): only its token opens a stream there,
        at most SEAT_CONNECTIONS connections are held and SEAT_UNAUTHENTICATED streams wait for a hello.
        Returns the address its bot dials."""
        own = SeatDirectory(self.driver)
        own.add(line)
        servicer = ArenaServicer(own, self._hello_wait, SEAT_UNAUTHENTICATED)
        options = [*self._options, ("grpc.max_allowed_incoming_connections", SEAT_CONNECTIONS)]
        dial, path = self._listen(servicer, address, options)
        self.seat_addresses[line.seat] = (dial, path)
        return dial

    def stop(self, grace: float = 0.5) -> None:
        if self._loop.is_closed():
            return
        if self._servers:

            async def stop_all() -> None:
                await asyncio.gather(*(server.stop(grace) for server in self._servers), return_exceptions=True)

            try:
                self._run(stop_all(), 5 + grace)
            except Exception:  # noqa: BLE001 - stopping must not hide the match's own outcome
                pass
        if self._thread is None:
            self._finish_tasks()
        elif self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
        if not self._loop.is_running() and not self._loop.is_closed():
            self._loop.close()

    def _finish_tasks(self) -> None:
        """Driven: let the streams' tasks see their cancellation before the loop closes."""
        loop = self._loop
        if loop.is_closed():
            return
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            try:
                loop.run_until_complete(asyncio.wait(pending, timeout=1.0))
            except Exception:  # noqa: BLE001 - stopping must not hide the match's own outcome
                pass
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
        except Exception:  # noqa: BLE001
            pass
