"""Underground Dice hidden information: views and events per audience, secrets that never leak, determinize."""

from __future__ import annotations

import json
import random
from collections import Counter

from referee.wire import get_wire
from tests.conformance import seat_observation
from tests.games.underground_dice.helpers import decide, events_since, new_state, split

SECRET_VIEW_KEYS = {"set_pins", "set_faces", "pot_fakes"}


def no_split_of(view: dict, seat: int) -> bool:
    return set(view["hands"][seat]) == {"bills"}


def test_the_child_sees_only_k_before_the_reveal() -> None:
    state = new_state({"first_parent": 0})
    decide(state, "pins:2")
    assert "set_pins" not in state.private_view(1) and state.private_view(0)["set_pins"] == 2
    decide(state, "faces:56")
    for phase_step in ("stake:3", "guess:13"):
        child_view, public = state.private_view(1), state.public_view()
        assert not SECRET_VIEW_KEYS & set(child_view) and not SECRET_VIEW_KEYS & set(public)
        assert child_view["announced_dice"] == 4 and "seat" not in public
        assert state.private_view(0)["set_faces"] == "56"
        decide(state, phase_step)
    # after the reveal everyone sees the dice, and the parent's private fields are gone
    assert "set_pins" not in state.private_view(0)
    reveal = [data for kind, data in events_since(state, 0, None) if kind == "reveal"]
    assert reveal == [{"pins": 2, "faces": [5, 6], "total": 13, "hit": True, "unused_pins": 1, "unused_shigoro": 1}]


def test_dice_set_goes_to_each_seat_with_its_own_content_and_not_to_spectators() -> None:
    state = new_state({"first_parent": 1})
    start = len(state.events)
    decide(state, "pins:0", "faces:444")
    events = list(state.events.since(start))
    assert [(e.kind, dict(e.data), e.audience) for e in events] == [
        ("dice_set", {"k": 3, "pins": 0, "faces": "444"}, frozenset({1})),
        ("dice_set", {"k": 3}, frozenset({0})),
    ]
    assert events_since(state, start, None) == [] and state.public_view()["announced_dice"] == 3


def test_children_cannot_tell_two_parent_choices_with_the_same_k_apart() -> None:
    worlds = []
    for pins, faces in (("pins:1", "faces:66"), ("pins:3", "faces:none"), ("pins:0", "faces:456")):
        state = new_state({"first_parent": 0})
        decide(state, pins, faces)
        worlds.append(state)
    for step in (None, "stake:2"):
        for state in worlds:
            if step:
                decide(state, step)
        assert len({repr(seat_observation(state, 1)) for state in worlds}) == 1
    assert seat_observation(worlds[1], 0) != seat_observation(worlds[0], 0)


def test_a_seat_cannot_tell_two_counterfeit_deals_of_its_opponent_apart() -> None:
    """Same P0 hand, different P1 hand and P1 stake make-up: P0 observes exactly the same game."""
    a = new_state({"counterfeit": True, "first_parent": 0}, deal=[1, 0])
    b = new_state({"counterfeit": True, "first_parent": 0}, deal=[1, 3])
    for state, fakes in ((a, "fakes:0"), (b, "fakes:2")):
        decide(state, "pins:1", "faces:none", "stake:3", fakes, "guess:4")  # miss: P1's stake is on the table
        assert state.decision_name(0) == "accept_or_accuse"
    assert seat_observation(a, 0) == seat_observation(b, 0)
    assert json.dumps(a.public_view(), sort_keys=True) == json.dumps(b.public_view(), sort_keys=True)
    assert seat_observation(a, 1) != seat_observation(b, 1)
    assert no_split_of(a.private_view(0), 1) and "pot_fakes" not in a.private_view(0)
    assert b.private_view(1)["pot_fakes"] == 2 and b.private_view(1)["hands"][1] == {"bills": 27, "genuine": 26, "counterfeit": 1}


def test_forced_fakes_choices_stay_private() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[0, 2])
    decide(state, "pins:1", "faces:none", "stake:3")
    (only,) = state.legal_options(0)
    assert only.id == "fakes:0"  # forced, yet sent like a chosen one: to the child only
    start = len(state.events)
    state.apply_decision(0, "fakes:0")
    assert [(e.kind, e.audience) for e in state.events.since(start)] == [("stake_fakes", frozenset({0}))]
    decide(state, "guess:1")  # hit; P1 owes 3 and chooses the make-up
    start = len(state.events)
    decide(state, "fakes:2")
    assert [(e.kind, dict(e.data), e.audience) for e in state.events.since(start)] == [
        ("pay_fakes", {"fakes": 2}, frozenset({1}))
    ]
    assert "pot_fakes" not in state.private_view(0) and "pot_fakes" not in state.public_view()


def test_revealed_groups_are_public_and_splits_are_owner_only() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[2, 0])
    decide(state, "pins:1", "faces:none", "stake:2", "fakes:1", "guess:4", "accuse")
    for viewer in (0, 1, None):
        assert ("accused", {"fakes": 1, "counterfeit_found": True, "new_amount": 4}) in events_since(state, 0, viewer)
    public = state.public_view()
    assert all(set(hand) == {"bills"} for hand in public["hands"])
    assert no_split_of(state.private_view(0), 1) and no_split_of(state.private_view(1), 0)
    assert state.private_view(0)["hands"][0] == {"bills": 30, "genuine": 28, "counterfeit": 2}


def test_every_event_and_view_encodes_as_the_typed_messages() -> None:
    wire = get_wire("underground_dice")
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[2, 1])
    decide(state, "pins:1", "faces:none", "stake:2", "fakes:1", "guess:4", "accuse", "fakes:0", "accept")
    for event in state.events:
        message = wire.event_message(event)
        assert message.WhichOneof("kind") == event.kind
    for seat in (0, 1):
        wire.view_message(state.private_view(seat))
    wire.view_message(state.public_view())


# ----- determinize ---------------------------------------------------------------------------


def test_determinize_redraws_the_parents_dice_for_the_child_only() -> None:
    state = new_state({"first_parent": 0})
    decide(state, "pins:1", "faces:66", "stake:2")
    rng = random.Random(3)
    seen = Counter()
    for _ in range(300):
        world = state.determinize(1, rng)
        pins, faces = world.pins_set, world.faces_set
        assert pins is not None and faces is not None
        assert pins + (0 if faces == "none" else len(faces)) == 3 and pins <= 3
        assert seat_observation(world, 1) == seat_observation(state, 1)
        seen[(pins, faces)] += 1
    assert len(seen) > 10  # many (pins, faces) with k = 3: 3 pins, or fewer pins with 4-5-6 faces
    for _ in range(20):
        world = state.determinize(0, rng)
        assert (world.pins_set, world.faces_set) == (1, "66")


def test_determinize_respects_revealed_counterfeits() -> None:
    """P1 was caught with 3 counterfeits: every world must deal P1 at least 3."""
    state = new_state({"counterfeit": True, "first_parent": 0}, deal=[0, 4])
    decide(state, "pins:1", "faces:none", "stake:3", "fakes:3", "guess:4", "accuse")
    assert state.amount == 6 and state.decision_name(1) == "pay_fakes"
    rng = random.Random(5)
    dealt = Counter()
    for _ in range(400):
        world = state.determinize(0, rng)
        assert seat_observation(world, 0) == seat_observation(state, 0)
        assert world.fakes[1] >= 3 and world.hand(1) == 30
        assert world.fakes[0] + world.fakes[1] + world.set_aside_fakes == 6
        dealt[world.fakes[1]] += 1
    assert set(dealt) <= {3, 4, 5, 6} and len(dealt) >= 2


def test_determinize_redraws_an_opponents_group_on_the_table() -> None:
    state = new_state({"counterfeit": True, "first_parent": 0}, deal=[0, 3])
    decide(state, "pins:1", "faces:none", "stake:4", "fakes:2", "guess:4")
    assert state.decision_name(0) == "accept_or_accuse"
    rng = random.Random(11)
    on_table = Counter()
    for _ in range(300):
        world = state.determinize(0, rng)
        assert world.pot == 4 and 0 <= world.pot_fakes <= min(4, world.fakes[1] + world.pot_fakes)
        assert world.fakes[1] >= 0 and world.genuine[1] >= 0 and world.hand(1) == 26
        assert seat_observation(world, 0) == seat_observation(state, 0)
        on_table[world.pot_fakes] += 1
    assert len(on_table) >= 2
    # The giver knows its own group: its determinization keeps it.
    for _ in range(20):
        world = state.determinize(1, rng)
        assert world.pot_fakes == 2 and split(world, 1) == (25, 1)


def test_determinize_before_the_second_deal() -> None:
    state = new_state({"counterfeit": True})
    state.apply_chance("counterfeits:2")
    rng = random.Random(2)
    samples = Counter(state.determinize(1, rng).fakes[0] for _ in range(200))
    assert len(samples) >= 2
    world = state.determinize(1, rng)
    assert world.is_chance_node() and world.hand(0) == 30
    assert state.determinize(0, rng).fakes[0] == 2
