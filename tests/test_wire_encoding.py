"""Requests built in one constructor call carry exactly the bytes of the field-by-field encoder.

Every game, every player count: at each decision of random games, the DecisionRequest the runner
sends is compared, byte for byte, with one whose view, options and events are encoded by
`wire.fill` and packed with `Any.Pack` (the encoder the wire protocol was defined with).
"""

from __future__ import annotations

import random
import sys

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
