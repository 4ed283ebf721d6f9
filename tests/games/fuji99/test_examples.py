"""Fuji 99: one test per worked example of the spec's section 9 (E1-E15)."""

from __future__ import annotations

import pytest

from referee.games.fuji99.scoring import final_result
from referee.games.fuji99.phases import CARDS, CONTINUE_OR_STOP, DRAW_COUNT
from tests.games.fuji99.helpers import (
    begin_turn,
    draw,
    draw_cards,
    give,
    hand,
    new_state,
    option_ids,
    red_bust_turn,
)

TOTAL_YELLOW, TOTAL_RED = 24, 12


@pytest.mark.parametrize(
    ("players", "pagoda", "on_space", "box_yellow", "box_red"),
    [(3, 46, 3, 6, 3), (2, 52, 2, 12, 6), (4, 40, 4, 0, 0)],
)
def test_e1_setup_counts(players: int, pagoda: int, on_space: int, box_yellow: int, box_red: int) -> None:
    state = new_state(players)
    assert state.bags == [[6, 4, 3]] * players
    assert state.pagoda == pagoda
    assert state.yellow_left == [on_space, on_space]
    in_play_yellow = sum(bag[1] for bag in state.bags) + sum(state.yellow_left)
    in_play_red = sum(bag[2] for bag in state.bags)
    assert (TOTAL_YELLOW - in_play_yellow, TOTAL_RED - in_play_red) == (box_yellow, box_red)
    assert len(state.deck) == 22 and state.discard == []
    assert state.pos == [0] * players and state.m == 0 and state.round == 1
    assert state.deciding_seats() == (0,) and state.decision_name(0) == DRAW_COUNT
    assert option_ids(state) == [f"draw:{n}" for n in range(5, 14)]


def test_e2_continue_then_red_bust() -> None:
    state = new_state()
    state.pos[0] = 10
    begin_turn(state, 0)
    draw(state, 6, 3, 1, 2)
    assert state.m == 16 and state.red_area == 2
    assert state.phase == CARDS and state.drawing == 0  # S4 skipped: no cards
    draw_cards(state, ["lantern-1"])
    assert state.hand_danger(0) == 1
    assert option_ids(state) == ["continue", "stop"]
    state.apply_decision(0, "continue")
    assert state.bags[0] == [6, 4, 1]
    assert option_ids(state) == [f"draw:{n}" for n in range(5, 12)]
    draw(state, 5, 2, 2, 1)
    assert state.events[-3].kind == "red_bust" and state.events[-3].data["threat"] == 3
    assert state.pos[0] == 10
    assert hand(state, 0) == [("lantern-1", 0)]
    assert state.bags[0] == [6, 4, 3]
    assert state.pagoda == 46
    assert state.got[0] == [False, False]
    assert state.active == 1 and state.m == state.pos[1]


def test_e3_yellow_from_space_20_survives_a_bust() -> None:
    state = new_state()
    state.pos[0] = 17
    begin_turn(state, 0)
    draw(state, 5, 3, 1, 1)
    assert state.m == 22
    assert state.yellow_left[0] == 2 and state.got[0][0]
    assert state.bags[0] == [3, 4, 2]
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "continue")
    assert state.bags[0] == [6, 5, 2] and state.red_area == 1
    draw(state, 8, 3, 3, 2)
    assert state.pos[0] == 17
    assert state.bags[0] == [6, 5, 3] and sum(state.bags[0]) == 14
    assert hand(state, 0) == [("lantern-1", 0)]
    assert state.got[0][0] and state.yellow_left[0] == 2
    # a later turn: 17 -> 23 takes no second yellow from space 20
    red_bust_turn(state)
    red_bust_turn(state)
    assert state.active == 0
    draw(state, 6, 5, 1, 0)
    assert state.m == 23
    assert state.yellow_left[0] == 2 and state.bags[0][1] == 4


def test_e4_lucky_charms_stack_cards_get_no_bonus() -> None:
    state = new_state()
    state.pos[0] = 30
    state.got[0] = [True, False]
    for card in ("lucky_charm-1", "lucky_charm-2", "lantern-1"):
        give(state, 0, card)
    begin_turn(state, 0)
    assert state.hand_danger(0) == 5
    draw(state, 5, 3, 1, 1)
    assert state.m == 41
    assert option_ids(state) == ["use:lucky_charm-1", "use:lucky_charm-2", "use:lantern-1", "end_use"]
    state.apply_decision(0, "use:lantern-1")
    assert state.m == 44
    assert state.available == 0 and state.phase == CARDS  # S4 ended without asking
    assert state.hands[0] == ["lucky_charm-1", "lucky_charm-2"]
    assert state.discard == ["lantern-1"]


def test_e5_card_bust() -> None:
    state = new_state()
    state.pos[0] = 40
    state.pagoda = 30
    give(state, 0, "tunnel-1", 2)
    give(state, 0, "ill_omen-1", 1)
    begin_turn(state, 0)
    draw(state, 5, 4, 1, 0)
    assert state.m == 45
    assert option_ids(state) == ["use:ill_omen-1", "end_use"]
    state.apply_decision(0, "end_use")
    draw_cards(state, ["great_pit-1"])
    bust = next(event for event in reversed(state.events) if event.kind == "card_bust")
    assert bust.data["danger"] == 9
    assert sorted(state.discard) == ["great_pit-1", "ill_omen-1", "tunnel-1"]
    assert state.pagoda == 33
    assert state.pos[0] == 40
    assert state.bags[0] == [6, 4, 3]
    assert state.hands[0] == []
    assert state.active == 1


def test_e6_x_card_at_seven_used_before_the_check() -> None:
    state = new_state()
    state.pos[0] = 40
    state.got[0] = [True, False]
    state.pagoda = 40
    give(state, 0, "buried_treasure-1", 4)
    give(state, 0, "tunnel-1", 0)
    begin_turn(state, 0)
    assert state.hand_danger(0) == 7 and state.phase == DRAW_COUNT  # nothing happens yet
    draw(state, 6, 3, 2, 1)
    assert state.m == 46
    assert option_ids(state) == ["use:buried_treasure-1", "use:tunnel-1", "end_use"]
    state.apply_decision(0, "use:buried_treasure-1")
    assert state.available == 1 and state.spent == 1
    assert state.m == 50
    assert state.yellow_left[1] == 2 and state.got[0][1]
    assert state.phase == CARDS  # Tunnel costs more than Y: S4 over
    draw_cards(state, ["lantern-1"])
    assert state.hand_danger(0) == 4 and state.phase == CONTINUE_OR_STOP
    state.apply_decision(0, "stop")
    assert hand(state, 0) == [("tunnel-1", 2), ("lantern-1", 1)]
    assert state.pagoda == 37
    assert state.pos[0] == 50
    assert state.bags[0] == [10, 5, 3] and sum(state.bags[0]) == 18
    assert "buried_treasure-1" in state.discard


def _e7_state(start: int) -> object:
    state = new_state(4)
    state.pos[:] = [start, 35, 35, 60]
    state.got[0] = [True, False]
    give(state, 0, "rope_ladder-1", 1)
    give(state, 0, "long_rope_ladder-1", 2)
    begin_turn(state, 0)
    draw(state, 6, 4, 2, 0)
    assert state.m == start + 6 and state.available == 2
    return state


def test_e7_rope_ladders_four_players() -> None:
    state = _e7_state(24)
    long_rope = state.clone()
    state.apply_decision(0, "use:rope_ladder-1")
    assert state.m == 35
    long_rope.apply_decision(0, "use:long_rope_ladder-1")
    assert long_rope.m == 40


@pytest.mark.parametrize("card", ["rope_ladder-1", "long_rope_ladder-1"])
def test_e7_rope_ladder_with_nobody_above_does_nothing(card: str) -> None:
    state = _e7_state(54)
    assert state.m == 60
    clear_before = state.bags[0][0]
    on_card = state.cubes[card]
    state.apply_decision(0, f"use:{card}")
    assert state.m == 60
    assert state.available == 0 and state.spent == 2
    assert state.bags[0][0] == clear_before + on_card
    assert state.discard == [card] and card not in state.hands[0]


@pytest.mark.parametrize(("card", "expected"), [("rope_ladder-1", 55), ("long_rope_ladder-1", 60)])
def test_e8_rope_ladder_two_players(card: str, expected: int) -> None:
    state = new_state(2)
    state.pos[:] = [39, 30]
    give(state, 0, card)
    begin_turn(state, 0)
    draw(state, 6, 4, 2, 0)
    assert state.m == 45 and not state.got[0][1]
    state.apply_decision(0, f"use:{card}")
    assert state.m == expected
    assert state.got[0][1] and state.yellow_left[1] == 1


def _e9_state(start: int) -> object:
    state = new_state()
    state.pos[:] = [start, 40, 41]
    state.got[0] = [True, False]
    give(state, 0, "ill_omen-1")
    begin_turn(state, 0)
    draw(state, 5, 3, 1, 1)
    state.apply_decision(0, "use:ill_omen-1")
    return state


def test_e9_ill_omen_to_the_unique_leader() -> None:
    state = _e9_state(37)
    assert state.m == 42
    assert state.omens[0] == [("ill_omen-1", False)]
    assert "ill_omen-1" not in state.discard
    # it does not count for the rest of this turn: R 1 + 1 red drawn = 2, no bust
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "continue")
    draw(state, 5, 3, 1, 1)
    assert state.active == 0 and state.red_area == 2 and not any(e.kind == "red_bust" for e in state.events)


def test_e9_tied_leaders_no_effect() -> None:
    state = _e9_state(36)
    assert state.m == 41
    assert state.omens == [[], [], []]
    assert state.discard == ["ill_omen-1"]


def test_e9_leader_is_another_player() -> None:
    state = _e9_state(33)
    assert state.m == 38
    assert state.omens[2] == [("ill_omen-1", False)]
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "stop")
    red_bust_turn(state)  # B's turn
    assert state.active == 2
    assert state.omens[2] == [("ill_omen-1", True)]


def test_e10_active_ill_omen_causes_a_red_bust() -> None:
    state = new_state()
    state.pos[1] = 12
    state.deck.remove("ill_omen-2")
    state.omens[1] = [("ill_omen-2", False)]
    begin_turn(state, 1)
    assert state.omens[1] == [("ill_omen-2", True)]
    draw(state, 6, 3, 1, 2)
    bust = next(event for event in reversed(state.events) if event.kind == "red_bust")
    assert bust.data["threat"] == 3 and bust.data["omens"] == 1
    assert state.pos[1] == 12
    assert state.discard == ["ill_omen-2"] and state.omens[1] == []
    assert state.bags[1] == [6, 4, 3]
    assert state.active == 2


def test_e10_amulet_lowers_r_but_never_removes_the_omen() -> None:
    state = new_state()
    state.deck.remove("ill_omen-2")
    state.omens[1] = [("ill_omen-2", False)]
    give(state, 1, "amulet-1")
    begin_turn(state, 1)
    draw(state, 6, 3, 2, 1)  # threat 0 + 1 + 1 = 2: no bust
    assert state.red_area == 1 and state.active == 1
    state.apply_decision(1, "use:amulet-1")
    assert state.red_area == 0 and state.bags[1][2] == 3
    assert state.omens[1] == [("ill_omen-2", True)]
    assert state.active_omens(1) == 1


def test_e11_stop_with_a_short_pagoda() -> None:
    state = new_state()
    state.pagoda = 2
    give(state, 0, "tunnel-1", 1)
    give(state, 0, "lantern-1", 0)
    give(state, 0, "lucky_charm-1", 0)
    state.deck.clear()  # nothing to draw at S5: the hand stays as the example states
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    assert state.phase == CONTINUE_OR_STOP
    state.apply_decision(0, "stop")
    assert option_ids(state) == ["place:tunnel-1", "place:lantern-1", "place:lucky_charm-1"]
    state.apply_decision(0, "place:lantern-1")
    assert option_ids(state) == ["place:tunnel-1", "place:lucky_charm-1"]
    m = state.m
    state.apply_decision(0, "place:tunnel-1")
    assert hand(state, 0) == [("tunnel-1", 2), ("lantern-1", 1), ("lucky_charm-1", 0)]
    assert state.pagoda == 0
    assert state.pos[0] == m == 8
    assert state.active == 1


def test_e12_which_cards_can_be_used() -> None:
    state = new_state()
    state.pagoda = 5
    for card in ("tunnel-1", "lantern-1", "hot_spring-1"):
        give(state, 0, card)
    begin_turn(state, 0)
    draw(state, 5, 3, 1, 1)
    assert state.available == 1
    assert option_ids(state) == ["use:lantern-1", "use:hot_spring-1", "end_use"]
    state.apply_decision(0, "use:lantern-1")
    assert state.available == 0
    assert option_ids(state) == ["use:hot_spring-1", "end_use"]
    state.apply_decision(0, "use:hot_spring-1")
    taken = [(e.data["seat"], e.data["count"]) for e in state.events if e.kind == "clear_taken"]
    assert taken == [(0, 1), (1, 1), (2, 1)]
    assert state.bags[1][0] == 7 and state.bags[2][0] == 7
    assert state.pagoda == 2
    assert state.hands[0] == ["tunnel-1"] and state.phase == CARDS  # S4 ended without asking


def test_e13_win_by_card_with_overshoot() -> None:
    state = new_state()
    state.pos[:] = [88, 50, 40]
    state.got[0] = [True, True]
    give(state, 0, "tunnel-1")
    begin_turn(state, 0)
    draw(state, 5, 3, 2, 0)
    assert state.m == 93 and state.available == 2
    deck_size = len(state.deck)
    state.apply_decision(0, "use:tunnel-1")
    assert state.is_terminal() and state.m == 99
    assert len(state.deck) == deck_size
    assert not any(e.kind == "card_drawn" for e in state.events)
    result = state.result()
    assert result.ranks == (1, 2, 3)
    assert result.scores == (99.0, 50.0, 40.0)


def test_e14_nested_echoes_cause_a_card_bust() -> None:
    state = new_state()
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    sequence = [
        (0, "echo-1"),
        (1, "echo-2"),
        (2, "lantern-1"),
        (0, "tunnel-1"),
        (1, "amulet-1"),
        (2, "ill_omen-1"),
        (0, "great_pit-1"),
    ]
    for seat, card in sequence:
        assert state.drawing == seat
        state.apply_chance(card)
    assert state.discard == ["echo-2", "echo-1", "tunnel-1", "great_pit-1"]
    bust = next(event for event in reversed(state.events) if event.kind == "card_bust")
    assert bust.data["seat"] == 0 and bust.data["danger"] == 7
    assert state.hands == [[], ["amulet-1"], ["lantern-1", "ill_omen-1"]]
    assert state.omens == [[], [], []]
    assert [e.data["seat"] for e in state.events if e.kind == "card_bust"] == [0]


def test_e15_final_ranking() -> None:
    state = new_state(4)
    state.round = 12
    state.pos[:] = [70, 64, 94, 70]
    state.turns_taken[:] = [12, 12, 11, 11]
    begin_turn(state, 2)
    draw(state, 5, 5, 0, 0)
    assert state.is_terminal() and state.winner == 2
    assert state.turns_taken == [12, 12, 12, 11]
    result = state.result()
    assert result.ranks == (3, 4, 1, 2)
    assert result.scores == (70.0, 64.0, 99.0, 70.0)


def test_e15_shared_rank_three() -> None:
    result = final_result([70, 70, 99, 70], [12, 12, 12, 11], winner=2, goal=99)
    assert result.ranks == (3, 3, 1, 2)
    assert 4 not in result.ranks
