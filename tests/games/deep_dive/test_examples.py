"""The worked examples of the DEEP DIVE spec, section 9 (one test each)."""

from __future__ import annotations

import pytest

from referee.errors import IllegalOptionError
from referee.games.deep_dive import GAME
from referee.games.deep_dive.state import AFTER_FLIP, AI, AI_FLIP, AT_DEPTH, RETREAT, START
from tests.games.deep_dive.helpers import (
    acquire,
    ai_acquire,
    begin_turn,
    capture,
    decide,
    events_since,
    exhaust,
    ids,
    new_game,
    option_ids,
    place_available,
    place_inert,
    set_stack,
)


def play_on(state) -> None:
    """Play to the end with a fixed policy: the first chance outcome, 'keep' or else the first option."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.chance_outcomes()[0].id)
        else:
            options = option_ids(state)
            decide(state, "keep" if "keep" in options else options[0])


def turns_after(state, start_index: int) -> list[int | str]:
    return [
        "AI" if data.get("ai") else data["player"]
        for kind, data in events_since(state, start_index)
        if kind == "turn_start"
    ]


def test_e1_setup_4_and_2_players() -> None:
    state = new_game(4, start=2)
    assert [len(u) for u in state.unseen] == [44, 36, 30, 26, 24]
    assert state.removed_per_depth == 5
    assert state.face_down == [39, 31, 25, 21, 19] and sum(state.face_down) == 135
    assert all(not a for a in state.available) and all(not i for i in state.inert)
    view = state.public_view()
    assert [d["removed"] for d in view["depths"]] == [5] * 5
    # "every player 3 penguins in supply", the start player too, although its first decision is pending
    assert [b["supply"] for b in view["boards"]] == [3, 3, 3, 3]
    assert all(not b["rocks"] and not b["pink"] and not b["green"] and not b["yellow"] for b in view["boards"])
    assert view["token"] == "start_player" and view["start_player"] == 2
    # the start player is a uniform chance outcome over the seats
    initial = GAME.new_initial_state(GAME.make_config(4))
    outcomes = initial.chance_outcomes()
    assert [o.id for o in outcomes] == ["start:0", "start:1", "start:2", "start:3"]
    assert all(o.probability == pytest.approx(0.25) for o in outcomes)
    # every tile of the used sets, removed or face-down, is a possible first flip
    assert state.phase == AT_DEPTH and option_ids(state, 2) == ["flip"]
    decide(state, "flip")
    assert len(state.chance_outcomes()) == 44
    setup = events_since(state, 0)[0]
    assert setup == ("setup", {"players": 4, "sets": ["main", "extra"], "removed_per_depth": 5,
                               "face_down": [39, 31, 25, 21, 19], "start_player": 2, "solo": False})

    two = new_game(2)
    assert [len(u) for u in two.unseen] == [36, 28, 22, 18, 16]
    assert all(two.data.tiles[t].set == "main" for depth in two.unseen for t in depth)
    assert two.removed_per_depth == 7
    assert two.face_down == [29, 21, 15, 11, 9] and sum(two.face_down) == 85


def test_e2_a_normal_dive() -> None:
    state = new_game(3, start=0)
    place_available(state, "D2-05")
    begin_turn(state, 0)
    assert state.phase == AT_DEPTH  # no START decision without a rock
    assert option_ids(state, 0) == ["flip"]
    decide(state, "flip")
    state.apply_chance("D1-25")
    assert ids(state, state.inert[0]) == ["D1-25"]
    assert state.depth == 2
    assert option_ids(state, 0) == ["take:D2-05", "flip"]
    decide(state, "flip")
    state.apply_chance("D2-10")
    assert state.phase == AFTER_FLIP
    assert option_ids(state, 0) == ["keep", "dive_on"]
    decide(state, "dive_on")
    assert ids(state, state.available[1]) == ["D2-05", "D2-10"]
    assert state.depth == 3
    assert option_ids(state, 0) == ["flip"]
    decide(state, "flip")
    state.apply_chance("D3-16")
    view = state.public_view()
    board = view["boards"][0]
    assert board["supply"] == 2 and board["captured_depths"] == [3] and board["captured_tiles"] == ["D3-16"]
    assert not (board["pink"] or board["green"] or board["yellow"] or board["rocks"])
    assert view["depths"][2]["inert"] == [{"tile": {"id": "D3-16", "depth": 3, "type": "predator"}, "penguin": 0}]
    assert [t["id"] for t in view["depths"][1]["available"]] == ["D2-05", "D2-10"]
    assert state.active == 1 and view["active"] == 1


def test_e3_skipping_a_depth_with_a_captured_penguin() -> None:
    state = new_game(3, start=0)
    capture(state, 0, "D3-16")
    acquire(state, 0, ["D1-08"])  # an earlier green tile
    place_available(state, "D2-05", "D4-03")
    begin_turn(state, 0)
    assert option_ids(state, 0) == ["flip"]
    decide(state, "flip")
    state.apply_chance("D1-26")
    assert option_ids(state, 0) == ["take:D2-05", "flip"]
    decide(state, "flip")
    state.apply_chance("D2-16")
    assert state.depth == 3
    assert option_ids(state, 0) == ["flip", "skip"]
    decide(state, "skip")
    assert state.depth == 4
    assert option_ids(state, 0) == ["take:D4-03", "flip"]
    decide(state, "take:D4-03")
    assert ids(state, state.columns[0][1]) == ["D1-08", "D4-03"]
    assert ids(state, state.captured[0]) == ["D3-16"] and state.penguin_on[state.captured[0][0]] == 0
    assert state.active == 1


def test_e4_swallowing_a_rock_forced_keep_at_depth_5() -> None:
    state = new_game(2, start=0)
    acquire(state, 1, ["D1-22"])
    begin_turn(state, 1)
    assert state.phase == START
    assert option_ids(state, 1) == ["dive", "rock:2", "rock:3", "rock:4", "rock:5"]
    start = len(state.events)
    decide(state, "rock:5")
    assert state.rocks[1] == [] and ids(state, state.discarded) == ["D1-22"]
    assert ("rock_swallowed", {"player": 1, "depth": 5, "tile": "D1-22"}) in events_since(state, start)
    assert state.depth == 5
    assert option_ids(state, 1) == ["flip"]
    decide(state, "flip")
    state.apply_chance("D5-02")
    assert option_ids(state, 1) == ["keep"]
    decide(state, "keep")
    assert ids(state, state.columns[1][0]) == ["D5-02"]
    assert state.seat_score(1) == (4, 0)  # an incomplete row of 9 scores 4
    assert state.active == 0


def test_e5_illegal_actions() -> None:
    state = new_game(3, start=0)
    place_available(state, "D1-08")
    place_inert(state, "D1-27")
    begin_turn(state, 2)
    assert state.phase == AT_DEPTH  # no START decision
    for illegal in ("dive", "rock:2", "skip", "take:D1-27", "keep", "dive_on"):
        with pytest.raises(IllegalOptionError):
            state.apply_decision(2, illegal)
    assert option_ids(state, 2) == ["take:D1-08", "flip"]
    decide(state, "flip")
    state.apply_chance("D1-23")
    assert option_ids(state, 2) == ["keep", "dive_on"]
    with pytest.raises(IllegalOptionError):
        state.apply_decision(2, "take:D1-08")
    decide(state, "dive_on")
    assert ids(state, state.available[0]) == ["D1-08", "D1-23"]
    assert state.depth == 2


def test_e6_third_capture_and_retreat() -> None:
    state = new_game(4, start=0)
    capture(state, 3, "D2-22", "D4-12")
    place_available(state, "D2-07", "D2-13", "D3-09", "D4-06", "D5-17")
    begin_turn(state, 3)
    assert state.public_view()["boards"][3]["supply"] == 1  # "supply 1", as the example states
    decide(state, "flip")
    state.apply_chance("D1-29")
    assert option_ids(state, 3) == ["take:D2-07", "take:D2-13", "flip", "skip"]
    decide(state, "skip")
    assert option_ids(state, 3) == ["take:D3-09", "flip"]
    decide(state, "flip")
    state.apply_chance("D3-17")
    assert state.phase == RETREAT
    assert option_ids(state, 3) == [
        "retreat_take:D2-07", "retreat_take:D2-13", "retreat_take:D3-09", "retreat_take:D4-06",
    ]
    start = len(state.events)
    decide(state, "retreat_take:D4-06")
    assert ids(state, state.columns[3][2]) == ["D4-06"]
    assert [kind for kind, _ in events_since(state, start)][:2] == ["took", "retreated"]
    assert state.captured[3] == [] and state.supply(3) == 3
    for tile_id in ("D2-22", "D3-17", "D4-12"):
        index = state.data.by_id[tile_id].index
        assert index in state.inert[state.data.tiles[index].depth - 1] and index not in state.penguin_on
    # a later turn of P3: no skip at depths 2, 3, 4 any more
    begin_turn(state, 3)
    decide(state, "flip")
    state.apply_chance("D1-30")
    for depth, open_water in ((2, "D2-17"), (3, "D3-14"), (4, None)):
        assert state.depth == depth and "skip" not in option_ids(state, 3)
        if open_water:
            decide(state, "flip")
            state.apply_chance(open_water)


def test_e7_end_triggered_by_a_non_start_player() -> None:
    state = new_game(3, start=0)
    state.round = 7
    set_stack(state, 4, 1, keep=["D4-10"])
    begin_turn(state, 1)
    decide(state, "flip")
    state.apply_chance("D1-25")
    decide(state, "flip")
    state.apply_chance("D2-16")
    decide(state, "flip")
    state.apply_chance("D3-13")
    decide(state, "flip")
    # one face-down tile left, 3 removed: the flip is uniform over the 4 unrevealed tiles
    outcomes = state.chance_outcomes()
    assert state.face_down[3] == 1 and len(outcomes) == 4 and "D4-10" in [o.id for o in outcomes]
    assert all(o.probability == pytest.approx(0.25) for o in outcomes)
    trigger = len(state.events)
    state.apply_chance("D4-10")
    assert state.end_triggered and ("end_triggered", {"depth": 4}) in events_since(state, trigger)
    assert state.depth == 5 and state.active == 1 and option_ids(state, 1) == ["flip"]
    decide(state, "flip")
    state.apply_chance("D5-09")  # P1 finishes the turn normally (captured)
    play_on(state)
    assert turns_after(state, trigger) == [2, 0, 1, 2]
    kinds = events_since(state, trigger)
    p0_turn = kinds.index(("turn_start", {"player": 0, "round": 8}))
    assert kinds[p0_turn + 1] == ("last_dive", {"player": 0})
    assert state.is_terminal() and state.last_dive and state.final_round
    assert kinds[-1][0] == "game_end"


def test_e8_end_triggered_by_the_start_player() -> None:
    state = new_game(2, start=0)
    state.round = 5
    acquire(state, 0, ["D1-22"])
    set_stack(state, 5, 1, keep=["D5-04"])
    begin_turn(state, 0)
    decide(state, "rock:5")
    decide(state, "flip")
    trigger = len(state.events)
    state.apply_chance("D5-04")
    assert state.end_triggered
    assert option_ids(state, 0) == ["keep"]
    decide(state, "keep")
    assert ids(state, state.columns[0][1]) == ["D5-04"]
    assert state.active == 1 and not state.final_round and state.public_view()["token"] == "start_player"
    play_on(state)
    assert turns_after(state, trigger) == [1, 0, 1]
    kinds = events_since(state, trigger)
    assert kinds[kinds.index(("turn_start", {"player": 0, "round": 6})) + 1] == ("last_dive", {"player": 0})
    assert state.is_terminal() and state.public_view()["token"] == "last_dive"


def test_e9_exhausted_depths_after_the_trigger() -> None:
    state = new_game(3, start=0)
    place_available(state, "D2-12")
    exhaust(state, 2, 3, 5)
    set_stack(state, 1, 5, keep=["D1-30"])
    set_stack(state, 4, 3, keep=["D4-09"])
    begin_turn(state, 1)
    assert option_ids(state, 1) == ["flip"]
    decide(state, "flip")
    state.apply_chance("D1-30")
    assert option_ids(state, 1) == ["take:D2-12", "skip"]
    with pytest.raises(IllegalOptionError):
        state.apply_decision(1, "flip")
    alternative = state.clone()
    decide(state, "skip")
    assert state.depth == 3 and option_ids(state, 1) == ["skip"]
    decide(state, "skip")
    assert option_ids(state, 1) == ["flip"]
    decide(state, "flip")
    start = len(state.events)
    state.apply_chance("D4-09")
    assert ("surfaced_empty", {"player": 1}) in events_since(state, start)
    assert state.active == 2
    assert state.seat_score(1) == (0, 0) and state.rocks[1] == []
    # had P1 taken D2-12 instead
    decide(alternative, "take:D2-12")
    assert ids(alternative, alternative.columns[1][2]) == ["D2-12"] and alternative.active == 2


def test_e10_scoring_acquisition_order_matters() -> None:
    state = new_game(2)
    acquire(state, 0, ["D1-04", "D2-06", "D1-15", "D3-01", "D5-05", "D1-16", "D1-22", "D1-23"])
    values = state.food_values(state.columns[0])
    assert values == [[2, 4], [3], [1, 7, 1]]
    assert state.seat_score(0) == (11, 1)
    assert len(state.rocks[0]) == 2
    acquire(state, 1, ["D5-01", "D1-01", "D2-05", "D2-09"])
    assert state.seat_score(1) == (11, 1)
    other = new_game(2)
    acquire(other, 1, ["D1-01", "D5-01", "D2-05", "D2-09"])
    assert other.seat_score(1) == (8, 1)


def test_e11_tie_breaks() -> None:
    state = new_game(3, start=0)
    acquire(state, 0, ["D1-07", "D4-02", "D3-05", "D1-18"])
    acquire(state, 1, ["D5-02", "D3-03", "D3-04", "D4-04"])
    acquire(state, 2, ["D1-04", "D4-01", "D1-14", "D5-03", "D1-15"])
    exhaust(state, 1, 2, 3, 4, 5)
    state.final_round = state.last_dive = True
    begin_turn(state, 2)  # the last seat's final turn: nothing left to flip or take
    for depth in (1, 2, 3, 4):
        assert option_ids(state, 2) == ["skip"]
        decide(state, "skip")
    assert state.is_terminal()
    result = state.result()
    assert result.scores == (12, 12, 12)
    assert result.details["complete_rows"] == [1, 0, 1]
    assert result.ranks == (1, 3, 1)
    assert events_since(state, 0)[-1] == (
        "game_end", {"scores": [12, 12, 12], "complete_rows": [1, 0, 1], "ranks": [1, 3, 1]},
    )


def test_e12_solo_ai_turn_with_a_predator() -> None:
    state = new_game(1)
    state.ai_position = 3
    ai_acquire(state, ["D1-01", "D1-02", "D1-15"])
    place_available(state, "D3-01", "D3-05", "D3-06", "D3-10")
    begin_turn(state, AI)
    assert state.phase == AI_FLIP and state.depth == 3 and state.deciding_seats() == ()
    start = len(state.events)
    state.apply_chance("D3-18")
    assert ids(state, state.ai_columns[1]) == ["D3-06"]
    d18 = state.data.by_id["D3-18"].index
    assert d18 in state.inert[2] and d18 not in state.penguin_on
    assert ids(state, state.available[2]) == ["D3-01", "D3-05", "D3-10"]
    assert state.ai_position == 4
    events = events_since(state, start)
    assert ("took", {"ai": True, "tile": "D3-06", "how": "ai"}) in events
    assert ("ai_moved", {"depth": 4}) in events
    # no human decision: the human's next turn begins
    assert state.active == 0 and state.phase == AT_DEPTH


@pytest.mark.parametrize(
    ("difficulty", "ai_points", "solo_rank", "outcome"),
    [("easy", 13, 1, "win"), ("medium", 17, 1, "shared"), ("hard", 37, 2, "loss")],
)
def test_e13_solo_ai_scoring_and_the_solo_result(difficulty: str, ai_points: int, solo_rank: int, outcome: str) -> None:
    state = new_game(1, difficulty=difficulty)
    ai_acquire(state, ["D1-04", "D3-01", "D2-06", "D1-15", "D5-05", "D1-16", "D1-22", "D1-23"])
    ai_acquire(state, ["D1-25", "D1-26", "D1-27"])
    acquire(state, 0, ["D4-01", "D4-03", "D4-06"])  # 5 + 5 + 7 = 17, one complete row
    assert state.ai_totals() == (ai_points, 1)
    assert state.seat_score(0) == (17, 1)
    exhaust(state, 1, 2, 3, 4, 5)
    state.final_round = state.last_dive = True
    begin_turn(state, AI)  # every depth exhausted: the AI does nothing, then the game ends
    assert state.is_terminal()
    result = state.result()
    assert result.scores == (17,)
    assert result.details["ai_score"] == ai_points and result.details["ai_complete_rows"] == 1
    assert result.details["solo_rank"] == solo_rank and result.details["solo_outcome"] == outcome
    assert result.ranks == (solo_rank,)
    assert events_since(state, 0)[-1] == (
        "game_end",
        {"scores": [17], "complete_rows": [1], "ranks": [solo_rank], "ai_score": ai_points, "ai_complete_rows": 1,
         "solo_rank": solo_rank},
    )
