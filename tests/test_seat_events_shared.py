"""Every seat of a decision reads the same new entries of the log: `messages.seat_events` keeps the last seat's
(`referee.wire.SeatEvents`: each entry's pair, event and audience) and `GameWire.events_into` the fields written for
them, for the next seat. What is kept is found by what it was made for (the same Event objects at the same positions,
the same wire), never assumed: whatever games, clones, wires, threads and numbering ask in between, every seat gets
exactly the events it may see, and every request's events are protobuf's own serialization of them."""

from __future__ import annotations

import random
import threading

import pytest

from referee import messages, playout
from referee.chance import sample_outcome
from referee.engine import Event, EventLog, GameState
from referee.registry import game_ids, get_game
from referee.wire import LAST_EVENTS, PLAIN_REQUESTS, GameWire, get_wire
from tests.test_event_runs import _expected
from tests.threads import run_switching_often


def _visible(state: GameState, seat: int, start: int) -> list[tuple[int, Event]]:
    return [(position, event) for position, event in enumerate(state.events.since(0)) if position >= start and event.visible_to(seat)]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_seat_of_a_decision_in_any_order_between_other_games_clones_and_wires(game_id: str) -> None:
    game = get_game(game_id)
    shared_wire = get_wire(game_id)
    wires = [shared_wire, GameWire(shared_wire.view, shared_wire.option, shared_wire.event)]
    rng = random.Random(11)
    compared = 0
    for players in range(max(2, game.min_players), game.max_players + 1):
        states = [game.new_initial_state(game.make_config(players)) for _ in range(2)]
        cursors = [[0] * players for _ in states]
        while any(not state.is_terminal() for state in states) and compared < 1500:
            table = rng.choice([index for index, state in enumerate(states) if not state.is_terminal()])
            state = states[table]
            for _ in range(rng.randint(1, 3)):
                if not state.is_terminal():
                    playout.step(state, rng)
            seats = list(range(players))
            rng.shuffle(seats)
            for seat in seats[: rng.randint(1, players)]:
                if rng.random() < 0.2:  # another game's (or a clone's) seat asks in between
                    other = rng.randrange(len(states))
                    other_seat = rng.randrange(players)
                    got = messages.seat_events(states[other], other_seat, cursors[other][other_seat])
                    assert got == _visible(states[other], other_seat, cursors[other][other_seat])
                    wire = rng.choice(wires)
                    assert wire.events_fields(got) == _expected(wire, got)
                start = cursors[table][seat] if rng.random() < 0.9 else rng.randrange(len(state.events) + 1)
                got = messages.seat_events(state, seat, start)
                assert got == _visible(state, seat, start), (game_id, players, seat)
                cursors[table][seat] = len(state.events)
                if rng.random() < 0.2:
                    got = [(number + 3, event) for number, (_, event) in enumerate(got)]  # a match's own numbers
                wire = rng.choice(wires)
                assert wire.events_fields(got) == _expected(wire, got), (game_id, players, seat)
                compared += 1
            if rng.random() < 0.05 and len(states) < 5:
                states.append(state.clone())  # shares its log with its source until either appends
                cursors.append(list(cursors[table]))
    assert compared > 50


class _Logged:
    """What `seat_events` reads of a state: its event log."""

    def __init__(self, log: EventLog) -> None:
        self.events = log


def test_a_log_with_other_events_at_the_same_positions_is_never_given_the_kept_ones() -> None:
    """Two logs (a clone that appended other events, another game) of the same length: a seat asking the second for the
    same positions gets the second's events, and their fields, not the first's."""
    wire = get_wire("fuji99")
    first = EventLog()
    for number in range(4):
        first.append(Event("moved", {"seat": 0, "start": number, "end": number + 1, "reason": "draw"}))
    second = first.copy()  # shares the first's entries until one of them appends
    first.append(Event("moved", {"seat": 1, "start": 10, "end": 12, "reason": "draw"}))
    first.append(Event("moved", {"seat": 2, "start": 20, "end": 21, "reason": "draw"}, frozenset((2,))))
    second.append(Event("moved", {"seat": 1, "start": 30, "end": 33, "reason": "slide"}))
    second.append(Event("moved", {"seat": 2, "start": 40, "end": 44, "reason": "draw"}, frozenset((0,))))
    for seat in (0, 1, 2):
        for log in (first, second, first):
            got = messages.seat_events(_Logged(log), seat, 2)  # type: ignore[arg-type]
            want = [(position, event) for position, event in enumerate(log.since(0)) if position >= 2 and event.visible_to(seat)]
            assert got == want
            assert [id(event) for _, event in got] == [id(event) for _, event in want]
            assert wire.events_fields(got) == _expected(wire, got)
    kept = LAST_EVENTS[0]
    assert kept.events == list(first.since(2))


def test_the_seats_of_a_decision_share_its_pairs_and_fields() -> None:
    """Every seat of a Merchants of B99 decision is given the same pair objects for the events it sees, and each
    event's field is written once for all of them."""
    game = get_game("merchants")
    wire = get_wire("merchants")
    rng = random.Random(3)
    state = game.new_initial_state(game.make_config(4))
    cursors = [0] * 4
    shared = apart = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        given = []
        for seat in state.deciding_seats():
            got = messages.seat_events(state, seat, cursors[seat])
            assert got == _visible(state, seat, cursors[seat])
            cursors[seat] = len(state.events)
            assert wire.events_fields(got) == _expected(wire, got)
            given.append(got)
        if len(given) > 1 and given[0]:
            pairs = {pair[0]: pair for got in given for pair in got}
            if all(pair is pairs[pair[0]] for got in given for pair in got):
                shared += 1
            else:
                apart += 1
        playout.step(state, rng)
    assert shared >= 15 and apart * 4 <= PLAIN_REQUESTS, (shared, apart)  # plain lists first, while nothing was shared


def test_threads_asking_for_their_games_seats_at_once_each_get_their_own_events() -> None:
    failures: list[str] = []

    def play(seed: int) -> None:
        game = get_game("merchants")
        wire = get_wire("merchants")
        rng = random.Random(seed)
        state = game.new_initial_state(game.make_config(2 + seed % 3))
        cursors = [0] * state.players
        while not state.is_terminal() and not failures:
            if not state.is_chance_node():
                for seat in state.deciding_seats():
                    got = messages.seat_events(state, seat, cursors[seat])
                    want = _visible(state, seat, cursors[seat])
                    cursors[seat] = len(state.events)
                    if got != want or wire.events_fields(got) != _expected(wire, got):
                        failures.append(f"game {seed} seat {seat}")
            playout.step(state, rng)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(4)]
    run_switching_often(threads)
    assert not failures
