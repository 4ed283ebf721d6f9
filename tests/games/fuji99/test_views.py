"""Fuji 99 views and messages: everything is public, views carry exactly the §5 fields, all encode strictly."""

from __future__ import annotations

import random

from b99.games import fuji99_pb2 as pb
from referee.games.fuji99 import GAME
from referee.playout import play_out
from referee.wire import get_wire
from tests.games.fuji99.helpers import begin_turn, draw, give, new_state


def test_every_seat_sees_the_same_as_a_spectator() -> None:
    state = new_state(4)
    give(state, 2, "buried_treasure-1", 3)
    state.omens[1].append(("ill_omen-1", False))
    state.deck.remove("ill_omen-1")
    begin_turn(state, 0)
    draw(state, 6, 3, 2, 1)
    public = state.public_view()
    assert "seat" not in public
    for seat in range(4):
        view = state.private_view(seat)
        assert view.pop("seat") == seat
        assert view == public


def test_view_fields_are_the_public_table_of_section_5() -> None:
    state = new_state(3)
    give(state, 2, "buried_treasure-1", 3)
    begin_turn(state, 0)
    draw(state, 6, 3, 2, 1)
    view = state.public_view()
    assert view["movement"] == 6 and view["active"] == 0
    assert view["current_draw"] == {"clear": 3, "yellow": 2, "red": 1}
    assert (view["red_area"], view["spent_yellow"], view["available_yellow"]) == (1, 0, 2)
    assert view["seats"][2]["hand"] == [{"card": "buried_treasure-1", "type": "buried_treasure", "cubes": 3, "danger": 3}]
    assert view["seats"][2]["hand_danger"] == 3
    assert view["seats"][0]["bag"] == {"clear": 3, "yellow": 2, "red": 2}
    assert (view["pagoda"], view["yellow_on_20"], view["yellow_on_50"], view["deck_size"]) == (46, 3, 3, 21)
    # nothing about the deck's order or the next cubes
    assert not any("deck" in key and key != "deck_size" for key in view)


def test_determinize_is_an_exact_copy() -> None:
    state = new_state()
    draw(state, 5, 5, 0, 0)
    world = state.determinize(1, random.Random(3))
    assert world.public_view() == state.public_view()
    assert world.deck == state.deck and world is not state


def test_every_event_kind_is_emitted_and_encodes() -> None:
    """Random games (and one exhausted deck) reach every event kind of the proto; each encodes strictly."""
    wire = get_wire("fuji99")
    exhausted = new_state()  # a draw with deck and discard both empty is too rare for random play
    exhausted.deck.clear()
    draw(exhausted, 5, 5, 0, 0)
    from referee.position import load_position, position_json

    states = [exhausted, load_position(position_json(new_state()))]  # a game from a position opens with `position`
    declared = {field.name for field in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
    seen: set[str] = set()
    for seed in range(60):
        config = GAME.make_config(2 + seed % 3, {"max_rounds": 3} if seed % 10 == 0 else {})
        state = GAME.new_initial_state(config)
        play_out(state, random.Random(seed))
        states.append(state)
    for state in states:
        for event in state.events:
            wire.event_message(event)
            seen.add(event.kind)
        wire.view_message(state.public_view())
    assert seen == declared


def test_a_lazy_view_reads_as_the_full_view_at_every_step() -> None:
    """`LazyView` (for playout policies) computes each field on first read from the same field functions."""
    from referee.games.fuji99.views import LazyView
    from referee.playout import step

    state = GAME.new_initial_state(GAME.make_config(3))
    rng = random.Random(11)
    steps = 0
    while not state.is_terminal():
        for seat in (None, *range(3)):
            full = state.public_view() if seat is None else state.private_view(seat)
            lazy = LazyView(state, seat)
            assert {name: lazy[name] for name in full if name != "seats"} == {name: value for name, value in full.items() if name != "seats"}
            assert [{name: seat_view[name] for name in full["seats"][0]} for seat_view in lazy["seats"]] == full["seats"]
            for name in ("drawing_card", "winner", "no_such_field"):
                if name not in full:
                    try:
                        lazy[name]
                    except KeyError:
                        continue
                    raise AssertionError(f"a lazy view reads {name!r}, which the view leaves out")
        step(state, rng)
        steps += 1
    assert steps > 50
