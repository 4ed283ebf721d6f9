"""Requests built in one constructor call carry exactly the bytes of the field-by-field encoder.

Every game, every player count: at each decision of random games, the DecisionRequest the runner
sends is compared, byte for byte, with one whose view, options and events are encoded by
`wire.fill` and packed with `Any.Pack` (the encoder the wire protocol was defined with).
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest
from google.protobuf import any_pb2

import b99.arena_pb2 as arena_pb2
from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.registry import game_ids, get_game
from referee.wire import GameWire, fill, get_wire


def packed(message) -> any_pb2.Any:  # type: ignore[no-untyped-def]
    result = any_pb2.Any()
    result.Pack(message)
    return result


def filled_request(wire: GameWire, request: arena_pb2.DecisionRequest, state, seat, options, events) -> arena_pb2.DecisionRequest:  # type: ignore[no-untyped-def]
    """The same request, every typed part encoded by `fill`."""
    return arena_pb2.DecisionRequest(
        request_id=request.request_id,
        decision=request.decision,
        view=packed(fill(wire.view(), state.private_view(seat))),
        options=[arena_pb2.Option(id=o.id, label=o.label, payload=packed(fill(wire.option(), o.payload))) for o in options],
        events=[
            arena_pb2.Event(sequence=index, kind=event.kind, data=packed(fill(wire.event(), {event.kind: event.data})))
            for index, event in events
        ],
        clock=request.clock,
    )


@pytest.mark.parametrize("game_id", game_ids())
def test_requests_carry_the_bytes_of_the_field_by_field_encoder(game_id: str) -> None:
    game = get_game(game_id)
    wire = get_wire(game_id)
    clock = SeatClock.start(TimeControl())
    for players in range(game.min_players, game.max_players + 1):
        rng = random.Random(players)
        state = game.new_initial_state(game.make_config(players))
        cursors = [0] * players
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            deciding = state.deciding_seats()
            options = {seat: list(state.legal_options(seat)) for seat in deciding}
            for seat in deciding:
                events = messages.seat_events(state, seat, cursors[seat])
                cursors[seat] = len(state.events)
                outgoing = messages.outgoing_request(wire, 7, state, seat, options[seat], events, clock)
                request = outgoing.decision_request
                expected = filled_request(wire, request, state, seat, options[seat], events)
                assert request.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)
                # Sent on a bot's stream as they are: the bytes the message's serializer would have written.
                assert outgoing.message_bytes() == arena_pb2.RefereeMessage(decision_request=request).SerializeToString()
            state.apply_decisions({seat: rng.choice(options[seat]).id for seat in deciding})


def test_an_event_without_data_leaves_its_message_empty() -> None:
    """As `fill` did: the event's oneof is not set when the engine gives no data."""
    from referee.engine import Event

    wire = get_wire("deep_dive")
    kind = wire.event.DESCRIPTOR.oneofs[0].fields[0].name
    assert wire.event_message(Event(kind, {})).ByteSize() == 0


def test_the_fork_servers_preload_loads_every_game() -> None:
    """referee.preload (imported by the ladder's fork server) leaves every game and its messages loaded."""
    import referee.preload

    assert referee.preload.load_all_games() == list(game_ids())
    for game_id in game_ids():
        assert f"b99.games.{game_id}_pb2" in sys.modules
        assert f"referee.games.{game_id}.wire" in sys.modules


def test_a_request_written_as_bytes_goes_on_the_stream_as_it_is() -> None:
    """The Arena stream's serializer passes a request's bytes through; a world set later is part of them."""
    from referee.arena_server import serialize_outgoing

    game = get_game("underground_dice")
    state = game.new_initial_state(game.make_config(2))
    while state.is_chance_node():
        state.apply_chance(sample_outcome(state.chance_outcomes(), random.Random(1)).id)
    seat = state.deciding_seats()[0]
    options = list(state.legal_options(seat))
    outgoing = messages.outgoing_request(get_wire("underground_dice"), 3, state, seat, options, [], SeatClock.start(TimeControl()))
    assert outgoing.decision_request.world == b""
    outgoing.world = b"a pickled world"
    sent = serialize_outgoing(outgoing.message_bytes())
    assert sent is not None and sent == outgoing.message_bytes()
    received = arena_pb2.RefereeMessage.FromString(sent).decision_request
    assert received == outgoing.decision_request
    assert received.world == b"a pickled world" and received.request_id == 3
    assert [option.id for option in received.options] == [option.id for option in outgoing.options]
    error = messages.error(arena_pb2.TIMEOUT, "late", 3)
    assert serialize_outgoing(error) == error.SerializeToString()


def _edge_values(field) -> list:  # type: ignore[no-untyped-def]
    """Values an engine dict might hold for `field`, fitting or not (a wrong type, out of range, a surrogate)."""
    from google.protobuf.descriptor import FieldDescriptor

    if field.message_type is not None:
        if field.message_type.GetOptions().map_entry:
            return [{}]
        nested = {sub.name: _edge_values(sub)[1] for sub in field.message_type.fields if sub.message_type is None}
        return [[{}, nested], {}, nested, [], "x"] if field.is_repeated else [{}, nested, [], 3]
    if field.type == FieldDescriptor.TYPE_STRING:
        scalars = ["", "héllo", "\ud800", 5]
    elif field.type == FieldDescriptor.TYPE_BOOL:
        scalars = [False, True, 1]
    else:
        scalars = [0, 1, 300, -1, 2**31 - 1, 2**31, 2**32, -(2**31), True, 2.0, "7"]
    if field.is_repeated:
        return [list(scalars[:3]), [], tuple(scalars[1:3]), scalars[0], [scalars[-1]]]
    return scalars


def test_the_dict_writer_writes_what_protobuf_writes_or_leaves_the_dict_to_it() -> None:
    """Every event and option payload message of every game, edge values in every field: `dict_bytes` gives the
    bytes protobuf serializes, or None where protobuf refuses the dict (or where the writer leaves it)."""
    from google.protobuf import message_factory

    from referee.wire import dict_bytes

    rng = random.Random(5)
    descriptors = []
    for game_id in game_ids():
        wire = get_wire(game_id)
        descriptors.append(wire.option.DESCRIPTOR)
        descriptors += [field.message_type for field in wire.event.DESCRIPTOR.fields if field.message_type is not None]
    written = 0
    for descriptor in descriptors:
        message_type = message_factory.GetMessageClass(descriptor)
        for _ in range(12):
            data = {field.name: rng.choice(_edge_values(field)) for field in descriptor.fields if rng.random() < 0.7}
            if rng.random() < 0.1:
                data["no_such_field"] = 1
            try:
                expected = message_type(**data).SerializeToString()
            except Exception:  # noqa: BLE001 - protobuf refuses the dict: the writer must leave it to protobuf
                expected = None
            got = dict_bytes(descriptor, data)
            if got is not None:
                written += 1
                assert got == expected, (descriptor.full_name, data)
    assert written > 100


def test_requests_follow_their_option_lists_and_clocks_as_they_change() -> None:
    """Option lists found by their first and last options and length, and a clock's field kept per clock, are
    checked against what they hold: a list with other options between the same ends, or a clock whose bank or
    strikes changed, is written again."""
    game = get_game("underground_dice")
    wire = get_wire("underground_dice")
    rng = random.Random(5)
    state = game.new_initial_state(game.make_config(2))
    while state.is_chance_node():
        state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
    seat = state.deciding_seats()[0]
    offered = list(state.legal_options(seat))
    assert len(offered) >= 4
    middle_changed = [offered[0], *reversed(offered[1:-1]), offered[-1]]
    clock = SeatClock.start(TimeControl(strikes_allowed=2))
    for options, bank, strikes in ((offered, 30.0, 0), (middle_changed, 30.0, 0), (offered, 12.5, 0), (offered, 0.0, 1)):
        clock.bank_remaining, clock.strikes = bank, strikes
        request = messages.outgoing_request(wire, 1, state, seat, options, [], clock).decision_request
        assert [option.id for option in request.options] == [option.id for option in options]
        assert (request.clock.bank_remaining_seconds, request.clock.strikes, request.clock.strikes_allowed) == (bank, strikes, 2)
        expected = filled_request(wire, request, state, seat, options, [])
        assert request.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)


@pytest.mark.parametrize("game_id", game_ids())
def test_events_written_after_their_kinds_stop_being_looked_up_by_content_are_protobufs_bytes(game_id: str) -> None:
    """Enough events of every kind (a fresh GameWire, several games) that kinds looked up by content pass their content
    tries and are then written in one go, as kinds the wire writes field by field always are: each field, under a sequence number or none and sent again under another, is
    protobuf's own serialization of the arena Event."""
    from referee.wire import CONTENT_TRIES

    game = get_game(game_id)
    shared_wire = get_wire(game_id)
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    rng = random.Random(11)
    events = []
    kinds: Counter[str] = Counter()
    while len(events) < 6 * CONTENT_TRIES or max(kinds.values()) < CONTENT_TRIES + 50:
        state = game.new_initial_state(game.make_config(game.max_players))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
        events += list(state.events)
        kinds.update(event.kind for event in state.events)
    pairs = [(index % 1500, event) for index, event in enumerate(events)]  # 0 (no sequence field) and two-byte numbers
    for start in range(0, len(pairs), 7):
        chunk = pairs[start:start + 7]
        expected = arena_pb2.DecisionRequest(
            events=[
                arena_pb2.Event(sequence=index, kind=event.kind, data=packed(fill(wire.event(), {event.kind: event.data})))
                for index, event in chunk
            ]
        ).SerializeToString()
        assert wire.events_fields(chunk) == expected
        moved = [(index + 1, event) for index, event in chunk]  # the same events under other numbers
        assert arena_pb2.DecisionRequest.FromString(wire.events_fields(moved)).events[0].sequence == chunk[0][0] + 1
        assert b"".join(wire.event_tail(event) for _, event in chunk) == b"".join(
            arena_pb2.Event(kind=event.kind, data=packed(fill(wire.event(), {event.kind: event.data}))).SerializeToString()
            for _, event in chunk
        )
    # Kinds whose data the wire writes field by field are never looked up by content; the others are, until they
    # have had their tries.
    kinds_met = wire._event_kinds.values()
    assert any(kind.direct for kind in kinds_met)
    assert all(kind.content_tries == 0 for kind in kinds_met if kind.direct)


def test_options_made_anew_are_found_by_id_label_and_payload_and_never_by_a_stale_payload() -> None:
    """`option_field` finds an option made anew (a new object) by its id, label and payload; one of the same id with
    another label or payload, or whose payload dict was changed after it was written, gets its own bytes."""
    from referee.engine import Option

    shared_wire = get_wire("fuji99")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)

    def expected(option: Option) -> bytes:
        message = arena_pb2.Option(id=option.id, label=option.label, payload=packed(fill(wire.option(), option.payload)))
        return arena_pb2.DecisionRequest(options=[message]).SerializeToString()

    payload = {"action": "draw", "count": 5}
    options = [
        Option("draw:5", "draw 5 cubes", payload),
        Option("draw:5", "draw 5 cubes", {"action": "draw", "count": 5}),
        Option("draw:5", "draw five cubes", {"action": "draw", "count": 5}),
        Option("draw:5", "draw five cubes", {"action": "draw", "count": 6}),
    ]
    for option in options:
        assert wire.option_field(option) == expected(option)
    assert wire.option_field(Option("draw:5", "draw 5 cubes", payload)) == expected(options[0])  # kept again
    payload["count"] = 7  # changed in place after it was written: the kept copy still shows 5
    changed = Option("draw:5", "draw 5 cubes", payload)
    assert wire.option_field(changed) == expected(changed)
