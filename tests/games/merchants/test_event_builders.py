"""Merchants of B99's deferred events (built when the log is first read): the events of a few small numbers
(`hand_passed`, `hand_drawn`) are made once per numbers and shared by every log that holds one; every event equals
the Event its kind, data and audience make, whichever game, clone or order built it."""

from __future__ import annotations

import random

from referee import playout
from referee.engine import Event
from referee.registry import get_game

GAME = get_game("merchants")


def test_events_of_small_numbers_are_shared_and_equal_to_the_events_they_stand_for() -> None:
    shared: dict[tuple[object, ...], Event] = {}
    for players in (1, 2, 3, 4):
        rng = random.Random(players)
        for _ in range(2):
            state = GAME.new_initial_state(GAME.make_config(players))
            clones = []
            while not state.is_terminal():
                playout.step(state, rng)
                if rng.random() < 0.05:
                    clones.append(state.clone())
            for clone in clones:  # a clone's log shares the entries up to where it was made, built once
                while not clone.is_terminal():
                    playout.step(clone, rng)
            for log in [state.events] + [clone.events for clone in clones]:
                for event in log:
                    assert type(event) is Event
                    assert event == Event(event.kind, dict(event.data), event.audience)
                    if event.kind in ("hand_passed", "hand_drawn"):
                        assert event.audience is None
                        key = (event.kind, *event.data.values())
                        assert shared.setdefault(key, event) is event
    assert any(key[0] == "hand_passed" for key in shared) and any(key[0] == "hand_drawn" for key in shared)
