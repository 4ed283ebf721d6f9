"""Building the protobuf messages a seat receives, from that seat's view, options and events only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from google.protobuf import struct_pb2

import b99.arena_pb2 as arena_pb2
from referee.clock import SeatClock, TimeControl
from referee.engine import Event, GameConfig, GameResult, GameState, Option, Seat
from referee.wire import (
    ANY_VALUE,
    LAST_EVENTS,
    SMALL_VARINTS,
    GameWire,
    LastKept,
    SeatEventFields,
    SeatEvents,
    SharedParts,
    double_field,
    key,
    message_field,
    string_field,
    varint,
    varint_field,
)


def event_messages(wire: GameWire, events: Sequence[tuple[int, Event]]) -> list[arena_pb2.Event]:
    return [arena_pb2.Event(**event_fields(wire, index, event)) for index, event in events]


def event_fields(wire: GameWire, index: int, event: Event) -> dict[str, Any]:
    """An arena Event's fields as a dict (a request is then built in one constructor call)."""
    return {"sequence": index, "kind": event.kind, "data": wire.any_event(event)}


def seat_events(state: GameState, seat: Seat, start: int) -> list[tuple[int, Event]]:
    """Events from log position `start` on that `seat` may see, with their positions."""
    # EventLog.since, inline (an interpreted call costs more than the rest of this function): the log's entries
    # from `start` on, built by the log only if one of them is still deferred (a tuple, EventLog.defer).
    log = state.events
    items = log._items
    end = len(items)
    if start >= end:  # nothing new since the last request
        return []
    # Every seat of a decision reads the same new entries: the last seat's are kept (`SeatEvents`), found again where
    # this log holds the same Event objects from `start` to its end (no attribute read, no pair made again).
    kept = LAST_EVENTS[0]
    if kept.start == start and kept.end == end:
        known = kept.events
        index = start
        for event in known:
            if items[index] is not event:
                break
            index += 1
        else:
            kept.hits += 1
            if kept.public:
                return kept.pairs[:]
            visible: list[Any] = []
            pairs = kept.pairs
            offset = 0
            for audience in kept.audiences:
                if audience is None or seat in audience:
                    visible.append(pairs[offset])
                offset += 1
            return visible
    new = items[start:]
    for entry in new:
        if type(entry) is tuple:
            _build_deferred(log, items)
            new = items[start:]
            break
    positions = _POSITIONS
    position = start
    if kept.hits == 0 and kept.plain_left > 0:
        # no other seat took the last entries (a game of turns, of one seat): a plain list, for a while
        kept.plain_left -= 1
        visible = []
        for event in new:
            audience = event.audience
            if audience is None or seat in audience:
                visible.append((positions[position] if position < 4096 else position, event))
            position += 1
        return visible
    # Event.visible_to, inline: this runs for every event of every request. A position is taken as an int object made
    # once (a position above 4095 is a new int object per pair).
    visible = []
    pairs = []
    audiences: list[Any] = []
    public = True
    for event in new:
        audience = event.audience
        pair: object = (positions[position] if position < 4096 else position, event)  # one tuple object, for every seat
        position += 1
        pairs.append(pair)
        audiences.append(audience)
        if audience is None:
            visible.append(pair)
        else:
            public = False
            if seat in audience:
                visible.append(pair)
    shared = SeatEvents(start, end, pairs, new, audiences, public, kept.hits > 0)
    written = kept.written
    if written is not None:
        # the fields the last entries' wire wrote for the entries of this log both hold (the same Event objects at the
        # same positions: a turn-based game's next seat is sent the events since its last request)
        low = start if start > kept.start else kept.start
        high = end if end < kept.end else kept.end
        if low < high:
            carried = SeatEventFields(written.wire, end - start)
            fields = carried.fields
            known = kept.events
            known_fields = written.fields
            kept_start = kept.start
            for index in range(low, high):
                if known[index - kept_start] is new[index - start]:
                    fields[index - start] = known_fields[index - kept_start]
            shared.written = carried
    LAST_EVENTS[0] = shared
    return visible


def _build_deferred(log: Any, items: list[Any]) -> None:  # noqa: ANN401 - an EventLog, read as its slots
    """`EventLog._events` compiled: every deferred entry of the log, `(build, arguments...)`, built into its Event in
    place (a log sharing the entries sees the same Events)."""
    size = len(items)
    for index in range(log._built, size):
        item = items[index]
        if type(item) is tuple:
            # called with its arguments as they are (a vectorcall), for the usual counts: no tuple sliced off the entry
            entry: tuple[Any, ...] = item
            build = entry[0]
            count = len(entry)
            if count == 4:
                items[index] = build(entry[1], entry[2], entry[3])
            elif count == 3:
                items[index] = build(entry[1], entry[2])
            elif count == 8:
                items[index] = build(entry[1], entry[2], entry[3], entry[4], entry[5], entry[6], entry[7])
            elif count == 2:
                items[index] = build(entry[1])
            else:
                items[index] = build(*entry[1:])
    log._built = size


#: the log positions 0..4095 as int objects
_POSITIONS: Final[list[Any]] = list(range(4096))


def game_start(
    match_id: str, config: GameConfig, seat: Seat, time_control: TimeControl, seed_commitment: str = ""
) -> arena_pb2.RefereeMessage:
    variants = struct_pb2.Struct()
    variants.update(dict(config.variants))
    return arena_pb2.RefereeMessage(
        game_start=arena_pb2.GameStart(
            match_id=match_id,
            game=config.game_id,
            seat=seat,
            players=config.players,
            variants=variants,
            time_control=arena_pb2.TimeControl(
                per_decision_seconds=time_control.per_decision_seconds,
                bank_seconds=time_control.bank_seconds,
                increment_seconds=time_control.increment_seconds,
                startup_seconds=time_control.startup_seconds,
            ),
            seed_commitment=seed_commitment,
        )
    )


def decision_request(
    wire: GameWire,
    request_id: int,
    state: GameState,
    seat: Seat,
    options: Sequence[Option],
    events: Sequence[tuple[int, Event]],
    clock: SeatClock,
) -> arena_pb2.DecisionRequest:
    """The DecisionRequest `seat` is sent (`outgoing_request`'s, parsed)."""
    return outgoing_request(wire, request_id, state, seat, options, events, clock).decision_request


class OutgoingRequest:
    """A seat's DecisionRequest written as protobuf bytes, with what the runner reads back from it.

    A bot process's stream sends `message_bytes()` as they are (the Arena server's serializer passes bytes
    through), so a request is never parsed and serialized again on its way; an in-process bot and the tests
    read `decision_request`, parsed once when first asked for. `options` are the engine's options in the
    order sent (an answer by index names `options[index].id`)."""

    def __init__(self, request_id: int, options: Sequence[Option], message: bytes, head: int) -> None:
        self.request_id = request_id
        self.options = options
        #: the RefereeMessage holding the request without `world`; its first `head` bytes are the field's key and length
        self._message = message
        self._head = head
        self._world = b""
        self._parsed: arena_pb2.DecisionRequest | None = None

    @property
    def world(self) -> bytes:
        """DecisionRequest.world: a world of the seat's information set (sdk.forward), b"" for none."""
        return self._world

    @world.setter
    def world(self, world: bytes) -> None:
        self._world = world
        self._parsed = None

    def request_bytes(self) -> bytes:
        """The serialized DecisionRequest."""
        body = self._message[self._head:]
        return body + message_field(REQUEST_WORLD, self._world) if self._world else body

    def message_bytes(self) -> bytes:
        """The serialized RefereeMessage holding the request: what goes on a bot's stream."""
        if not self._world:
            return self._message
        body = self.request_bytes()
        return MESSAGE_DECISION_REQUEST + varint(len(body)) + body

    @property
    def decision_request(self) -> arena_pb2.DecisionRequest:
        """The request as a message, parsed in protobuf's C runtime at the first call."""
        parsed = self._parsed
        if parsed is None:
            parsed = self._parsed = arena_pb2.DecisionRequest.FromString(self.request_bytes())
        return parsed

    def referee_message(self) -> arena_pb2.RefereeMessage:
        """A RefereeMessage holding the request (parsed from `message_bytes()`)."""
        return arena_pb2.RefereeMessage.FromString(self.message_bytes())


def outgoing_request(
    wire: GameWire,
    request_id: int,
    state: GameState,
    seat: Seat,
    options: Sequence[Option],
    events: Sequence[tuple[int, Event]],
    clock: SeatClock,
    shared: SharedParts | None = None,
) -> OutgoingRequest:
    """`seat`'s DecisionRequest written as protobuf bytes, what the runner sends.

    Options and events are serialized once per object (`GameWire.options_fields`, `event_tail`) and the view
    straight from the state where the game has a writer, so a request costs the joining of its parts (once:
    every part, keys and lengths included, is joined in one go). `shared`: one dict for all the requests of
    one decision (the state unchanged), so that what every seat's view shows alike is written once.
    """
    decision_of = wire.decision_of
    decision = decision_of(state, seat) if decision_of is not None and options else state.decision_name(seat)
    # The request's fields before the view's bytes and after them up to the events: each written once per decision
    # name, per game and per option list, lengths looked up, so a request joins a handful of parts (pieces put in the
    # list as they are: one join costs less than a `+` per piece).
    if 0 < request_id < len(_REQUEST_IDS):
        request_field = _REQUEST_IDS[request_id]
    else:
        request_field = REQUEST_ID + varint(request_id) if request_id else b""
    heads: _Heads = _HEADS.get(wire)
    view_parts = wire.view_parts
    # [the RefereeMessage's field key and length, once the request's length is known; request id; decision; the view
    # field's key and length, once the view's size is known; (the Any's type URL and value key, the value's length;)
    # the view's pieces...]
    parts: list[bytes] = [b"", request_field, _decision_field(decision) if decision else b"", b"", b"", b""]
    if view_parts is not None:
        # the view's pieces put in the request's one join as they are (the view is never joined on its own)
        view_size = view_parts(state, seat, shared, parts)
    else:
        view = wire.seat_view_bytes(state, seat, shared)
        view_size = len(view)
        parts.append(view)
    if view_size:
        # the view field's key and length, then the Any's type URL field and value key, then the value's length
        view_length = _length(view_size)
        parts[3] = _field_head(_VIEW_HEADS, REQUEST_VIEW, heads.url_size + len(view_length) + view_size)
        parts[4] = heads.url_value
        parts[5] = view_length
    else:
        parts[3] = heads.empty_view
    parts.append(wire.options_fields(options))
    if events:
        wire.events_into(events, _PLAYERS.get(state.config) == 1, parts)
    parts.append(_clock_bytes(clock))
    size = 0
    for part in parts:
        size += len(part)
    head = _field_head(_REQUEST_HEADS, MESSAGE_DECISION_REQUEST, size)
    parts[0] = head
    return OutgoingRequest(request_id, options, b"".join(parts), len(head))


class _Heads:
    """What a game's requests write alike in their view field: the Any's type URL field and its value's key, and the
    whole field of an empty view (an Any holding the type URL alone)."""

    __slots__ = ("url_value", "url_size", "empty_view")

    def __init__(self, wire: GameWire) -> None:
        type_url = wire.view_type_url
        self.url_value = type_url + ANY_VALUE
        self.url_size = len(self.url_value)
        self.empty_view = REQUEST_VIEW + varint(len(type_url)) + type_url


#: per wire (the last one first), what its requests' view fields write alike
_HEADS: Final = LastKept(_Heads, 64)


def _length(value: int) -> bytes:
    """`value` as a varint (a length), looked up below LENGTHS (written once per value a process meets)."""
    if value < 1024:
        return SMALL_VARINTS[value]
    if value < LENGTHS:
        written = _LENGTHS[value]
        if not len(written):
            written = _LENGTHS[value] = varint(value)
        return written
    return varint(value)


def _field_head(heads: list[bytes], field_key: bytes, size: int) -> bytes:
    """A length-delimited field's key and length, for `size` bytes: looked up in `heads` below LENGTHS (one of the
    field key's tables below, written once per size a process meets)."""
    if size < LENGTHS:
        head = heads[size]
        if not len(head):
            head = heads[size] = field_key + varint(size)
        return head
    return field_key + varint(size)


#: lengths (of views, requests) whose varints and field heads are kept as met: every one- and two-byte length
LENGTHS: Final = 16384
#: by length (b"": not written yet): its varint
_LENGTHS: Final[list[bytes]] = [b""] * LENGTHS


def decision_message(
    wire: GameWire,
    request_id: int,
    state: GameState,
    seat: Seat,
    options: Sequence[Option],
    events: Sequence[tuple[int, Event]],
    clock: SeatClock,
    shared: SharedParts | None = None,
) -> arena_pb2.RefereeMessage:
    """A RefereeMessage holding `seat`'s DecisionRequest (`outgoing_request`, parsed in protobuf's C runtime)."""
    return outgoing_request(wire, request_id, state, seat, options, events, clock, shared).referee_message()


def _players(config: GameConfig) -> int:
    """A config's player count."""
    players: int = config.players
    return players


#: per game config (the last one first; a config is small and holds no state), its player count: a game of one seat
#: keeps nothing of its events for other seats
_PLAYERS: Final = LastKept(_players, 256)


def _decision_field(decision: str) -> bytes:
    """DecisionRequest's decision name (field 2), written once per name."""
    field = _DECISIONS.get(decision)
    if field is None:
        field = _DECISIONS[decision] = string_field(REQUEST_DECISION, decision)
    return field


#: decision name -> its field (a game has a handful)
_DECISIONS: Final[dict[str, bytes]] = {}


def _clock_field(per_decision: float, bank: float, strikes: int, strikes_allowed: int) -> bytes:
    """DecisionRequest's clock (field 6)."""
    return message_field(
        REQUEST_CLOCK,
        double_field(CLOCK_PER_DECISION, per_decision)
        + double_field(CLOCK_BANK, bank)
        + varint_field(CLOCK_STRIKES, strikes)
        + varint_field(CLOCK_STRIKES_ALLOWED, strikes_allowed),
    )


def _clock_bytes(clock: SeatClock) -> bytes:
    """`clock`'s field, written again only when its bank or strikes changed since its last request (a bank
    changes only when a seat overruns its allowance): kept per clock object in a slot picked from its address (no
    dict, no int object made for its id; two clocks taking turns in one slot are only written again)."""
    bank = clock.bank_remaining
    strikes = clock.strikes
    control = clock.control
    address = id(clock)
    slot = (address >> 4 ^ address >> 12) & _CLOCK_SLOT_MASK
    known = _CLOCKS[slot]
    if known.clock is clock and known.control is control and known.bank == bank and known.strikes == strikes:
        return known.field
    written = _ClockField(clock, control, bank, strikes, _clock_field(control.per_decision_seconds, bank, strikes, control.strikes_allowed))
    _CLOCKS[slot] = written
    return written.field


class _ClockField:
    """A clock's field as last written, with the values it was written from (a TimeControl never changes)."""

    __slots__ = ("clock", "control", "bank", "strikes", "field")

    def __init__(self, clock: object, control: object, bank: float, strikes: int, field: bytes) -> None:
        self.clock = clock
        self.control = control
        self.bank = bank
        self.strikes = strikes
        self.field = field


#: slots of the clocks' fields as last written (a power of two), each holding the last clock put there (kept, so that
#: its address is never another's while it is there)
CLOCK_SLOTS: Final = 256
_CLOCK_SLOT_MASK: Final = CLOCK_SLOTS - 1
_CLOCKS: Final[list[_ClockField]] = [_ClockField(None, None, -1.0, -1, b"")] * CLOCK_SLOTS
MESSAGE_DECISION_REQUEST: Final = key(2, 2)
REQUEST_ID: Final = key(1, 0)
REQUEST_DECISION: Final = key(2, 2)
REQUEST_VIEW: Final = key(3, 2)
REQUEST_CLOCK: Final = key(6, 2)
#: DecisionRequest's request id field, by id (0: none)
_REQUEST_IDS: Final = tuple(REQUEST_ID + varint(request_id) if request_id else b"" for request_id in range(1024))
#: RefereeMessage's decision request field's key and length, and DecisionRequest's view field's, by the length (b"": not
#: written yet)
_REQUEST_HEADS: Final[list[bytes]] = [b""] * LENGTHS
_VIEW_HEADS: Final[list[bytes]] = [b""] * LENGTHS
REQUEST_WORLD: Final = key(7, 2)
CLOCK_PER_DECISION: Final = key(1, 1)
CLOCK_BANK: Final = key(2, 1)
CLOCK_STRIKES: Final = key(3, 0)
CLOCK_STRIKES_ALLOWED: Final = key(4, 0)


def game_over(
    wire: GameWire, result: GameResult, ranks: Sequence[int], events: Sequence[tuple[int, Event]], summary: str,
    seed: int = 0,
) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(
        game_over=arena_pb2.GameOver(
            ranks=list(ranks),
            scores=[float(score) for score in result.scores],
            events=event_messages(wire, events),
            summary=summary,
            seed=seed,
        )
    )


def error(code: int, text: str, request_id: int = 0) -> arena_pb2.RefereeMessage:
    return arena_pb2.RefereeMessage(error=arena_pb2.Error(code=code, message=text, request_id=request_id))
