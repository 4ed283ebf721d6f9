"""Encoding engine views, options and events as each game's typed protobuf messages (and back).

An engine speaks JSON-able dicts whose keys are its proto fields; each game's `wire.py` names the
three message types (View, OptionPayload, Event). Encoding is strict: a key the proto lacks is an
error, so a view can never carry a field its message does not declare.

A dict is handed to the message's constructor, which fills nested messages, lists and maps in
protobuf's C runtime in one call; only a dict the constructor refuses goes through `fill`, which
says which field is wrong (or, where it is more lenient, encodes it the same way as before).
"""

from __future__ import annotations

import importlib
import operator
import struct
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, TypeVar

from google.protobuf import any_pb2, json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from mypy_extensions import i64, mypyc_attr

from referee.engine import Event, GameState, Option, Seat


class WireError(ValueError):
    """An engine dict does not fit its game's message (a key the proto lacks, or a wrong type)."""


@cache
def _fields(descriptor: Descriptor) -> dict[str, tuple[str, FieldDescriptor]]:
    """Each field of a message type with how a dict value is put into it."""
    table: dict[str, tuple[str, FieldDescriptor]] = {}
    for field in descriptor.fields:
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
            kind = "map_message" if value_field.message_type is not None else "map_scalar"
        elif field.message_type is not None:
            kind = "repeated_message" if field.is_repeated else "message"
        elif field.is_repeated:
            kind = "repeated_scalar"
        elif field.type == FieldDescriptor.TYPE_ENUM:
            kind = "enum"
        else:
            kind = "scalar"
        table[field.name] = (kind, field)
    return table


def fill(message: Message, data: Mapping[str, Any]) -> Message:
    """Set `message`'s fields from a dict keyed by proto field names; strict, and much faster than ParseDict.

    None means "not set". Unknown keys and values of the wrong type raise WireError naming the path.
    """
    fields = _fields(message.DESCRIPTOR)
    for key, value in data.items():
        if value is None:
            continue
        entry = fields.get(key)
        if entry is None:
            raise WireError(f"{message.DESCRIPTOR.full_name} has no field {key!r}")
        kind, field = entry
        try:
            if kind == "scalar":
                setattr(message, key, value)
            elif kind == "message":
                fill(getattr(message, key), value)
            elif kind == "repeated_scalar":
                getattr(message, key).extend(value)
            elif kind == "repeated_message":
                container = getattr(message, key)
                for item in value:
                    fill(container.add(), item)
            elif kind == "enum":
                enum_type = field.enum_type
                setattr(message, key, enum_type.values_by_name[value].number if isinstance(value, str) and enum_type else value)
            elif kind == "map_scalar":
                getattr(message, key).update(value)
            else:
                target = getattr(message, key)
                for map_key, map_value in value.items():
                    fill(target[map_key], map_value)
        except WireError as error:
            raise WireError(f"{message.DESCRIPTOR.name}.{key}: {error}") from None
        except (TypeError, ValueError, AttributeError, KeyError) as problem:  # named apart: compiled, a name has one type
            raise WireError(f"{message.DESCRIPTOR.full_name}.{key} = {value!r}: {problem}") from None
    return message


def encode(message_type: type[Message], data: Mapping[str, Any]) -> Message:
    """A `message_type` with the fields of `data` (as `fill`), built by the message's constructor in C.

    `fill` runs only when the constructor refuses the dict: it raises the WireError that names the
    field, or encodes what the constructor is stricter about exactly as it always did.
    """
    try:
        return message_type(**data)
    except Exception:  # noqa: BLE001 - the constructor raises TypeError, ValueError, KeyError...; fill says which field
        return fill(message_type(), data)


#: The prefix of every Any's type URL (what `Any.Pack` writes).
TYPE_URL_PREFIX: Final = "type.googleapis.com/"


#: Parts of views every seat sees alike, written once for one state (one decision's requests), by name.
SharedParts = dict[str, bytes]


def shared_part(shared: SharedParts | None, name: str, write: Callable[[Any], bytes], state: Any) -> bytes:  # noqa: ANN401 - any game's state
    """`write(state)`, or the bytes it already wrote for this state when `shared` holds them (kept there for
    the next seat of the same decision)."""
    if shared is None:
        return write(state)
    part = shared.get(name)
    if part is None:
        part = shared[name] = write(state)
    return part


#: Entries a memory of serialized parts keeps before it is emptied: hits come from the last few decisions, and
#: a larger memory keeps more keys and events alive for Python's garbage collector to walk (docs/decisions.md).
CACHE_LIMIT: Final = 512
#: Slots of the tables that find an option object, and a list of option objects, by identity per game
#: (`GameWire.option_field`, `options_fields`; a power of two): an object's slot is picked from its address and holds
#: the last object put there (no dict, no int object made for its id). An engine that shares its option objects offers
#: a few hundred, so two that take turns in one slot are rare, and cost only their fields' lookup by content.
OPTION_SLOTS: Final = 4096
_OPTION_SLOT_MASK: Final = OPTION_SLOTS - 1


def _option_list_slot(first: i64, last: i64, count: i64) -> i64:
    """The slot of a list of options in `GameWire._option_lists`, from its first and last options' ids and its length
    (machine integers: no int object made)."""
    mixed = first >> 4 ^ last >> 2 ^ count
    return (mixed ^ mixed >> 12) & _OPTION_SLOT_MASK


@dataclass(frozen=True, slots=True)
class GameWire:
    """The typed messages of one game, and the serialized parts of requests that repeat.

    `view_bytes`, when a game gives one, serializes a seat's View straight from the state (no dict): it must
    give the bytes of `view_message(state.private_view(seat))` (tests compare them on random games). Its
    `shared` dict, when given, lives while the state does not change (one decision's requests): a writer
    may keep there what every seat's view shows alike, written once for all of them.
    """

    view: type[Message]
    option: type[Message]
    event: type[Message]
    #: (state, seat, shared) -> bytes; the state is the game's own GameState subclass, hence Any
    view_bytes: Callable[[Any, Seat, SharedParts | None], bytes] | None = None
    #: (state, seat) -> the decision a seat that is offered options takes (what the engine's `decision_name`
    #: says for a deciding seat), where the game knows it cheaper than the engine's call; tests compare the two
    decision_of: Callable[[Any, Seat], str] | None = None
    #: (event, sequence number) -> the event as DecisionRequest's field 5 and where its tail (kind and data) starts in
    #: it, or (b"", -1) for an event the game leaves to the shared writer: a game that writes some kinds of its events
    #: faster from their data (tests compare them with protobuf's); the fields are kept in the runs as any other's
    write_event: Callable[[Event, int], tuple[bytes, int]] | None = None
    #: (state, seat, shared, parts) -> the view's size: `view_bytes`'s bytes appended to `parts` as pieces whose join
    #: they are, for a request to join them with its own in one go (the view is then never copied on its own)
    view_parts: Callable[[Any, Seat, SharedParts | None, list[bytes]], int] | None = None
    #: by the slot of id(option) (`option_field`): (the option last put there, its arena Option as a length-delimited
    #: field 4 of DecisionRequest)
    _options: list[tuple[object, bytes]] = field(
        default_factory=lambda: [_NO_OPTION] * OPTION_SLOTS, compare=False, repr=False
    )
    #: by the slot of a list's first and last options and its length (`options_fields`): (the options of the list last
    #: put there, their fields joined)
    _option_lists: list[tuple[tuple[object, ...], bytes]] = field(
        default_factory=lambda: [_NO_OPTION_LIST] * OPTION_SLOTS, compare=False, repr=False
    )
    #: option id -> the last option of that id written, as its label, a copy of its flat payload and its field (`option_field`)
    _option_contents: dict[str, _OptionField] = field(default_factory=dict, compare=False, repr=False)
    #: (kind, *flat data items) -> an event's kind and data fields (`event_tail`)
    _event_contents: Blocks = field(default_factory=lambda: Blocks(), compare=False, repr=False)
    #: id(event) -> the event with its arena Event's kind and data fields, and its whole field as last sent (`_EventField`)
    _events: dict[int, _EventField] = field(default_factory=dict, compare=False, repr=False)
    #: event kind -> how an event of that kind is written (`_EventKind`)
    _event_kinds: dict[str, _EventKind] = field(default_factory=dict, compare=False, repr=False)
    #: the logs' events written in order, the one used last first (`events_fields`)
    _runs: list[_EventRun] = field(default_factory=list, compare=False, repr=False)

    @property
    def view_type_url(self) -> bytes:
        """The type URL field of an Any holding this game's View."""
        return _type_url_field(self.view)

    def view_message(self, view: Mapping[str, Any]) -> Message:
        return encode(self.view, view)

    def option_message(self, payload: Mapping[str, Any]) -> Message:
        return encode(self.option, payload)

    def event_message(self, event: Event) -> Message:
        # An event without data leaves its oneof unset (the constructor would set it to an empty message).
        return encode(self.event, {event.kind: event.data}) if event.data else fill(self.event(), {event.kind: event.data})

    def pack_view(self, view: Mapping[str, Any]) -> any_pb2.Any:
        return pack(self.view_message(view))

    def pack_option(self, option: Option) -> any_pb2.Any:
        return pack(self.option_message(option.payload))

    def pack_event(self, event: Event) -> any_pb2.Any:
        return pack(self.event_message(event))

    def any_view(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """`pack_view` as the constructor arguments of an Any, for building a request in one call."""
        return packed_fields(self.view_message(view))

    def any_option(self, option: Option) -> dict[str, Any]:
        """`pack_option` as the constructor arguments of an Any."""
        return packed_fields(self.option_message(option.payload))

    def any_event(self, event: Event) -> dict[str, Any]:
        """`pack_event` as the constructor arguments of an Any."""
        return packed_fields(self.event_message(event))

    def seat_view_bytes(self, state: GameState, seat: Seat, shared: SharedParts | None = None) -> bytes:
        """The serialized View of `seat`: straight from the state where the game gives a writer, else from its dict.

        `shared`: parts every seat's view shows alike, kept while the state does not change (see the class)."""
        if self.view_bytes is not None:
            return self.view_bytes(state, seat, shared)
        return self.view_message(state.private_view(seat)).SerializeToString()

    def option_field(self, option: Option) -> bytes:
        """`option` as DecisionRequest's field 4 (an arena Option), serialized once per option object."""
        address: i64 = id(option)  # a native integer: its shifts are machine instructions
        slot = (address >> 4 ^ address >> 16) & _OPTION_SLOT_MASK
        options = self._options
        known = options[slot]
        if known[0] is option:
            return known[1]
        # An engine makes its options anew at each decision point: found again by id, label and payload (flat
        # payloads only, kept as a copy: equal dicts of ints, strings and bools write the same bytes).
        option_id = option.id
        label = option.label
        data = option.payload
        same = self._option_contents.get(option_id)
        if same is not None and same.label == label and same.payload == data:
            encoded = same.field
        else:
            payload = dict_bytes(self.option.DESCRIPTOR, data)
            if payload is None:  # what the writer does not write (or a wrong payload: the encoder says what is wrong)
                payload = self.option_message(data).SerializeToString()
            body = (
                string_field(OPTION_ID, option_id)
                + string_field(OPTION_LABEL, label)
                + message_field(OPTION_PAYLOAD, any_bytes(self.option, payload))
            )
            encoded = message_field(REQUEST_OPTION, body)
            flat = _flat_copy(data)
            if flat is not None:
                if len(self._option_contents) >= OPTION_CONTENTS_LIMIT:
                    self._option_contents.clear()
                self._option_contents[option_id] = _OptionField(label, flat, encoded)
        options[slot] = (option, encoded)
        return encoded

    def options_fields(self, options: Sequence[Option]) -> bytes:
        """DecisionRequest's options (field 4, in order), joined once per list of the same option objects
        (a decision point offers the same options again and again): found by its first and last options and its
        length (its slot in a table, no key of every id built per request), then checked option by option (none
        where the engine offers the same tuple again). A list (what the runner sends) is read as a list: no tuple is
        made of it unless its options are joined anew."""
        if isinstance(options, list):
            listed_options: list[Option] = options
            count = len(listed_options)
            if not count:
                return b""
            slot = _option_list_slot(id(listed_options[0]), id(listed_options[count - 1]), count)
            known = self._option_lists[slot]
            listed = known[0]
            if len(listed) == count:
                index = 0
                while index < count and listed[index] is listed_options[index]:
                    index += 1
                if index == count:
                    return known[1]
            return self._join_options(tuple(listed_options), slot)
        # Read as a tuple (compiled, its items are read directly, a Sequence's through a call each).
        offered: tuple[Option, ...] = options if isinstance(options, tuple) else tuple(options)
        count = len(offered)
        if not count:
            return b""
        slot = _option_list_slot(id(offered[0]), id(offered[count - 1]), count)
        known = self._option_lists[slot]
        listed = known[0]
        if listed is offered:
            return known[1]
        if len(listed) == count:
            index = 0
            while index < count and listed[index] is offered[index]:
                index += 1
            if index == count:
                return known[1]
        return self._join_options(offered, slot)

    def _join_options(self, offered: tuple[Option, ...], slot: int) -> bytes:
        """`offered`'s fields joined, kept in the option lists' `slot`."""
        encoded = b"".join([self.option_field(option) for option in offered])
        self._option_lists[slot] = (offered, encoded)
        return encoded

    def event_bytes(self, event: Event) -> bytes:
        """The serialized Event message of `event` (the bytes of `event_message(event)`), written from its dict
        by `dict_bytes` where it can be."""
        kind = _oneof_field(self.event.DESCRIPTOR, event.kind)
        if kind is not None:
            if not event.data:
                return b""  # the oneof left unset, as event_message leaves it
            body = dict_bytes(kind[1], event.data)
            if body is not None:
                return kind[0] + varint(len(body)) + body
        return self.event_message(event).SerializeToString()

    def _event_tail(self, event: Event, written: _EventKind) -> bytes:
        """`event_tail`'s bytes, written: its kind's field and data's type URL are written once per kind (`written`)."""
        value = b""
        data = event.data
        oneof = written.oneof
        if oneof is None:
            value = self.event_message(event).SerializeToString()
        elif data:  # without data the oneof is left unset, as event_message leaves it
            body = _write_dict(written.writers, data)
            if body is None:
                value = self.event_message(event).SerializeToString()
            else:  # joined in one go (each `+` of bytes is a copy)
                body_length = _SMALL_VARINTS[len(body)] if len(body) < 1024 else varint(len(body))
                size = len(oneof[0]) + len(body_length) + len(body)
                value_length = _SMALL_VARINTS[size] if size < 1024 else varint(size)
                size += written.url_size + len(value_length)
                return b"".join([
                    written.kind_data, _SMALL_VARINTS[size] if size < 1024 else varint(size), written.url_value,
                    value_length, oneof[0], body_length, body,
                ])
        if value:
            size = len(value)
            value_length = _SMALL_VARINTS[size] if size < 1024 else varint(size)
            size += len(written.type_url) + len(ANY_VALUE) + len(value_length)
            return written.kind + EVENT_DATA + (_SMALL_VARINTS[size] if size < 1024 else varint(size)) + written.type_url + ANY_VALUE + value_length + value
        return written.kind + message_field(EVENT_DATA, written.type_url)

    def events_fields(self, events: Sequence[tuple[int, Event]], alone: bool = False) -> bytes:
        """DecisionRequest's events (field 5, in order), from (sequence number, event) pairs.

        The fields of a log's events are kept in log order, each written once under its number (an `_EventRun`): the
        next seat sent the same event under the same number (every seat, where all see it) takes its field from the
        run by position, with no lookup. An event that is not the run's at its number is written apart. `alone`: no
        other seat will be sent these events (a game of one seat): they are written and nothing is kept."""
        listed: list[tuple[int, Event]] = events if isinstance(events, list) else list(events)  # read directly, compiled
        if not listed:
            return b""
        if alone and len(listed) == 1:
            return self._event_whole(listed[0][0], listed[0][1])[0]
        parts: list[bytes] = []
        self.events_into(listed, alone, parts)
        return b"".join(parts)

    def events_into(self, events: Sequence[tuple[int, Event]], alone: bool, parts: list[bytes]) -> None:
        """`events_fields`, its fields appended to `parts` (for a request to join them with its own in one go)."""
        listed: list[tuple[int, Event]] = events if isinstance(events, list) else list(events)  # read directly, compiled
        if not listed:
            return
        if alone:
            # nothing kept: each event's pieces go into the request's one join as they are (no join of its own)
            for sequence, event in listed:
                self._event_into(sequence, event, parts)
            return
        # The entries the last seat was given (`SeatEvents`): an event that is its entry under its position there
        # takes its field from there, written once for every seat of a decision.
        shared = LAST_EVENTS[0]
        known = shared.events
        base = shared.start
        count = len(known)
        fields: list[bytes] | None = None
        first_sequence, first_event = listed[0]
        at = first_sequence - base
        skipped = 0
        own_numbers = False
        if not (0 <= at < count and known[at] is first_event):
            # A runner's seat numbers its events in its own sequence (`referee.messages.seat_numbered`): its first event
            # found among the entries by identity
            at = -1
            for index in range(count):
                if known[index] is first_event:
                    at = index
                    own_numbers = True
                    break
        if at >= 0:
            kept = shared.written
            if kept is None or kept.wire is not self:
                kept = SeatEventFields(self, count)
                shared.written = kept
                own = self.write_event
                if own is not None and len(shared.built):
                    # the entries this decision's first read built: the game's writer writes their fields at once
                    write_built = BUILT_WRITERS.get(own)
                    if write_built is not None:
                        write_built(shared, kept.fields)
            if own_numbers:
                self._renumbered_into(shared, kept, listed, at, parts)
                return
            fields = kept.fields
            skipped = _lead_into(shared, kept, listed, parts)
        if fields is None:
            # The log's events in order from a run (`_EventRun`): each seat after the first takes the field by position.
            run = self._run_for(first_sequence, id(first_event))
            entries = run.entries
            start = run.start
            for sequence, event in listed:
                # `_run_field`, inline (a call per event costs ~50 instructions more)
                index = sequence - start
                size = len(entries)
                if 0 <= index < size:
                    entry = entries[index]
                    event_id = id(event)
                    if entry[0] == event_id and entry[1] == sequence:
                        parts.append(entry[2])
                        continue
                    if entry[0] == -1:
                        # a hole (a number the run's first request skipped: an event another seat alone sees) filled
                        written = self._event_apart(sequence, event)
                        run.events.append(event)  # first: alive while its entry is, so that its id is never another's
                        entries[index] = (event_id, sequence, written)
                        parts.append(written)
                        continue
                elif size <= index < size + RUN_GAP and size < RUN_LIMIT:
                    # the run's next event (after holes for numbers no request has held yet)
                    while size < index:
                        entries.append(_HOLE)
                        size += 1
                    written = self._event_apart(sequence, event)
                    run.events.append(event)  # first: alive while its entry is, so that its id is never another's
                    entries.append((id(event), sequence, written))
                    parts.append(written)
                    continue
                parts.append(self._event_apart(sequence, event))
            return
        at_once = shared.at_once
        found: _EventRun | None = None
        for index in range(skipped, len(listed)):
            sequence, event = listed[index]
            at = sequence - base
            if 0 <= at < count and known[at] is event:
                field = fields[at]
                if len(field) == 0:
                    shared.writing = at  # the game's writer finds the event's deferred entry there (`built_entry`)
                    if at_once:  # every seat is sent these at once: nobody will ask the run later
                        field = self._event_whole(sequence, event)[0]
                    else:
                        if found is None:
                            found = self._run_for(sequence, id(event))
                        field = self._run_field(found, sequence, event)
                    fields[at] = field
                parts.append(field)
                continue
            if found is None:
                found = self._run_for(sequence, id(event))
            parts.append(self._run_field(found, sequence, event))

    def _renumbered_into(self, shared: SeatEvents, kept: SeatEventFields, listed: list[tuple[int, Event]], at: int,
                         parts: list[bytes]) -> None:
        """`events_into`'s fields for a seat numbering its events in its own sequence (the runner's seats), its first
        event the entry at `at`: each event found among the entries in order by identity, its field the entry's field
        (written under the entry's position) with the seat's number written in its place, kept per entry for the next
        seat sent it under the same number (a decision's seats mostly number alike)."""
        known = shared.events
        base = shared.start
        count = len(known)
        fields = kept.fields
        numbers = kept.numbers
        renumbered = kept.renumbered
        position = at
        for sequence, event in listed:
            found = position
            while found < count and known[found] is not event:
                found += 1
            if found >= count:
                parts.append(self._event_apart(sequence, event))  # not among the entries: written apart
                continue
            position = found + 1
            if numbers[found] == sequence:
                parts.append(renumbered[found])
                continue
            field = fields[found]
            if sequence == base + found and len(field):
                written = field
            elif len(field):
                written = _numbered_field(field, base + found, sequence)
            else:
                shared.writing = found  # the game's writer finds the event's deferred entry there (`built_entry`)
                written = self._event_apart(sequence, event)  # from its kept tail where another seat was sent it
            numbers[found] = sequence
            renumbered[found] = written
            parts.append(written)

    def _run_field(self, run: _EventRun, sequence: int, event: Event) -> bytes:
        """An event's field under `sequence`: the run's at that number where it holds that event, else written into the
        run (its next number, or a hole), else written apart."""
        entries = run.entries
        index = sequence - run.start
        size = len(entries)
        if 0 <= index < size:
            entry = entries[index]
            event_id = id(event)
            if entry[0] == event_id and entry[1] == sequence:
                return entry[2]
            if entry[0] == -1:
                # a hole (a number the run's first request skipped: an event another seat alone sees) filled
                written = self._event_apart(sequence, event)
                run.events.append(event)  # first: alive while its entry is, so that its id is never another's
                entries[index] = (event_id, sequence, written)
                return written
        elif size <= index < size + RUN_GAP and size < RUN_LIMIT:
            # the run's next event (after holes for numbers no request has held yet)
            while size < index:
                entries.append(_HOLE)
                size += 1
            written = self._event_apart(sequence, event)
            run.events.append(event)  # first: alive while its entry is, so that its id is never another's
            entries.append((id(event), sequence, written))
            return written
        return self._event_apart(sequence, event)

    def _run_for(self, sequence: int, event_id: int) -> _EventRun:
        """The run holding the event of id `event_id` under `sequence`, else one that comes up to `sequence`, else a new
        run starting there (the oldest of RUNS_KEPT dropped); the one found is put first."""
        runs = self._runs
        found: _EventRun | None = None
        for run in runs:
            index = sequence - run.start
            if 0 <= index < len(run.entries) and run.entries[index][0] == event_id:
                found = run
                break
        if found is None:
            for run in runs:
                index = sequence - run.start
                size = len(run.entries)
                if size <= index < size + RUN_GAP and size < RUN_LIMIT:
                    found = run
                    break
        if found is None:
            found = _EventRun(sequence)
            if len(runs) >= RUNS_KEPT:
                runs.pop()
        elif runs[0] is found:
            return found
        else:
            runs.remove(found)
        runs.insert(0, found)
        return found

    def _event_apart(self, sequence: int, event: Event) -> bytes:
        """One event's field, written apart from the runs: kept with the sequence number it was written with, so that
        the next seat sent the same event under the same number reuses the field as it is."""
        known_events = self._events
        known = known_events.get(id(event))
        if known is not None and known.event is event:
            if known.sequence == sequence:
                return known.whole
            tail = known.tail()
            written = _event_field(sequence, tail)
            known.sequence = sequence
            known.whole = written
            known.tail_start = len(written) - len(tail)
            return written
        known = self._new_event(sequence, event)
        if len(known_events) >= CACHE_LIMIT:
            known_events.clear()
        known_events[id(event)] = known
        return known.whole

    def _new_event(self, sequence: int, event: Event) -> _EventField:
        """An event met for the first time, as DecisionRequest's field 5 under `sequence` (`_event_whole`), kept."""
        whole, tail_size = self._event_whole(sequence, event)
        return _EventField(event, whole, len(whole) - tail_size, sequence)

    def _event_whole(self, sequence: int, event: Event) -> tuple[bytes, int]:
        """An event as DecisionRequest's field 5 under `sequence`, and the size of its tail (kind and data): where its
        kind is written from its data at once (`_EventKind.direct`), the field's head, the event's kind, its Any and
        its data's fields are joined in one go (no bytes written for the data, then the tail, then the field around
        them)."""
        own = self.write_event
        if own is not None:
            whole, tail_start = own(event, sequence)
            if tail_start >= 0:
                return whole, len(whole) - tail_start
        written = self._event_kind(event.kind)
        data = event.data
        oneof = written.oneof
        if written.direct and oneof is not None and data:
            # [the field's key and length, the sequence number's field, the tail's fields up to the data's own
            # (one bytes object per data size: kind, Any, type URL, lengths, oneof key), then the data's fields]
            parts = [b"", b"", b""]
            body = _write_into(written.writers, data, parts)
            if body >= 0:
                header = written.headers[body] if body < _HEADER_SIZES else b""
                if not header:
                    header = written.header(oneof[0], body)
                parts[2] = header
                tail_size = len(header) + body
                sequence_field = b""
                if sequence:
                    sequence_field = _SEQUENCE_FIELDS[sequence] if 0 < sequence < 1024 else EVENT_SEQUENCE + varint(sequence)
                    parts[1] = sequence_field
                size = len(sequence_field) + tail_size
                parts[0] = _EVENT_HEADS[size] if size < 1024 else REQUEST_EVENT + varint(size)
                return b"".join(parts), tail_size
        tail = self._tail_of(event)
        return _event_field(sequence, tail), len(tail)

    def _event_into(self, sequence: int, event: Event, parts: list[bytes]) -> None:
        """`_event_whole`'s field appended to `parts` as pieces (its head, sequence number, tail's head, then its data's
        fields) where its kind is written from its data at once, else whole."""
        own = self.write_event
        if own is not None:
            whole, tail_start = own(event, sequence)
            if tail_start >= 0:
                parts.append(whole)
                return
        written = self._event_kind(event.kind)
        data = event.data
        oneof = written.oneof
        if written.direct and oneof is not None and data:
            at = len(parts)
            parts.append(b"")
            parts.append(b"")
            parts.append(b"")
            body = _write_into(written.writers, data, parts)
            if body >= 0:
                header = written.headers[body] if body < _HEADER_SIZES else b""
                if not header:
                    header = written.header(oneof[0], body)
                parts[at + 2] = header
                size = len(header) + body
                if sequence:
                    sequence_field = _SEQUENCE_FIELDS[sequence] if 0 < sequence < 1024 else EVENT_SEQUENCE + varint(sequence)
                    parts[at + 1] = sequence_field
                    size += len(sequence_field)
                parts[at] = _EVENT_HEADS[size] if size < 1024 else REQUEST_EVENT + varint(size)
                return
            del parts[at:]
        parts.append(_event_field(sequence, self._tail_of(event)))

    def event_tail(self, event: Event) -> bytes:
        """An arena Event's fields after its sequence number (kind and data), serialized once per event object."""
        known = self._events.get(id(event))
        if known is not None and known.event is event:
            return known.tail()
        tail = self._tail_of(event)
        if len(self._events) >= CACHE_LIMIT:
            self._events.clear()
        self._events[id(event)] = _EventField(event, tail, 0, -1)
        return tail

    def _tail_of(self, event: Event) -> bytes:
        """`event_tail`'s bytes for an event not met before: written from its data where the data message's every field
        has a writer (`_EventKind.direct`), else found by content where its data are flat, else written."""
        # A kind protobuf writes (a map, a float, an enum in its data) is costly to write: events of one kind often carry
        # the same flat data, so they are found by content too. Only ints, strings, bools and None: values equal as keys
        # then write the same bytes in any field. Such a kind whose events are found by content less than once in
        # CONTENT_HITS_WANTED tries stops trying: building their keys costs more than it saves.
        written = self._event_kind(event.kind)
        if written.direct or written.content_tries >= CONTENT_TRIES and written.content_hits * CONTENT_HITS_WANTED < written.content_tries:
            return self._event_tail(event, written)
        content = _flat_content(event)
        encoded = None if content is None else self._event_contents.get(content)
        if written.content_tries < CONTENT_TRIES:  # data that are not flat count as a try never found
            written.content_tries += 1
            if encoded is not None:
                written.content_hits += 1
        if encoded is None:
            encoded = self._event_tail(event, written)
            if content is not None:
                self._event_contents.keep(content, encoded)
        return encoded

    def _event_kind(self, kind: str) -> _EventKind:
        """What every event of `kind` writes alike, found once per kind."""
        written = self._event_kinds.get(kind)
        if written is None:
            written = self._event_kinds[kind] = _EventKind(
                string_field(EVENT_KIND, kind), _type_url_field(self.event), _oneof_field(self.event.DESCRIPTOR, kind)
            )
        return written


class _OptionField:
    """An option written before, found by its id (`GameWire.option_field`): its label, a copy of its payload, its field."""

    __slots__ = ("label", "payload", "field")

    def __init__(self, label: str, payload: dict[str, Any], field: bytes) -> None:
        self.label = label
        self.payload = payload
        self.field = field


#: option ids whose last option `GameWire.option_field` keeps (a game offers a few hundred distinct options at most)
OPTION_CONTENTS_LIMIT: Final = 4096
#: what an empty slot of `GameWire._options` and `_option_lists` holds (no option is None, no list is empty)
_NO_OPTION: Final[tuple[object, bytes]] = (None, b"")
_NO_OPTION_LIST: Final[tuple[tuple[object, ...], bytes]] = ((), b"")


def _flat_copy(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A copy of `data` where every value is an int, string, bool or None (immutable, and equal values write the same
    bytes), else None."""
    fields: dict[str, Any] = data if isinstance(data, dict) else dict(data)
    for value in fields.values():
        if value is not None:
            kind = type(value)
            if kind is not int and kind is not str and kind is not bool:
                return None
    return dict(fields)


class _EventRun:
    """The fields of a log's events from sequence number `start` on, in log order: per number, the event's id, the
    number and its DecisionRequest field 5 (`_HOLE` for a number no request has held yet). An entry says what it holds
    (a field is the bytes of its number and event alone), so it is used only for that event under that number,
    whichever log, seat or thread asks; entries are only ever appended, whole, and a hole is filled once, whole (by
    the first event asked for at its number: in a draft, the hand a seat alone is told of). The events themselves are kept in
    `events`, so that an id is never another's while its entry lasts: the entries hold only ints and bytes, which
    Python's garbage collector stops tracking (entries holding the events cost its walks about 7% of a Fuji 99 step).
    """

    def __init__(self, start: int) -> None:
        self.start = start
        self.entries: list[tuple[int, int, bytes]] = []
        self.events: list[Event] = []


class SeatEvents:
    """A log's entries from position `start` to `end`, as every seat of one decision reads them
    (`referee.messages.seat_events`, kept in `LAST_EVENTS` for the next seat): each entry's (position, event) pair,
    the event and its audience, and whether every one of them is public. A later seat asking for the same entries of a
    log of the same entries (each the same Event object, compared by identity: `events` keeps them alive, so no other
    object has their address) takes its pairs from here, without reading an audience or making a pair again; nothing
    here holds the log itself (a game's events die with its state, not with this memory).

    `written` (`SeatEventFields`, `GameWire.events_into`): per entry, its DecisionRequest field 5 under its position as
    one wire wrote it, for the next seat sent the same event under the same number.

    `built`: per entry, the log's deferred entry `(build, arguments...)` its Event was built from by this read (`()`
    where it was built before, or was never deferred), and `writing`, the entry whose field `events_into` is having
    written: a game's event writer finds the deferred entry of the event it is asked for there (`built_entry`) and
    may write it from its builder's arguments instead of reading its kind and data back.
    """

    def __init__(
        self, start: int, end: int, pairs: list[Any], events: list[Any], audiences: list[Any], public: bool, at_once: bool,
        built: list[tuple[Any, ...]],
    ) -> None:
        self.start = start
        self.end = end
        self.pairs = pairs
        self.events = events
        self.audiences = audiences
        self.public = public
        self.built = built
        self.writing = -1
        self.written: SeatEventFields | None = None
        #: seats that took their events from here after the first (a guess of what the next entries will see: where
        #: none did, the next seats are given plain lists for a while, `plain_left` more)
        self.hits = 0
        self.plain_left = PLAIN_REQUESTS
        #: the last entries were taken by several seats: every seat of a decision is sent these at once, so their
        #: fields are written here only, not kept in the wire's runs for a seat that asks later (`events_into`)
        self.at_once = at_once
        #: how many entries from the first every seat sees (public, before the first private one): each seat's list
        #: starts with these very pairs, whose fields are sent as one piece (`SeatEventFields.lead`)
        self.lead = 0


class SeatEventFields:
    """The fields a wire wrote for a `SeatEvents`' entries, by entry (b"": not written yet), and `lead`, the fields of
    its leading public entries (`SeatEvents.lead`) joined once for every seat's request (b"": not joined yet)."""

    def __init__(self, wire: GameWire, size: int) -> None:
        self.wire = wire
        self.fields: list[bytes] = [b""] * size
        self.lead = b""
        #: by entry, the field last sent under a seat's own number (`GameWire._renumbered_into`) and that number (-1: none)
        self.renumbered: list[bytes] = [b""] * size
        self.numbers: list[int] = [-1] * size


def _lead_into(shared: SeatEvents, kept: SeatEventFields, listed: list[Any], parts: list[bytes]) -> int:
    """The fields of `shared`'s leading public entries (`SeatEvents.lead`, more than one) appended to `parts` as one
    piece where `listed` starts with those very pairs (compared by identity: `shared.pairs` keeps them alive, so no
    other object has their address) and every one of their fields is written; how many pairs of `listed` that piece
    holds (0: none appended). The piece is joined once, by the first request that finds it missing. The pairs are
    read as objects (a list of `tuple[int, Event]` compiled reads each as a new unboxed pair, never the same object)."""
    lead = shared.lead
    if lead < 2 or len(listed) < lead:
        return 0
    pairs = shared.pairs
    for index in range(lead):
        if listed[index] is not pairs[index]:
            return 0
    piece = kept.lead
    if not len(piece):
        fields = kept.fields
        for index in range(lead):
            if not len(fields[index]):
                return 0
        piece = kept.lead = b"".join(fields[:lead])
    parts.append(piece)
    return lead


#: requests given plain lists of events after entries no other seat took (`SeatEvents.plain_left`)
PLAIN_REQUESTS: Final = 16
#: the entries of a log the last seat was given (`SeatEvents`), replaced whole (one slot: a thread reads its own)
LAST_EVENTS: Final[list[SeatEvents]] = [SeatEvents(0, 0, [], [], [], True, False, [])]


#: a game's state class -> its builder of its log's deferred entries (`referee.messages._build_deferred`'s arguments
#: and result), where the game gives one (a game's module adds its own)
DEFERRED_BUILDS: Final[dict[object, Callable[[Any, list[Any], int], list[tuple[Any, ...]]]]] = {}
#: a game's event writer (`GameWire.write_event`) -> its writer of the fields of every entry a `SeatEvents` built,
#: into that read's `SeatEventFields.fields` by entry (b"" left where it writes none): one call a decision, made by
#: `events_into` where it first meets a read's entries, in place of a call per event (a game's module adds its own)
BUILT_WRITERS: Final[dict[object, Callable[[SeatEvents, list[bytes]], None]]] = {}


def built_entry(event: object) -> tuple[Any, ...]:
    """The deferred entry `(build, arguments...)` the last seat's entries say this very Event was built from, where
    it is the entry `events_into` is having written (`SeatEvents.writing`), else (). The kept entries hold their
    Events alive, so no other object has that address: what is found is what that Event was made from, whichever
    thread last replaced the entries."""
    kept = LAST_EVENTS[0]
    at = kept.writing
    if 0 <= at < len(kept.built) and kept.events[at] is event:
        return kept.built[at]
    return ()


#: a run's entry for a number no request has held yet (no object has the id -1)
_HOLE: Final[tuple[int, int, bytes]] = (-1, -1, b"")


#: numbers a run holds at most (a new run starts after them), numbers skipped at once as holes, and runs kept per wire
#: (one per game in play in the process, several for games played in turn)
RUN_LIMIT: Final = 4096
RUN_GAP: Final = 256
RUNS_KEPT: Final = 2


class _EventField:
    """An event met before: its whole DecisionRequest field as last written, with the sequence number written in it
    (-1: none yet, `whole` is then its tail alone), and where its tail (kind and data fields, `event_tail`) starts."""

    __slots__ = ("event", "whole", "tail_start", "sequence")

    def __init__(self, event: Event, whole: bytes, tail_start: int, sequence: int) -> None:
        self.event = event
        self.whole = whole
        self.tail_start = tail_start
        self.sequence = sequence

    def tail(self) -> bytes:
        """The event's kind and data fields (the end of `whole`)."""
        return self.whole[self.tail_start:] if self.tail_start else self.whole


def _numbered_field(field: bytes, written_as: int, sequence: int) -> bytes:
    """An event's DecisionRequest field written under number `written_as`, written again under `sequence`: its tail (what
    follows its key, length and sequence number field, which protobuf writes first) under the new number."""
    position = 1  # after the field's key (REQUEST_EVENT, one byte)
    while field[position] & 0x80:
        position += 1
    position += 1  # after the length
    if written_as:
        position += 1  # the sequence number's key (EVENT_SEQUENCE, one byte)
        while field[position] & 0x80:
            position += 1
        position += 1
    return _event_field(sequence, field[position:])


def _event_field(sequence: int, tail: bytes) -> bytes:
    """DecisionRequest's field 5 holding an event: its sequence number (none when 0), then its tail."""
    if sequence:
        sequence_field = _SEQUENCE_FIELDS[sequence] if 0 < sequence < 1024 else EVENT_SEQUENCE + varint(sequence)
        size = len(sequence_field) + len(tail)
        return b"".join([_EVENT_HEADS[size] if size < 1024 else REQUEST_EVENT + varint(size), sequence_field, tail])
    size = len(tail)
    return REQUEST_EVENT + (_SMALL_VARINTS[size] if size < 1024 else varint(size)) + tail


def _flat_content(event: Event) -> tuple[object, ...] | None:
    """`event`'s kind, then each data key and value, where every value is an int, string, bool or None (values
    equal as keys then write the same bytes in any field); None otherwise."""
    content: list[object] = [event.kind]
    data = event.data
    fields: dict[str, Any] = data if isinstance(data, dict) else dict(data)  # a dict's items, read directly
    for name, value in fields.items():
        if value is not None:
            kind = type(value)
            if kind is not int and kind is not str and kind is not bool:
                return None
        content.append(name)
        content.append(value)
    return tuple(content)


class _EventKind:
    """What every event of one kind writes alike: its kind's field, the data's type URL field, and the data
    message's key and type (`_oneof_field`; None where protobuf writes it)."""

    __slots__ = (
        "kind", "type_url", "oneof", "writers", "direct", "content_tries", "content_hits", "kind_data", "url_value", "url_size", "headers",
    )

    def __init__(self, kind: bytes, type_url: bytes, oneof: tuple[bytes, Any] | None) -> None:
        self.kind = kind
        self.type_url = type_url
        #: the kind's field and the data field's key; the Any's type URL field and its value's key, and their size
        self.kind_data = kind + EVENT_DATA
        self.url_value = type_url + ANY_VALUE
        self.url_size = len(self.url_value)
        #: by size of the data's fields (below _HEADER_SIZES), the tail's bytes before them (`header`; b"": not written)
        self.headers: list[bytes] = [b""] * _HEADER_SIZES

        self.oneof = oneof
        #: the data message's field writers (`_message_writers`), found once per kind
        self.writers = None if oneof is None else _message_writers(oneof[1])
        #: written from its data's fields at once, never looked up by content: every field of the data message has a
        #: writer (compiled, writing a few fields costs less than building and looking up a key of them)
        self.direct = self.writers is not None
        #: of this kind's first CONTENT_TRIES events, how many were found by content (`_tail_of`; data that are not
        #: flat are never found)
        self.content_tries = 0
        self.content_hits = 0

    def header(self, oneof_key: bytes, body: int) -> bytes:
        """An event tail's bytes before its data's fields of `body` bytes (kind, data field, Any, type URL, value
        length, oneof key, data length), written once per size."""
        body_length = varint(body)
        size = len(oneof_key) + len(body_length) + body
        value_length = varint(size)
        size += self.url_size + len(value_length)
        written = self.kind_data + varint(size) + self.url_value + value_length + oneof_key + body_length
        if body < _HEADER_SIZES:
            self.headers[body] = written
        return written


#: sizes of an event's data fields whose tail heads an `_EventKind` keeps (by position: no int key hashed per event)
_HEADER_SIZES: Final = 1024
#: events of a kind looked up by content before deciding whether that kind is worth looking up (`_tail_of`)
CONTENT_TRIES: Final = 200
#: a kind stays looked up by content while at least one try in this many is found
CONTENT_HITS_WANTED: Final = 4


_Block = TypeVar("_Block")
_Owner = TypeVar("_Owner")


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled with the writers, subclassed by the encoders' Memory
class Blocks(dict):  # type: ignore[type-arg]
    """Serialized parts of views remembered by a key of their contents, emptied when full.

    A part (a seat's board, a depth...) changes a few times a game but is written at every request of every
    seat: its bytes are looked up by a tuple of what it shows instead of being written again.
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int = CACHE_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, block_key: object, block: _Block) -> _Block:
        """Remember `block` (bytes, or bytes with what was computed beside them) under `block_key` and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[block_key] = block
        return block


_Kept = TypeVar("_Kept")


def kept_for(memory: dict[int, tuple[Any, _Kept]], owner: _Owner, make: Callable[[_Owner], _Kept], limit: int) -> _Kept:
    """What `memory` keeps for `owner` (a state, say), found by identity, made by `make(owner)` when missing;
    `memory` keeps the owner so its id is never taken by another object, and is emptied when it holds `limit`."""
    known = memory.get(id(owner))
    if known is None or known[0] is not owner:
        if len(memory) >= limit:
            memory.clear()
        known = memory[id(owner)] = (owner, make(owner))
    return known[1]


class LastKept:
    """`kept_for` with the owner asked for last found first, by identity: most requests of a decision are for the
    state the request before was for. Holds the memory, its limit and how a missing entry is made."""

    def __init__(self, make: Callable[[Any], Any], limit: int) -> None:
        self.make = make
        self.limit = limit
        #: id(owner) -> (the owner, what is kept for it), as `kept_for` keeps it
        self.memory: dict[int, tuple[Any, Any]] = {}
        self.last_owner: object = None
        self.last_kept: Any = None

    def get(self, owner: object) -> Any:  # noqa: ANN401 - what `make` makes
        """What is kept for `owner`, made when missing."""
        if owner is self.last_owner:
            return self.last_kept
        kept = kept_for(self.memory, owner, self.make, self.limit)
        self.last_owner = owner
        self.last_kept = kept
        return kept


def blocks_of(registry: dict[int, tuple[Any, Blocks]], owner: object) -> Blocks:
    """The Blocks kept for `owner` (a game's component data: blocks written from one set of components are never
    read for another), found by identity; `registry` keeps the owner so its id is never taken by another object."""
    known = registry.get(id(owner))
    if known is None or known[0] is not owner:
        known = registry[id(owner)] = (owner, Blocks())
    return known[1]


# Protobuf's wire format, written by hand for the parts of a request that are cached or built from the state.
# A field is its key (number << 3 | wire type) as a varint, then a varint, 8 bytes, or a length and bytes.

#: Varints of 0..1023, the values most fields hold.
_SMALL_VARINTS: Final = tuple(
    bytes([value]) if value < 0x80 else bytes([value & 0x7F | 0x80, value >> 7]) for value in range(1024)
)


#: the same, for writers elsewhere (a varint of a small size, looked up instead of written)
SMALL_VARINTS: Final = _SMALL_VARINTS


#: the first byte of a two-byte varint (the value's low 7 bits, continued) and its second (the high bits), by value
_LOW_BYTES: Final = tuple(bytes([low | 0x80]) for low in range(128))
_HIGH_BYTES: Final = tuple(bytes([high]) for high in range(128))


def varint(value: int) -> bytes:
    """`value` as a varint; a negative one as its 64-bit two's complement (how int32 and int64 are written)."""
    if 0 <= value < 1024:
        return _SMALL_VARINTS[value]
    if 0 < value < 16384:  # two bytes (a view's or a request's length): two looked up, no loop
        return _LOW_BYTES[value & 0x7F] + _HIGH_BYTES[value >> 7]
    if -1024 <= value < 0:  # ten bytes (a negative score): written once
        written = _NEGATIVE_VARINTS.get(value)
        if written is None:
            written = _NEGATIVE_VARINTS[value] = _long_varint(value)
        return written
    return _long_varint(value)


#: negative values -> their varints (`varint`)
_NEGATIVE_VARINTS: Final[dict[int, bytes]] = {}


def _long_varint(value: int) -> bytes:
    """`varint` of a value of three bytes or more, or negative."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def key(number: int, wire_type: int) -> bytes:
    """A field's key: 0 = varint, 1 = 8 bytes, 2 = length-delimited."""
    return varint(number << 3 | wire_type)


def varint_field(field_key: bytes, value: int) -> bytes:
    """A proto3 integer, enum or bool field: nothing when it holds its default (0)."""
    if not value:
        return b""
    return field_key + (_SMALL_VARINTS[value] if 0 < value < 1024 else varint(value))


class IntField:
    """A proto3 integer (or bool) field of one key, its small values' bytes written once: a view writer writes the same
    few values again and again, and a lookup costs less than joining a key and a varint."""

    def __init__(self, field_key: bytes) -> None:
        self.key = field_key
        #: value -> the field's bytes, for 0 <= value < _SMALL_VALUES (nothing for 0: proto3 leaves out a default)
        self.small = [varint_field(field_key, value) for value in range(_SMALL_VALUES)]

    def of(self, value: int) -> bytes:
        """`varint_field(key, value)`."""
        if 0 <= value < _SMALL_VALUES:
            return self.small[value]
        return varint_field(self.key, value)


class StringField:
    """A proto3 string field of one key, each text's bytes written once (as `IntField`, for ids, names and colours)."""

    def __init__(self, field_key: bytes) -> None:
        self.key = field_key
        #: text -> the field's bytes; emptied when it holds _KNOWN_TEXTS
        self.known: dict[str, bytes] = {}

    def of(self, text: str) -> bytes:
        """`string_field(key, text)`."""
        known = self.known.get(text)
        if known is None:
            if len(self.known) >= _KNOWN_TEXTS:
                self.known.clear()
            known = self.known[text] = string_field(self.key, text)
        return known


#: Values an IntField writes once; texts a StringField keeps before it is emptied.
_SMALL_VALUES: Final = 128
_KNOWN_TEXTS: Final = 4096


def small_packed_field(field_key: bytes, values: list[int]) -> bytes:
    """`packed_field` for a short list: values 0-127 are their own varints, written in one call."""
    if not values:
        return b""
    if len(values) < 128:
        for value in values:
            if not 0 <= value < 128:
                return packed_field(field_key, values)
        return field_key + varint(len(values)) + bytes(values)
    return packed_field(field_key, values)


def optional_varint_field(field_key: bytes, value: int | None) -> bytes:
    """An `optional` integer field: written whenever it is set, 0 included."""
    if value is None:
        return b""
    return field_key + (_SMALL_VARINTS[value] if 0 <= value < 1024 else varint(value))


def double_field(field_key: bytes, value: float) -> bytes:
    """A proto3 double: nothing when it is 0."""
    return field_key + struct.pack("<d", value) if value else b""


def add_pieces(parts: list[bytes], first: bytes, pieces: list[bytes]) -> int:
    """`first`, then `pieces`, appended to `parts` (a view handed to a request as pieces: `GameWire.view_parts`);
    their size."""
    size = len(first)
    for piece in pieces:
        size += len(piece)
    parts.append(first)
    parts.extend(pieces)
    return size


def message_field(field_key: bytes, body: bytes) -> bytes:
    """A message (or bytes) field, written even when empty (a set message field)."""
    size = len(body)
    return field_key + (_SMALL_VARINTS[size] if size < 1024 else varint(size)) + body


def string_field(field_key: bytes, text: str) -> bytes:
    """A proto3 string: nothing when it is empty."""
    if not text:
        return b""
    encoded = text.encode()
    size = len(encoded)
    return field_key + (_SMALL_VARINTS[size] if size < 1024 else varint(size)) + encoded


def optional_string_field(field_key: bytes, text: str | None) -> bytes:
    """An `optional` string field: written whenever it is set, "" included."""
    if text is None:
        return b""
    encoded = text.encode()
    return field_key + varint(len(encoded)) + encoded


def packed_field(field_key: bytes, values: Iterable[int]) -> bytes:
    """A proto3 repeated integer field (packed: one key, then the varints); nothing when empty.

    `field_key` is the field's length-delimited key (wire type 2)."""
    body = b"".join([_SMALL_VARINTS[value] if 0 <= value < 1024 else varint(value) for value in values])
    return field_key + varint(len(body)) + body if body else b""


def strings_field(field_key: bytes, texts: Iterable[str]) -> bytes:
    """A repeated string field: one key, length and text per element (each element written once per field key:
    views repeat the same ids, names and colours)."""
    written = _STRINGS.get(field_key)
    if written is None:
        written = _STRINGS[field_key] = {}
    parts: list[bytes] = []
    for text in texts:
        element = written.get(text)
        parts.append(_string_element(written, field_key, text) if element is None else element)
    return b"".join(parts)


def _string_element(written: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    if len(written) >= 20_000:
        written.clear()
    encoded = text.encode()
    element = written[text] = field_key + varint(len(encoded)) + encoded
    return element


#: field key -> text -> the element written (`strings_field`)
_STRINGS: Final[dict[bytes, dict[str, bytes]]] = {}


def messages_field(field_key: bytes, bodies: Iterable[bytes]) -> bytes:
    """A repeated message field from its elements' serialized bodies."""
    return b"".join([field_key + varint(len(body)) + body for body in bodies])


# Writing a message's bytes straight from an engine dict (what `encode(...).SerializeToString()` gives), for
# the field types events and options use: integers, bools, strings, their repeated forms and nested messages.
# `dict_bytes` returns None where it does not write a message (a map, a float...) or where the dict does not
# fit it (a key the message lacks, a value of another type or out of range): the caller then encodes the dict
# with protobuf, which writes it or raises the WireError that names the field.

_W_INT: Final = 0
_W_BOOL: Final = 1
_W_STRING: Final = 2
_W_INTS: Final = 3
_W_STRINGS: Final = 4
_W_MESSAGE: Final = 5
_W_MESSAGES: Final = 6
#: the range of each integer type `dict_bytes` writes (as varints)
_INT_RANGES: Final = {
    FieldDescriptor.TYPE_INT32: (-(1 << 31), 1 << 31),
    FieldDescriptor.TYPE_UINT32: (0, 1 << 32),
    FieldDescriptor.TYPE_INT64: (-(1 << 63), 1 << 63),
    FieldDescriptor.TYPE_UINT64: (0, 1 << 64),
}


class _FieldWriter:
    """How `dict_bytes` writes one field of a message."""

    def __init__(self, field: FieldDescriptor, kind: int, nested: Any) -> None:  # noqa: ANN401 - a Descriptor or None
        self.name: str = sys.intern(field.name)  # the same object as the engines' keys: a dict lookup by identity
        self.kind = kind
        self.key = key(field.number, 2 if kind in (_W_STRING, _W_INTS, _W_STRINGS, _W_MESSAGE, _W_MESSAGES) else 0)
        #: proto3 `optional`: written whenever set, its default value included
        self.presence: bool = bool(field.has_presence) and kind in (_W_INT, _W_BOOL, _W_STRING)
        self.low, self.high = _INT_RANGES.get(field.type, (0, 0))
        #: an integer field's values 0.._SMALL_INTS-1 written (key and varint): looked up, not joined, per value
        self.small: tuple[bytes, ...] = _small_fields(self.key) if kind == _W_INT else ()
        self.nested = nested
        #: a string field's (or element's) text -> the field written: events and options repeat the same ids and names
        self.texts: dict[str, bytes] = {}
        #: a message field's own writers (`_message_writers` of `nested`), found at its first use
        self.table: tuple[list[_FieldWriter], frozenset[str]] | None = None
        self.table_found = False

    def nested_writers(self) -> tuple[list[_FieldWriter], frozenset[str]] | None:
        """`_message_writers` of this message field's type, found once."""
        if not self.table_found:
            self.table = _message_writers(self.nested)
            self.table_found = True
        return self.table

    def text(self, value: str) -> bytes | None:
        """`value` as this field (key, length, UTF-8), written once per text; None for a text UTF-8 cannot encode."""
        element = self.texts.get(value)
        if element is None:
            try:
                encoded = value.encode()
            except UnicodeEncodeError:
                return None
            if len(self.texts) >= 4096:
                self.texts.clear()
            element = self.texts[value] = self.key + varint(len(encoded)) + encoded
        return element


def _small_fields(field_key: bytes) -> tuple[bytes, ...]:
    """An integer field of this key holding each value 0.._SMALL_INTS-1, written once per key (message types share their
    field numbers: a process meets a few dozen keys)."""
    written = _SMALL_FIELDS.get(field_key)
    if written is None:
        written = _SMALL_FIELDS[field_key] = tuple([field_key + _SMALL_VARINTS[value] for value in range(_SMALL_INTS)])
    return written


#: integer field key -> `_small_fields`
_SMALL_FIELDS: Final[dict[bytes, tuple[bytes, ...]]] = {}


def _field_writer(field: FieldDescriptor) -> _FieldWriter | None:
    """The writer of one field, or None for a field type `dict_bytes` does not write."""
    nested = field.message_type
    if nested is not None:
        if _is_map_entry(field, nested):
            return None
        return _FieldWriter(field, _W_MESSAGES if field.is_repeated else _W_MESSAGE, nested)
    if field.type in _INT_RANGES:
        if field.is_repeated and not field.is_packed:
            return None
        return _FieldWriter(field, _W_INTS if field.is_repeated else _W_INT, None)
    if field.type == FieldDescriptor.TYPE_STRING:
        return _FieldWriter(field, _W_STRINGS if field.is_repeated else _W_STRING, None)
    if field.type == FieldDescriptor.TYPE_BOOL and not field.is_repeated:
        return _FieldWriter(field, _W_BOOL, None)
    return None


def _is_map_entry(field: FieldDescriptor, nested: Any) -> bool:  # noqa: ANN401 - a protobuf Descriptor
    """Whether message field `field` of type `nested` is a map. A map's field is repeated and its entry type is named
    `<Field>Entry`: only such a type's options are read (building a descriptor's options costs ~2M instructions)."""
    if not field.is_repeated or not str(nested.name).endswith("Entry"):
        return False
    return bool(nested.GetOptions().map_entry)


def _message_writers(descriptor: Any) -> tuple[list[_FieldWriter], frozenset[str]] | None:  # noqa: ANN401 - a Descriptor
    """A message's field writers in field-number order (the order protobuf writes) and its field names; None if
    `dict_bytes` cannot write one of its fields."""
    known = _WRITERS.get(descriptor)
    if known is not None or descriptor in _WRITERS:
        return known
    writers: list[_FieldWriter] = []
    table: tuple[list[_FieldWriter], frozenset[str]] | None = None
    for field in sorted(descriptor.fields, key=operator.attrgetter("number")):
        writer = _field_writer(field)
        if writer is None:
            break
        writers.append(writer)
    else:
        table = (writers, frozenset(writer.name for writer in writers))
    _WRITERS[descriptor] = table
    return table


#: message type -> its field writers (`_message_writers`)
_WRITERS: Final[dict[Any, tuple[list[_FieldWriter], frozenset[str]] | None]] = {}


def dict_bytes(descriptor: Any, data: Mapping[str, Any]) -> bytes | None:  # noqa: ANN401 - a protobuf Descriptor
    """The serialized message of type `descriptor` holding `data` (keyed by proto field names, None = not set),
    or None where this writer leaves it to protobuf (see above)."""
    return _write_dict(_message_writers(descriptor), data)


def _write_dict(table: tuple[list[_FieldWriter], frozenset[str]] | None, data: Mapping[str, Any]) -> bytes | None:
    """`dict_bytes` with the message's writers found (`_message_writers`)."""
    parts: list[bytes] = []
    if _write_into(table, data, parts) < 0:
        return None
    return b"".join(parts)


def _write_into(table: tuple[list[_FieldWriter], frozenset[str]] | None, data: Mapping[str, Any], parts: list[bytes]) -> int:
    """`_write_dict`'s fields appended to `parts` (joined by the caller with what goes around them, in one go);
    returns their size in bytes, or -1 where `_write_dict` gives None (`parts` then holds some of them)."""
    if table is None:
        return -1
    # Read as a dict (what engines hand over): compiled, a dict's lookups are direct calls, a Mapping's are not.
    fields: dict[str, Any] = data if isinstance(data, dict) else dict(data)
    writers = table[0]
    # Every key of `fields` must name a field: counted while writing (a key met by no writer leaves `found` short).
    found = 0
    start = len(parts)
    for writer in writers:
        value = fields.get(writer.name, _ABSENT)
        if value is _ABSENT:
            continue
        found += 1
        if value is None:
            continue
        kind = writer.kind
        if kind == _W_INT:
            if type(value) is not int:
                return -1
            number: int = value
            if 0 <= number < _SMALL_INTS:
                if number or writer.presence:
                    parts.append(writer.small[number])
                continue
            if not writer.low <= number < writer.high:
                return -1
            parts.append(writer.key + varint(number))
        elif kind == _W_STRING:
            if type(value) is not str:
                return -1
            if value or writer.presence:
                element = writer.text(value)
                if element is None:
                    return -1
                parts.append(element)
        elif kind == _W_BOOL:
            if type(value) is not bool:
                return -1
            if value or writer.presence:
                parts.append(writer.key + (b"\x01" if value else b"\x00"))
        elif kind == _W_INTS:
            if type(value) is not list and type(value) is not tuple:
                return -1
            small = True
            for item in value:
                if type(item) is not int or not writer.low <= item < writer.high:
                    return -1
                if not 0 <= item < 128:
                    small = False
            if value:  # values 0-127 are their own varints: written in one call
                body = bytes(value) if small else b"".join([varint(item) for item in value])
                parts.append(writer.key + varint(len(body)) + body)
        elif kind == _W_STRINGS:
            if type(value) is not list and type(value) is not tuple:
                return -1
            for item in value:
                if type(item) is not str:
                    return -1
                element = writer.text(item)
                if element is None:
                    return -1
                parts.append(element)
        else:
            if writer.nested is None:
                return -1
            nested = writer.nested_writers()
            items = [value] if kind == _W_MESSAGE else value
            if kind == _W_MESSAGES and type(value) is not list and type(value) is not tuple:
                return -1
            for item in items:
                if type(item) is not dict and not isinstance(item, Mapping):  # a dict first: an ABC's check costs ~2k instructions
                    return -1
                body_or_none = _write_dict(nested, item)
                if body_or_none is None:
                    return -1
                parts.append(writer.key + varint(len(body_or_none)) + body_or_none)
    if found != len(fields):  # a key no field of the message has
        return -1
    size = 0
    for index in range(start, len(parts)):
        size += len(parts[index])
    return size


#: what `_write_dict` reads for a key its data lack (None is a value: "not set")
_ABSENT: Final = object()
#: integer values a `_FieldWriter` keeps written
_SMALL_INTS: Final = 128


def _oneof_field(descriptor: Any, name: str) -> tuple[bytes, Any] | None:  # noqa: ANN401 - a protobuf Descriptor
    """The key of message field `name` of `descriptor` (an Event's kind) and its message type, or None."""
    known = _ONEOF_FIELDS.get((descriptor, name))
    if known is None:
        field = descriptor.fields_by_name.get(name)
        if field is None or field.message_type is None or field.is_repeated:
            return None
        known = _ONEOF_FIELDS[(descriptor, name)] = (key(field.number, 2), field.message_type)
    return known


#: (Event message type, kind) -> `_oneof_field`'s answer
_ONEOF_FIELDS: Final[dict[tuple[Any, str], tuple[bytes, Any]]] = {}


def _type_url_field(message_type: type[Message]) -> bytes:
    """An Any's type URL field for `message_type`, written once per type."""
    written = _TYPE_URLS.get(message_type)
    if written is None:
        written = _TYPE_URLS[message_type] = string_field(ANY_TYPE_URL, TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name)
    return written


#: message type -> its Any type URL field (`_type_url_field`)
_TYPE_URLS: Final[dict[type[Message], bytes]] = {}


def any_bytes(message_type: type[Message], value: bytes) -> bytes:
    """A serialized Any holding a serialized `message_type` (what `Any.Pack` writes)."""
    return _type_url_field(message_type) + (message_field(ANY_VALUE, value) if value else b"")


ANY_TYPE_URL: Final = key(1, 2)
ANY_VALUE: Final = key(2, 2)
OPTION_ID: Final = key(1, 2)
OPTION_LABEL: Final = key(2, 2)
OPTION_PAYLOAD: Final = key(3, 2)
EVENT_SEQUENCE: Final = key(1, 0)
EVENT_KIND: Final = key(2, 2)
EVENT_DATA: Final = key(3, 2)
REQUEST_OPTION: Final = key(4, 2)
REQUEST_EVENT: Final = key(5, 2)
#: an event's field key and length, by its size; an event's sequence number field, by the number (0: none)
_EVENT_HEADS: Final = tuple(REQUEST_EVENT + _SMALL_VARINTS[size] for size in range(1024))
_SEQUENCE_FIELDS: Final = tuple(EVENT_SEQUENCE + _SMALL_VARINTS[sequence] if sequence else b"" for sequence in range(1024))


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def packed_fields(message: Message) -> dict[str, Any]:
    """The fields of `message` packed in an Any (the same bytes `Any.Pack` writes), as a dict."""
    return {"type_url": TYPE_URL_PREFIX + message.DESCRIPTOR.full_name, "value": message.SerializeToString()}


def to_dict(message: Message) -> dict[str, Any]:
    """A typed message as a dict with the proto's field names (what engines produce)."""
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


@cache
def get_wire(game_id: str) -> GameWire:
    """The typed messages of `game_id`, from referee/games/<id>/wire.py."""
    module = importlib.import_module(f"referee.games.{game_id}.wire")
    wire = getattr(module, "WIRE")
    if not isinstance(wire, GameWire):
        raise TypeError(f"referee.games.{game_id}.wire.WIRE is not a GameWire")
    return wire
