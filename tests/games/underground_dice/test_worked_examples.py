"""The worked examples E1-E15 of the Underground Dice spec (section 9), every stated fact asserted."""

from __future__ import annotations

from tests.games.underground_dice.helpers import (
    apply_forced,
    decide,
    events_since,
    hands,
    new_state,
    option_ids,
    play_miss_rounds,
    set_position,
    split,
)

ALL_FACES = [
    "faces:none", "faces:4", "faces:5", "faces:6", "faces:44", "faces:45", "faces:46", "faces:55", "faces:56",
    "faces:66", "faces:444", "faces:445", "faces:446", "faces:455", "faces:456", "faces:466", "faces:555",
    "faces:556", "faces:566", "faces:666",
]  # fmt: skip


def e1_state():
    state = new_state({"first_parent": 0})
    return state


def test_e1_parent_options_at_the_start_of_a_parent_turn() -> None:
    state = e1_state()
    assert state.parent == 0 and (state.p, state.q) == (3, 3) and hands(state) == [30, 30]
    assert state.deciding_seats() == (0,) and state.decision_name(0) == "set_pins"
    assert option_ids(state) == ["pins:0", "pins:1", "pins:2", "pins:3"]
    no_pins = state.clone()
    decide(no_pins, "pins:0")
    assert no_pins.decision_name(0) == "set_faces"
    assert option_ids(no_pins) == ALL_FACES[1:] and len(option_ids(no_pins)) == 19
    two_pins = state.clone()
    decide(two_pins, "pins:2")
    assert option_ids(two_pins) == ALL_FACES and len(option_ids(two_pins)) == 20


def e2_state():
    state = e1_state()
    decide(state, "pins:1", "faces:66")
    return state


def test_e2_announcement_and_the_childs_options() -> None:
    state = e1_state()
    start = len(state.events)
    decide(state, "pins:1", "faces:66")
    assert events_since(state, start, 1) == [("dice_set", {"k": 3})]
    assert events_since(state, start, 0) == [("dice_set", {"k": 3, "pins": 1, "faces": "66"})]
    child_view = state.private_view(1)
    assert child_view["announced_dice"] == 3 and child_view["unused_pins"] == 3 and child_view["unused_shigoro"] == 3
    assert "set_pins" not in child_view and "set_faces" not in child_view
    assert "66" not in repr(child_view) and "66" not in repr(state.public_view())
    parent_view = state.private_view(0)
    assert parent_view["set_pins"] == 1 and parent_view["set_faces"] == "66"
    assert state.deciding_seats() == (1,) and state.decision_name(1) == "stake"
    assert option_ids(state) == [f"stake:{n}" for n in range(1, 31)]
    decide(state, "stake:2")
    assert state.hand(1) == 28 and state.pot == 2
    assert state.private_view(0)["hands"][1]["bills"] == 28 and state.public_view()["pot"] == 2
    assert state.decision_name(1) == "guess"
    assert option_ids(state) == [f"guess:{g}" for g in (3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)]
    assert len(option_ids(state)) == 14


def e3_state():
    state = e2_state()
    decide(state, "stake:2", "guess:13")
    return state


def test_e3_hit_with_three_dice() -> None:
    state = e2_state()
    decide(state, "stake:2")
    start = len(state.events)
    decide(state, "guess:13")
    assert events_since(state, start) == [
        ("guess", {"guess": 13}),
        ("reveal", {"pins": 1, "faces": [6, 6], "total": 13, "hit": True, "unused_pins": 2, "unused_shigoro": 1}),
        ("stake_returned", {"seat": 1, "bills": 2}),  # back to 30 before the payout
        ("transfer_due", {"giver": 0, "receiver": 1, "amount": 6}),
        ("bills_moved", {"giver": 0, "receiver": 1, "bills": 6}),
    ]
    assert hands(state) == [24, 36] and state.pot == 0
    assert (state.p, state.q) == (2, 1)
    assert state.parent == 0 and state.deciding_seats() == (0,) and state.decision_name(0) == "set_pins"


def e4_state():
    state = e3_state()
    decide(state, "pins:2", "faces:5", "stake:4", "guess:8")
    return state


def test_e4_a_miss_that_ends_the_parent_turn() -> None:
    state = e3_state()
    assert option_ids(state) == ["pins:0", "pins:1", "pins:2"]
    decide(state, "pins:2")
    assert option_ids(state) == ["faces:none", "faces:4", "faces:5", "faces:6"]
    decide(state, "faces:5")
    assert state.announced == 3
    decide(state, "stake:4")
    assert option_ids(state) == ["guess:6", "guess:7", "guess:8"]
    start = len(state.events)
    decide(state, "guess:8")
    assert events_since(state, start)[:3] == [
        ("guess", {"guess": 8}),
        ("reveal", {"pins": 2, "faces": [5], "total": 7, "hit": False, "unused_pins": 0, "unused_shigoro": 0}),
        ("bills_moved", {"giver": 1, "receiver": 0, "bills": 4}),
    ]
    assert hands(state) == [28, 32]
    assert ("parent_turn_end", {"parent": 0, "number": 1}) in events_since(state, start)
    assert state.completed == [1, 0]
    assert events_since(state, start)[-1] == ("parent_turn_start", {"parent": 1, "number": 2})
    assert state.parent == 1 and (state.p, state.q) == (3, 3)
    assert state.deciding_seats() == (1,) and state.decision_name(1) == "set_pins"


def test_e5_only_pin_dice_left_forced_guess() -> None:
    state = set_position(new_state({"first_parent": 1}), parent=1, hands=[20, 40], p=2, q=0, completed=(1, 0))
    assert option_ids(state) == ["pins:1", "pins:2"]
    decide(state, "pins:2")
    assert option_ids(state) == ["faces:none"]
    assert apply_forced(state) == ["faces:none"]
    assert state.announced == 2
    decide(state, "stake:5")
    assert option_ids(state) == ["guess:2"]
    start = len(state.events)
    assert apply_forced(state) == ["guess:2"]
    reveal = events_since(state, start)[1]
    assert reveal == ("reveal", {"pins": 2, "faces": [], "total": 2, "hit": True, "unused_pins": 0, "unused_shigoro": 0})
    assert ("transfer_due", {"giver": 1, "receiver": 0, "amount": 10}) in events_since(state, start)
    assert hands(state) == [30, 30]
    assert ("parent_turn_end", {"parent": 1, "number": 2}) in events_since(state, start)
    assert state.completed == [1, 1] and state.parent == 0


def test_e6_parent_cannot_pay_a_10x_payout() -> None:
    state = set_position(new_state({"first_parent": 1}), parent=1, hands=[35, 25])
    decide(state, "pins:3", "faces:456")
    assert state.announced == 6
    decide(state, "stake:3")
    assert option_ids(state) == [f"guess:{g}" for g in range(15, 22)]
    start = len(state.events)
    decide(state, "guess:18")
    assert events_since(state, start) == [
        ("guess", {"guess": 18}),
        ("reveal", {"pins": 3, "faces": [4, 5, 6], "total": 18, "hit": True, "unused_pins": 0, "unused_shigoro": 0}),
        ("stake_returned", {"seat": 0, "bills": 3}),
        ("transfer_due", {"giver": 1, "receiver": 0, "amount": 30}),
        ("bankrupt", {"seat": 1, "reason": "cannot_pay"}),
        ("game_end", {"ranks": [1, 2], "scores": [35000, 25000]}),
    ]
    assert hands(state) == [35, 25]
    assert state.is_terminal()
    assert state.result().ranks == (1, 2) and state.result().scores == (35000.0, 25000.0)


def test_e7_paying_with_the_last_bill_is_bankruptcy() -> None:
    state = set_position(new_state({"first_parent": 1}), parent=1, hands=[52, 8])
    decide(state, "pins:2", "faces:44")
    assert state.announced == 4
    decide(state, "stake:2")
    start = len(state.events)
    decide(state, "guess:10")
    assert events_since(state, start)[1][1]["total"] == 10 and events_since(state, start)[1][1]["hit"] is True
    assert ("transfer_due", {"giver": 1, "receiver": 0, "amount": 8}) in events_since(state, start)
    assert ("bills_moved", {"giver": 1, "receiver": 0, "bills": 8}) in events_since(state, start)
    assert hands(state) == [60, 0]
    assert ("bankrupt", {"seat": 1, "reason": "no_bills"}) in events_since(state, start)
    assert state.is_terminal()
    assert state.result().ranks == (1, 2) and state.result().scores == (60000.0, 0.0)


def test_e8_the_child_stakes_everything_and_misses() -> None:
    state = set_position(new_state({"first_parent": 1}), parent=1, hands=[3, 57])
    decide(state, "pins:0", "faces:4")
    assert state.announced == 1
    assert option_ids(state) == ["stake:1", "stake:2", "stake:3"]
    decide(state, "stake:3")
    assert state.hand(0) == 0 and state.pot == 3
    assert not state.is_terminal() and state.decision_name(0) == "guess"
    start = len(state.events)
    decide(state, "guess:5")
    assert events_since(state, start)[1][1]["total"] == 4 and events_since(state, start)[1][1]["hit"] is False
    assert ("bills_moved", {"giver": 0, "receiver": 1, "bills": 3}) in events_since(state, start)
    assert ("bankrupt", {"seat": 0, "reason": "no_bills"}) in events_since(state, start)
    assert hands(state) == [0, 60]
    assert state.result().ranks == (2, 1) and state.result().scores == (0.0, 60000.0)


def play_ten_turns(extra_round_turns: set[int], variants: dict | None = None, turns: int = 10):
    """Parent turns 1..turns from the start (P0 first); listed turns take two rounds (the child misses twice)."""
    state = new_state({"first_parent": 0, **(variants or {})})
    for turn in range(1, turns + 1):
        assert not state.is_terminal()
        assert state.turn_number == turn and state.parent == (turn - 1) % 2
        play_miss_rounds(state, 2 if turn in extra_round_turns else 1)
    return state


def test_e9_normal_end_and_draw() -> None:
    state = play_ten_turns({1})  # P1 misses once more as child: 31 / 29
    parents = [data["parent"] for kind, data in events_since(state, 0) if kind == "parent_turn_start"]
    assert parents == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]  # the 10th is P1's 5th
    assert state.completed == [5, 5] and hands(state) == [31, 29] and state.bankrupt is None
    assert state.is_terminal()
    assert state.result().ranks == (1, 2) and state.result().scores == (31000.0, 29000.0)
    draw = play_ten_turns(set())
    assert hands(draw) == [30, 30] and draw.is_terminal()
    assert draw.result().ranks == (1, 1) and draw.result().scores == (30000.0, 30000.0)
    assert events_since(draw, 0)[-1] == ("game_end", {"ranks": [1, 1], "scores": [30000, 30000]})


def stake_options_with(cap: int | None, bills: int) -> list[str]:
    state = set_position(new_state({"first_parent": 0, "stake_cap": cap}), parent=0, hands=[60 - bills, bills])
    decide(state, "pins:1", "faces:none")
    return option_ids(state)


def test_e10_stake_cap() -> None:
    assert stake_options_with(5, 12) == [f"stake:{n}" for n in range(1, 6)]
    assert stake_options_with(5, 3) == ["stake:1", "stake:2", "stake:3"]
    assert stake_options_with(5, 1) == ["stake:1"]
    state = set_position(new_state({"first_parent": 0, "stake_cap": 5}), parent=0, hands=[59, 1])
    decide(state, "pins:1", "faces:none")
    assert apply_forced(state)[0] == "stake:1"  # auto-applied (the guess 1 is forced too)
    assert stake_options_with(None, 12) == [f"stake:{n}" for n in range(1, 13)]


def test_e11_until_bankruptcy_and_the_safeguard() -> None:
    state = play_ten_turns({1}, {"until_bankruptcy": True})
    assert hands(state) == [31, 29] and not state.is_terminal()
    assert state.parent == 0 and state.turn_number == 11
    assert events_since(state, 0)[-1] == ("parent_turn_start", {"parent": 0, "number": 11})
    capped = play_ten_turns({2, 4, 6, 8}, {"until_bankruptcy": True, "max_parent_turns": 12}, turns=12)
    assert capped.turns_done == 12 and hands(capped) == [26, 34] and capped.bankrupt is None
    assert capped.is_terminal()
    assert capped.result().ranks == (2, 1) and capped.result().scores == (26000.0, 34000.0)


def counterfeit_position(parent: int, hands_split: list[tuple[int, int]]):
    """A counterfeit game at a round start; the deal is explicit, the holdings then set (see set_position)."""
    state = new_state({"counterfeit": True, "first_parent": parent}, deal=[hands_split[0][1], hands_split[1][1]])
    return set_position(state, parent=parent, hands=hands_split)


def test_e12_counterfeit_caught_cheating_on_a_payout() -> None:
    state = counterfeit_position(1, [(39, 1), (18, 2)])
    assert hands(state) == [40, 20]
    decide(state, "pins:2", "faces:none", "stake:2", "fakes:0", "guess:2")
    assert state.hit and state.hand(0) == 40  # the stake is back
    assert state.amount == 4 and state.decision_name(1) == "pay_fakes"
    assert option_ids(state) == ["fakes:0", "fakes:1", "fakes:2"]
    decide(state, "fakes:1")
    child_view = state.private_view(0)
    assert child_view["transfer"] == {"giver": 1, "receiver": 0, "amount": 4, "from_stake": False}
    assert "pot_fakes" not in child_view and state.private_view(1)["pot_fakes"] == 1
    assert option_ids(state) == ["accept", "accuse"]
    start = len(state.events)
    decide(state, "accuse")
    assert events_since(state, start, 0)[:2] == [
        ("accused", {"fakes": 1, "counterfeit_found": True, "new_amount": 8}),
        ("transfer_due", {"giver": 1, "receiver": 0, "amount": 8}),
    ]
    assert state.hand(1) == 20 and state.amount == 8
    assert option_ids(state) == ["fakes:0", "fakes:1", "fakes:2"]
    decide(state, "fakes:0", "accept")
    assert split(state, 0) == (47, 1) and split(state, 1) == (10, 2)
    assert hands(state) == [48, 12]


def test_e13_counterfeit_false_accusation_on_a_payout() -> None:
    state = counterfeit_position(1, [(40, 0), (18, 2)])
    decide(state, "pins:1", "faces:none", "stake:3")
    assert apply_forced(state) == ["fakes:0"]  # P0 holds no counterfeit
    decide(state, "guess:1")
    assert state.hit and state.amount == 3
    decide(state, "fakes:0")
    start = len(state.events)
    decide(state, "accuse")
    assert events_since(state, start)[0] == ("accused", {"fakes": 0, "counterfeit_found": False, "new_amount": 0})
    assert all(kind != "bills_moved" for kind, _ in events_since(state, start))
    assert split(state, 0) == (40, 0) and split(state, 1) == (18, 2)
    assert not state.is_terminal() and state.decision_name(1) == "set_pins"


def test_e14_counterfeit_caught_cheating_with_the_stake() -> None:
    state = counterfeit_position(1, [(8, 2), (48, 2)])
    decide(state, "pins:1", "faces:none", "stake:4")
    assert option_ids(state) == ["fakes:0", "fakes:1", "fakes:2"]
    decide(state, "fakes:2", "guess:4")
    assert not state.hit
    assert state.decision_name(1) == "accept_or_accuse" and state.private_view(1)["transfer"]["from_stake"] is True
    start = len(state.events)
    decide(state, "accuse")
    assert events_since(state, start)[:2] == [
        ("accused", {"fakes": 2, "counterfeit_found": True, "new_amount": 8}),
        ("transfer_due", {"giver": 0, "receiver": 1, "amount": 8}),
    ]
    assert state.hand(0) == 10
    assert state.decision_name(0) == "pay_fakes"
    assert option_ids(state) == ["fakes:0", "fakes:1", "fakes:2"]
    decide(state, "fakes:0", "accept")
    assert split(state, 0) == (0, 2) and state.hand(0) == 2 and state.score(0) == -2000
    assert split(state, 1) == (56, 2) and state.hand(1) == 58
    assert not state.is_terminal()


def test_e15_counterfeit_end_of_game_scoring() -> None:
    state = new_state({"counterfeit": True, "first_parent": 0}, deal=[5, 0])
    # The last round of the 10th parent turn: P1 has one pin die left; P0 wins 1 genuine bill.
    set_position(state, parent=1, hands=[(26, 5), (29, 0)], p=1, q=0, completed=(5, 4))
    decide(state, "pins:1")
    apply_forced(state)
    decide(state, "stake:1", "fakes:0")
    apply_forced(state)  # guess 1 (hit), and P1's pay_fakes has only fakes:0
    decide(state, "accept")
    assert split(state, 0) == (27, 5) and split(state, 1) == (28, 0) and hands(state) == [32, 28]
    assert state.is_terminal() and state.bankrupt is None
    assert state.result().scores == (22000.0, 28000.0)
    assert state.result().ranks == (2, 1)
