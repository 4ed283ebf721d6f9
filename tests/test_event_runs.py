"""A request's events are slices of a run: the fields of a log's events written once, in order, into one buffer
(`GameWire.events_fields`). Whatever the order in which seats, games and clones ask, and whether the numbers are the
log's positions or each seat's own (as a match numbers them, so that a seat that does not see an event has other
numbers from then on), every request's events are protobuf's own serialization of those arena Events."""

from __future__ import annotations

import random
import threading

import pytest

import b99.arena_pb2 as arena_pb2
from referee import messages, playout
from referee.chance import sample_outcome
from referee.engine import Event, GameState
from referee.registry import game_ids, get_game
from referee.wire import RUN_LIMIT, RUNS_KEPT, GameWire, fill, get_wire, pack
from tests.threads import run_switching_often


def _expected(wire: GameWire, pairs: list[tuple[int, Event]]) -> bytes:
    return arena_pb2.DecisionRequest(
        events=[
            arena_pb2.Event(sequence=sequence, kind=event.kind, data=pack(fill(wire.event(), {event.kind: event.data})))
            for sequence, event in pairs
        ]
    ).SerializeToString()


class _Table:
    """A game in play with each seat's event cursor and own numbering (as `referee.match` keeps them)."""

    def __init__(self, state: GameState, own_numbers: bool) -> None:
        self.state = state
        self.own_numbers = own_numbers
        self.cursors = [0] * state.players
        self.sent = [0] * state.players

    def clone(self) -> _Table:
        twin = _Table(self.state.clone(), self.own_numbers)
        twin.cursors = list(self.cursors)
        twin.sent = list(self.sent)
        return twin

    def events_of(self, seat: int) -> list[tuple[int, Event]]:
        events = messages.seat_events(self.state, seat, self.cursors[seat])
        self.cursors[seat] = len(self.state.events)
        if self.own_numbers:
            events = messages.seat_numbered(events, self.sent[seat])
            self.sent[seat] += len(events)
        return events


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("own_numbers", [False, True])
def test_events_of_interleaved_games_clones_and_seats_are_protobufs_bytes(game_id: str, own_numbers: bool) -> None:
    game = get_game(game_id)
    shared_wire = get_wire(game_id)
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)  # runs of its own
    rng = random.Random(5)
    compared = 0
    for players in range(game.min_players, game.max_players + 1):
        tables = [_Table(game.new_initial_state(game.make_config(players)), own_numbers) for _ in range(2)]
        while any(not table.state.is_terminal() for table in tables) and compared < 3000:
            table = rng.choice([table for table in tables if not table.state.is_terminal()])
            for _ in range(rng.randint(1, 4)):
                if not table.state.is_terminal():
                    playout.step(table.state, rng)
            seats = list(range(players))
            rng.shuffle(seats)
            for seat in seats[: rng.randint(1, players)]:
                pairs = table.events_of(seat)
                assert wire.events_fields(pairs) == _expected(wire, pairs), (game_id, players, seat)
                compared += 1
            if rng.random() < 0.05 and len(tables) < 2 * RUNS_KEPT:
                tables.append(table.clone())  # shares its log with its source until either appends
    assert compared > 20


def test_a_run_that_is_full_and_requests_out_of_order_still_give_protobufs_bytes() -> None:
    shared_wire = get_wire("fuji99")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    events = [Event("moved", {"seat": n % 3, "start": n % 50, "end": n % 50 + 3, "reason": "draw"}) for n in range(RUN_LIMIT + 300)]
    pairs = list(enumerate(events))
    rng = random.Random(2)
    start = 0
    while start < len(pairs):  # in order, a few at a time: past the run's limit a new run starts
        end = start + rng.randint(1, 40)
        assert wire.events_fields(pairs[start:end]) == _expected(wire, pairs[start:end])
        start = end
    for _ in range(200):  # anywhere, with gaps and the same events under other numbers
        first = rng.randrange(len(pairs))
        chunk = pairs[first:first + rng.randint(1, 30)]
        chunk = [pair for pair in chunk if rng.random() < 0.8]
        if rng.random() < 0.3:
            chunk = [(sequence + rng.randint(-2, 2) % 5, event) for sequence, event in chunk]
        assert wire.events_fields(chunk) == _expected(wire, chunk)


def test_threads_writing_one_wires_runs_at_once_each_get_protobufs_bytes() -> None:
    """An entry of a run says which event under which number it holds: however threads interleave their appends, no
    request takes another event's field (or one written under another number)."""
    shared_wire = get_wire("fuji99")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    events = [Event("moved", {"seat": n % 4, "start": n % 60, "end": n % 60 + 2, "reason": "draw"}) for n in range(3000)]
    failures: list[str] = []

    def ask(shift: int) -> None:
        rng = random.Random(shift)
        start = 0
        while start < len(events) and not failures:
            end = start + rng.randint(1, 12)
            pairs = [(sequence + shift, event) for sequence, event in enumerate(events[start:end], start=start)]
            if wire.events_fields(pairs) != _expected(wire, pairs):
                failures.append(f"shift {shift} at {start}")
            start = end

    threads = [threading.Thread(target=ask, args=(shift % 2,)) for shift in range(4)]
    run_switching_often(threads)
    assert not failures


@pytest.mark.parametrize("game_id", game_ids())
def test_seat_events_of_interleaved_games_and_clones_are_what_each_seat_may_see(game_id: str) -> None:
    """`messages.seat_events`, asked for games and clones in turn, from any cursor, gives exactly the events from there
    on the seat may see, deferred ones built (what the runs are fed)."""
    game = get_game(game_id)
    rng = random.Random(9)
    players = game.max_players
    states = [game.new_initial_state(game.make_config(players)) for _ in range(2)]
    checked = 0
    while not all(state.is_terminal() for state in states) and checked < 2000:
        state = rng.choice([state for state in states if not state.is_terminal()])
        for _ in range(rng.randint(1, 5)):
            if not state.is_terminal():
                playout.step(state, rng)
        if rng.random() < 0.05 and len(states) < 6:
            states.append(state.clone())
        seat = rng.randrange(players)
        start = rng.randrange(len(state.events) + 1)
        got = messages.seat_events(state, seat, start)  # first: deferred events are still to be built
        expected = [(position, event) for position, event in enumerate(state.events.since(0)) if event.visible_to(seat)]
        assert got == [pair for pair in expected if pair[0] >= start]
        checked += 1
    assert checked > 20


def test_events_of_a_game_of_one_seat_are_written_alone_and_are_protobufs_bytes() -> None:
    """A game of one seat (DEEP DIVE solo) sends each event to its one seat: its request's events are written and
    nothing is kept for other seats (`alone`), the same bytes as any request's."""
    from referee.clock import SeatClock, TimeControl

    game = get_game("deep_dive")
    wire = get_wire("deep_dive")
    rng = random.Random(4)
    state = game.new_initial_state(game.make_config(1))
    clock = SeatClock.start(TimeControl())
    cursor = 0
    requests = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        events = messages.seat_events(state, 0, cursor)
        cursor = len(state.events)
        assert wire.events_fields(events, alone=True) == wire.events_fields(events) == _expected(wire, events)
        options = list(state.legal_options(0))
        request = messages.outgoing_request(wire, requests + 1, state, 0, options, events, clock).decision_request
        assert [(event.sequence, event.kind) for event in request.events] == [(sequence, event.kind) for sequence, event in events]
        state.apply_decisions({0: rng.choice(options).id})
        requests += 1
    assert requests > 10


def test_a_hole_a_seat_skipped_is_filled_by_the_event_first_asked_for_there_and_only_used_for_it() -> None:
    """Each seat skips the events others alone see: the run keeps a hole at their numbers, filled by the first event
    asked for there; a seat asking another event under that number (its own private one, another log's) gets its own
    field, and the event that filled it gets it again from the run."""
    shared_wire = get_wire("fuji99")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    public = [Event("moved", {"seat": 0, "start": n, "end": n + 1, "reason": "draw"}) for n in range(6)]
    private = [Event("moved", {"seat": seat, "start": 40 + seat, "end": 50, "reason": "draw"}, frozenset((seat,))) for seat in range(3)]
    # log: public 0, private of seat 0, public 1, private of seat 1, public 2, private of seat 2, public 3..5
    log = [public[0], private[0], public[1], private[1], public[2], private[2], *public[3:]]
    for seat in (2, 0, 1, 2, 1, 0):
        pairs = [(number, event) for number, event in enumerate(log) if event.audience is None or seat in event.audience]
        assert wire.events_fields(pairs) == _expected(wire, pairs)
    run = wire._runs[0]
    assert [entry[0] for entry in run.entries] == [id(event) for event in log]  # every hole filled, by the log's events
    other = [(number, Event("moved", {"seat": 1, "start": number, "end": 9, "reason": "other"})) for number in (1, 3, 5)]
    assert wire.events_fields(other) == _expected(wire, other)
    assert [entry[0] for entry in run.entries] == [id(event) for event in log]
    for seat in range(3):
        pairs = [(number, event) for number, event in enumerate(log) if event.audience is None or seat in event.audience]
        assert wire.events_fields(pairs) == _expected(wire, pairs)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_seat_of_a_decision_numbering_its_events_as_the_runner_does_gets_protobufs_bytes(game_id: str) -> None:
    """The runner numbers each seat's events in the seat's own sequence (`referee.messages.seat_numbered`): a decision's
    seats, asked in turn with the game's own wire as a match asks them, each get protobuf's bytes for their events
    (the fields the first seat's read wrote under log positions, sent again under each seat's numbers)."""
    game = get_game(game_id)
    wire = get_wire(game_id)
    rng = random.Random(11)
    compared = 0
    for players in range(game.min_players, game.max_players + 1):
        for _ in range(2):
            table = _Table(game.new_initial_state(game.make_config(players)), own_numbers=True)
            while not table.state.is_terminal():
                if table.state.is_chance_node():
                    playout.step(table.state, rng)
                    continue
                for seat in table.state.deciding_seats():
                    pairs = table.events_of(seat)
                    parts: list[bytes] = []
                    wire.events_into(pairs, players == 1, parts)
                    assert b"".join(parts) == _expected(wire, pairs), (game_id, players, seat)
                    compared += 1
                playout.step(table.state, rng)
    assert compared > 20
