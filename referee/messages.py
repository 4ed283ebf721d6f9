"""Building the protobuf messages a seat receives, from that seat's view, options and events only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from google.protobuf import struct_pb2
from mypy_extensions import i64

import b99.arena_pb2 as arena_pb2
from referee.clock import SeatClock, TimeControl
from referee.engine import Event, GameConfig, GameResult, GameState, Option, Seat
from referee.wire import (
    ANY_VALUE,
    DEFERRED_BUILDS,
    LAST_EVENTS,
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


def seat_numbered(events: list[tuple[int, Event]], first: int) -> list[tuple[int, Event]]:
    """`events` (numbered by log position) numbered from `first` on in a seat's own sequence, as the runner sends them:
    the numbers a seat is sent count only what it saw, so their gaps say nothing of the events others alone saw."""
    numbered: list[tuple[int, Event]] = []
    number = first
    for pair in events:
        numbered.append((number, pair[1]))
        number += 1
    return numbered


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
            pairs = kept.pairs
            lead = kept.lead
            # the leading public pairs every seat sees, copied at once, then the rest by audience
            visible: list[Any] = pairs[:lead]
            kept_audiences = kept.audiences
            for offset in range(lead, len(kept_audiences)):
                audience = kept_audiences[offset]
                if audience is None or seat in audience:
                    visible.append(pairs[offset])
            return visible
    new = items[start:]
    built: list[tuple[Any, ...]] = _NONE_BUILT
    for entry in new:
        if type(entry) is tuple:
            build = DEFERRED_BUILDS.get(type(state))  # the game's own, where it gives one
            built = _build_deferred(log, items, start) if build is None else build(log, items, start)
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
    lead = 0
    for event in new:
        audience = event.audience
        pair: object = (positions[position] if position < 4096 else position, event)  # one tuple object, for every seat
        position += 1
        pairs.append(pair)
        audiences.append(audience)
        if audience is None:
            visible.append(pair)
            if public:
                lead += 1
        else:
            public = False
            if seat in audience:
                visible.append(pair)
    shared = SeatEvents(start, end, pairs, new, audiences, public, kept.hits > 0, built)
    shared.lead = lead
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


def _build_deferred(log: Any, items: list[Any], start: int) -> list[tuple[Any, ...]]:  # noqa: ANN401 - an EventLog
    """`EventLog._events` compiled: every deferred entry of the log, `(build, arguments...)`, built into its Event in
    place (a log sharing the entries sees the same Events); the entries from `start` on, by position (`()` where there
    was none to build), for the game's writer (`SeatEvents.built`)."""
    size = len(items)
    built: list[tuple[Any, ...]] = [()] * (size - start) if size > start else []
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
            if index >= start:
                built[index - start] = entry
    log._built = size
    return built


#: what `SeatEvents.built` holds where no entry was built by the read (never changed)
_NONE_BUILT: Final[list[tuple[Any, ...]]] = []


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
    # The request's frame is three pieces kept as met (a request joins them with its view's, options', events' and
    # clock's pieces in one go): the RefereeMessage's head, once the request's size is known; the request id and decision
    # fields, per decision name and request id; the view field's head (its key and length, the Any's type URL and value
    # key, the value's length), per game and view size.
    heads: _Heads = _HEADS.get(wire)
    if 0 <= request_id < _KEPT_REQUEST_IDS:
        fronts = heads.fronts  # the game's last decision's first: a game's requests mostly name the decision named last
        if fronts.decision is not decision:
            found = _FRONTS.get(decision)
            if found is None:
                found = _FRONTS[decision] = _Fronts(decision)
            fronts = heads.fronts = found
        front = fronts.fields[request_id]
        if not len(front):
            front = fronts.fields[request_id] = _front(request_id, decision)
    else:
        front = _front(request_id, decision)
    view_parts = wire.view_parts
    parts: list[bytes] = [b"", front, b""]
    if view_parts is not None:
        # the view's pieces put in the request's one join as they are (the view is never joined on its own)
        view_size = view_parts(state, seat, shared, parts)
    else:
        view = wire.seat_view_bytes(state, seat, shared)
        view_size = len(view)
        parts.append(view)
    views = heads.views
    if view_size < len(views):
        view_head = views[view_size]
        if not len(view_head):
            view_head = heads.view_head(view_size)
    else:
        view_head = heads.view_head(view_size)
    parts[2] = view_head
    options_bytes = wire.options_fields(options)
    parts.append(options_bytes)
    clock_field = _clock_bytes(clock)
    # the sizes known, then the events' pieces counted one by one
    size = len(front) + len(view_head) + view_size + len(options_bytes) + len(clock_field)
    if events:
        first_event = len(parts)
        wire.events_into(events, _PLAYERS.get(state.config) == 1, parts)
        for index in range(first_event, len(parts)):
            size += len(parts[index])
    parts.append(clock_field)
    if size < LENGTHS:
        head = _REQUEST_HEADS[size]
        if not len(head):
            head = _REQUEST_HEADS[size] = MESSAGE_DECISION_REQUEST + varint(size)
    else:
        head = MESSAGE_DECISION_REQUEST + varint(size)
    parts[0] = head
    return OutgoingRequest(request_id, options, b"".join(parts), len(head))


def _front(request_id: int, decision: str) -> bytes:
    """DecisionRequest's request id (field 1, none for 0) and decision name (field 2, none for "")."""
    return (REQUEST_ID + varint(request_id) if request_id else b"") + (
        string_field(REQUEST_DECISION, decision) if decision else b""
    )


class _Fronts:
    """A decision name's first fields: by request id (below _KEPT_REQUEST_IDS; b"": not written yet), the request id
    and decision fields (`_front`)."""

    __slots__ = ("decision", "fields")

    def __init__(self, decision: str | None) -> None:
        self.decision = decision
        self.fields: list[bytes] = [b""] * _KEPT_REQUEST_IDS


#: request ids whose fields are kept with their decision's (`_Fronts`): a seat's ids count up from 1 in a match
_KEPT_REQUEST_IDS: Final = 1024
#: decision name -> its first fields
_FRONTS: Final[dict[str, _Fronts]] = {}


class _Heads:
    """What a game's requests write alike in their view field: the Any's type URL field and its value's key, and the
    view field's head by the view's size (written as met)."""

    __slots__ = ("url_value", "url_size", "views", "fronts")

    def __init__(self, wire: GameWire) -> None:
        type_url = wire.view_type_url
        self.url_value = type_url + ANY_VALUE
        self.url_size = len(self.url_value)
        #: by view size (b"": not written yet): the view field's key and length, the Any's type URL field and value key
        #: and the value's length; at 0, the field of an empty view (an Any holding the type URL alone). Grown as larger
        #: views are met, up to VIEW_SIZES.
        self.views: list[bytes] = [REQUEST_VIEW + varint(len(type_url)) + type_url]
        #: the first fields of the decision this game's last request named
        self.fronts = _NO_FRONTS

    def view_head(self, size: int) -> bytes:
        """The view field's head for a view of `size` bytes (above 0), kept below VIEW_SIZES."""
        value_length = varint(size)
        head = REQUEST_VIEW + varint(self.url_size + len(value_length) + size) + self.url_value + value_length
        if size < VIEW_SIZES:
            views = self.views
            if size >= len(views):
                views.extend([b""] * (min(VIEW_SIZES, max(size + 1, 2 * len(views))) - len(views)))
            views[size] = head
        return head


#: what a game's first request finds as its last decision's (no decision name is None)
_NO_FRONTS: Final = _Fronts(None)
#: view sizes below which a game's view field heads are kept (`_Heads.views`)
VIEW_SIZES: Final = 1 << 16


#: per wire (the last one first), what its requests' view fields write alike
_HEADS: Final = LastKept(_Heads, 64)


#: request sizes whose RefereeMessage field heads are kept as met (`_REQUEST_HEADS`): every one- and two-byte length
LENGTHS: Final = 16384


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
    address: i64 = id(clock)  # a native integer: its shifts are machine instructions
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
#: RefereeMessage's decision request field's key and length, by the request's size (b"": not written yet)
_REQUEST_HEADS: Final[list[bytes]] = [b""] * LENGTHS
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
