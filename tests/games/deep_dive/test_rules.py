"""DEEP DIVE rules beyond the worked examples: chance model, turn rules, solo AI, views, config, data."""

from __future__ import annotations

import copy
import json
import random

import pytest

from referee.components import load_component_json
from referee.errors import ComponentDataError, ConfigError, IllegalOptionError
from referee.games.deep_dive import GAME
from referee.games.deep_dive.data import PACKAGE, parse_data
from referee.games.deep_dive.scoring import ai_score, complete_rows, row_score
from referee.games.deep_dive.state import AI, AI_FLIP, AI_PICK, AT_DEPTH, RETREAT, START
from referee.playout import play_out
from referee.wire import get_wire
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

# ----- chance: flips draw from every unrevealed tile of the depth -------------------------------


def test_flip_outcomes_are_the_unrevealed_tiles_of_the_depth_uniformly() -> None:
    state = new_game(3)
    place_available(state, "D1-08")
    place_inert(state, "D1-27")
    begin_turn(state, 0)
    decide(state, "flip")
    outcomes = state.chance_outcomes()
    pool = 36 - 2  # main set at 3 players, minus the two face-up tiles
    assert len(outcomes) == pool == state.face_down[0] + state.removed_per_depth
    assert {o.id for o in outcomes} == set(ids(state, state.unseen[0]))
    assert "D1-08" not in {o.id for o in outcomes} and "D1-27" not in {o.id for o in outcomes}
    assert all(o.probability == pytest.approx(1 / pool) for o in outcomes)
    assert sum(o.probability for o in outcomes) == pytest.approx(1.0)
    assert [o.id for o in outcomes] == sorted(o.id for o in outcomes)


def test_extra_set_tiles_only_at_4_players_and_more() -> None:
    for players, extra in ((1, False), (2, False), (3, False), (4, True), (5, True), (6, True)):
        state = new_game(players)
        sets = {state.data.tiles[t].set for depth in state.unseen for t in depth}
        assert ("extra" in sets) == extra
        assert state.face_down == list(state.data.setups[players].face_down_per_depth)


def test_removed_tiles_are_never_revealed() -> None:
    for seed in range(30):
        state = GAME.new_initial_state(GAME.make_config(2 + seed % 5))
        play_out(state, random.Random(seed))
        removed = state.removed_per_depth
        for depth in range(5):
            revealed = sum(1 for e in state.events if e.kind == "flipped" and e.data["depth"] == depth + 1)
            assert revealed + state.face_down[depth] + removed == len(state.data.tiles_in_play(state.players, depth + 1))
            assert len(state.unseen[depth]) == state.face_down[depth] + removed


def test_exhausted_depth_cannot_be_flipped() -> None:
    state = new_game(2)
    exhaust(state, 1)
    begin_turn(state, 0)
    assert option_ids(state, 0) == ["skip"]
    assert len(state.unseen[0]) == state.removed_per_depth


# ----- start of turn, depths, flips --------------------------------------------------------------


def test_rock_swallow_uses_the_earliest_rock_once_per_turn() -> None:
    state = new_game(2)
    acquire(state, 0, ["D2-13", "D1-22"])
    begin_turn(state, 0)
    assert state.phase == START
    decide(state, "rock:3")
    assert ids(state, state.rocks[0]) == ["D1-22"] and ids(state, state.discarded) == ["D2-13"]
    assert state.depth == 3 and state.phase == AT_DEPTH
    assert "skip" not in option_ids(state, 0)


def test_dive_keeps_the_rocks_and_starts_at_depth_1() -> None:
    state = new_game(2)
    acquire(state, 0, ["D1-22"])
    begin_turn(state, 0)
    decide(state, "dive")
    assert state.depth == 1 and len(state.rocks[0]) == 1


def test_open_water_forces_the_next_depth() -> None:
    state = new_game(2)
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-25")
    assert state.depth == 2 and state.phase == AT_DEPTH


def test_keep_a_flipped_rock() -> None:
    state = new_game(2)
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-22")
    decide(state, "keep")
    assert ids(state, state.rocks[0]) == ["D1-22"] and state.active == 1
    assert state.seat_score(0) == (0, 0)


def test_no_skip_at_depth_5_even_with_a_captured_penguin() -> None:
    state = new_game(2)
    capture(state, 0, "D5-09")
    acquire(state, 0, ["D1-22"])
    begin_turn(state, 0)
    decide(state, "rock:5")
    assert option_ids(state, 0) == ["flip"]


def test_two_penguins_captured_at_the_same_depth() -> None:
    state = new_game(2)
    capture(state, 0, "D1-32")
    begin_turn(state, 0)
    assert option_ids(state, 0) == ["flip", "skip"]
    decide(state, "flip")
    state.apply_chance("D1-33")
    assert ids(state, state.captured[0]) == ["D1-32", "D1-33"] and state.supply(0) == 1


def test_retreat_with_nothing_eligible_frees_the_penguins() -> None:
    state = new_game(2)
    capture(state, 0, "D1-32", "D1-33")
    place_available(state, "D2-05")  # not at a captured depth
    begin_turn(state, 0)
    decide(state, "flip")
    start = len(state.events)
    state.apply_chance("D1-34")
    assert state.phase != RETREAT and state.active == 1
    assert [k for k, _ in events_since(state, start)] == ["flipped", "captured", "retreated", "turn_start"]
    assert state.captured[0] == [] and not state.penguin_on and state.supply(0) == 3


def test_retreat_may_take_a_rock() -> None:
    state = new_game(3)
    capture(state, 1, "D2-22", "D2-23")
    place_available(state, "D2-13")
    begin_turn(state, 1)
    decide(state, "flip")
    state.apply_chance("D1-25")
    decide(state, "flip")
    state.apply_chance("D2-24")
    assert option_ids(state, 1) == ["retreat_take:D2-13"]
    decide(state, "retreat_take:D2-13")
    assert ids(state, state.rocks[1]) == ["D2-13"] and state.available[1] == []


def test_turn_order_is_clockwise_from_the_start_player() -> None:
    state = new_game(4, start=2)
    order = []
    rng = random.Random(1)
    while len(order) < 9:
        if state.is_chance_node():
            state.apply_chance(state.chance_outcomes()[rng.randrange(len(state.chance_outcomes()))].id)
        else:
            decide(state, option_ids(state)[0])
        order = [e.data["player"] for e in state.events if e.kind == "turn_start"]
    assert order[:9] == [2, 3, 0, 1, 2, 3, 0, 1, 2]
    assert [e.data["round"] for e in state.events if e.kind == "turn_start"][:9] == [1, 1, 1, 1, 2, 2, 2, 2, 3]


def test_every_random_game_ends_one_round_after_the_trigger_round() -> None:
    for seed in range(40):
        players = 1 + seed % 6
        state = GAME.new_initial_state(GAME.make_config(players))
        play_out(state, random.Random(seed))
        events = list(state.events)
        trigger = next(i for i, e in enumerate(events) if e.kind == "end_triggered")
        turns = [e for e in events[trigger:] if e.kind == "turn_start"]
        last_dive = [i for i, e in enumerate(events) if e.kind == "last_dive"]
        assert len(last_dive) == 1
        seats = players + 1 if players == 1 else players  # solo: human and AI turns
        assert len(turns) >= seats and len(turns) <= 2 * seats - 1
        final_turns = [e for e in events[last_dive[0]:] if e.kind == "turn_start"]
        assert len(final_turns) == seats - 1  # the start player's own turn_start precedes last_dive
        assert events[-1].kind == "game_end"


# ----- solo AI ------------------------------------------------------------------------------------


def test_solo_turn_order_and_ai_takes_food_rock_and_open_water() -> None:
    state = new_game(1)
    assert state.public_view()["start_player"] == 0 and state.active == 0
    decide(state, "flip")
    state.apply_chance("D1-01")
    decide(state, "keep")
    assert state.active == AI and state.phase == AI_FLIP and state.depth == 1
    state.apply_chance("D1-25")
    assert ids(state, state.ai_open_water) == ["D1-25"] and state.ai_position == 2
    assert state.active == 0 and state.round == 2
    decide(state, "flip")
    state.apply_chance("D1-02")
    decide(state, "keep")
    assert state.depth == 2
    state.apply_chance("D2-13")
    assert ids(state, state.ai_rocks) == ["D2-13"] and state.ai_position == 3
    decide(state, "flip")
    state.apply_chance("D1-03")
    decide(state, "keep")
    state.apply_chance("D3-01")
    assert ids(state, state.ai_columns[0]) == ["D3-01"] and state.ai_position == 4


def test_solo_ai_wraps_from_depth_5_to_1_and_skips_exhausted_depths() -> None:
    state2 = new_game(1)
    state2.ai_position = 5
    exhaust(state2, 5, 1)
    begin_turn(state2, AI)
    assert state2.depth == 2 and state2.phase == AI_FLIP
    state2.apply_chance("D2-01")
    assert state2.ai_position == 3


def test_solo_ai_flips_at_its_position_when_it_has_tiles() -> None:
    state = new_game(1)
    state.ai_position = 5
    exhaust(state, 1)
    begin_turn(state, AI)
    assert state.depth == 5
    state.apply_chance("D5-07")
    assert state.ai_position == 1


def test_solo_ai_does_nothing_when_every_depth_is_exhausted() -> None:
    state = new_game(1)
    state.ai_position = 4
    exhaust(state, 1, 2, 3, 4, 5)
    begin_turn(state, AI)
    assert state.ai_position == 4 and state.active == 0


def test_solo_ai_pick_asks_the_human_between_colours() -> None:
    state = new_game(1)
    state.ai_position = 3
    place_available(state, "D3-01", "D3-02", "D3-04", "D3-10")  # pink 4, pink 4, green 4, rock
    begin_turn(state, AI)
    state.apply_chance("D3-16")
    assert state.phase == AI_PICK and state.deciding_seats() == (0,)
    assert option_ids(state, 0) == ["ai_give:D3-01", "ai_give:D3-04"]
    decide(state, "ai_give:D3-04")
    assert ids(state, state.ai_columns[1]) == ["D3-04"]
    assert ids(state, state.available[2]) == ["D3-01", "D3-02", "D3-10"]
    assert state.ai_position == 4 and state.active == 0


def test_solo_ai_ignores_rocks_after_a_predator() -> None:
    state = new_game(1)
    state.ai_position = 2
    place_available(state, "D2-13")
    begin_turn(state, AI)
    state.apply_chance("D2-22")
    assert state.ai_rocks == [] and ids(state, state.available[1]) == ["D2-13"]
    assert not state.captured[0] and state.ai_position == 3


def test_solo_ai_prefers_its_scarcest_colour_then_highest_value() -> None:
    state = new_game(1)
    state.ai_position = 4
    ai_acquire(state, ["D1-01", "D1-08"])  # pink 1, green 1: yellow is scarcest
    place_available(state, "D4-02", "D4-05")  # pink 7, yellow 5
    begin_turn(state, AI)
    state.apply_chance("D4-12")
    assert ids(state, state.ai_columns[2]) == ["D4-05"]


def test_solo_human_is_the_only_seat() -> None:
    state = new_game(1, difficulty="hard")
    assert state.players == 1 and state.deciding_seats() == (0,)
    view = state.private_view(0)
    assert view["ai"]["position"] == 1 and view["ai_difficulty"] == "hard" and view["solo"]
    play_out(state, random.Random(3))
    result = state.result()
    assert result.details["solo_rank"] in (1, 2)
    assert result.ranks == (result.details["solo_rank"],) and len(result.scores) == 1
    human = (int(result.scores[0]), result.details["complete_rows"][0])
    ai = (result.details["ai_score"], result.details["ai_complete_rows"])
    assert (result.details["solo_rank"] == 1) == (human >= ai)


# ----- scoring --------------------------------------------------------------------------------------


def test_row_scoring_floors_each_incomplete_row() -> None:
    assert row_score([[3], [2], []]) == 2
    assert row_score([[1], [1], []]) == 1
    assert row_score([[1], [], []]) == 0
    assert row_score([[], [], []]) == 0
    assert row_score([[2, 4], [3], [1, 7, 1]]) == 11
    assert complete_rows([[2, 4], [3], [1, 7, 1]]) == 1
    assert ai_score([[2, 4], [3], [1, 7, 1]], 2, 3, "hard") == 37


def test_multiplayer_ties_share_ranks() -> None:
    state = new_game(4)
    acquire(state, 0, ["D1-01", "D1-08", "D1-15"])  # 3, one row
    acquire(state, 1, ["D1-04", "D1-11"])  # 2, no row
    acquire(state, 2, ["D1-02", "D1-09", "D1-16"])  # 3, one row
    exhaust(state, 1, 2, 3, 4, 5)
    state.final_round = state.last_dive = True
    begin_turn(state, 3)  # start 0: seat 3 is the last seat
    while not state.is_terminal():
        decide(state, "skip")
    assert state.result().ranks == (1, 3, 1, 4)


# ----- views, wire, determinize --------------------------------------------------------------------

VIEW_KEYS = {
    "seat", "players", "solo", "round", "start_player", "token", "end_triggered", "final_round", "active",
    "ai_turn", "decision", "current_depth", "just_flipped", "depths", "boards", "discarded_rocks", "game_over",
}


def test_every_seat_sees_the_same_public_view() -> None:
    state = new_game(3)
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-22")
    public = state.public_view()
    assert "seat" not in public
    for seat in range(3):
        view = state.private_view(seat)
        assert view.pop("seat") == seat
        assert view == public
    assert set(public) <= VIEW_KEYS
    assert public["just_flipped"] == {"id": "D1-22", "depth": 1, "type": "rock"}
    assert public["decision"] == "after_flip" and public["current_depth"] == 1


def test_views_do_not_tell_removed_tiles_from_face_down_ones() -> None:
    state = new_game(2)
    for depth in state.public_view()["depths"]:
        assert set(depth) == {"depth", "face_down", "removed", "unseen", "available", "inert"}
        assert len(depth["unseen"]) == depth["face_down"] + depth["removed"]
    # two games whose removals would differ have identical views: the engine never picks removals
    assert new_game(2).public_view() == new_game(2).public_view()


@pytest.mark.parametrize(("players", "seed"), [(1, 5), (3, 6)])
def test_a_lazy_view_reads_as_the_full_view_at_every_step(players: int, seed: int) -> None:
    """`LazyView` (for playout policies) computes each field on first read from the same field functions."""
    from referee.games.deep_dive.views import LazyView
    from referee.playout import step

    state = GAME.new_initial_state(GAME.make_config(players))
    rng = random.Random(seed)
    parts = ("depths", "boards", "ai")
    steps = 0
    while not state.is_terminal():
        for seat in (None, *range(players)):
            full = state.public_view() if seat is None else state.private_view(seat)
            lazy = LazyView(state, seat)
            table = [name for name in full if name not in parts]
            assert {name: lazy[name] for name in table} == {name: full[name] for name in table}
            assert [{name: depth[name] for name in full["depths"][0]} for depth in lazy["depths"]] == full["depths"]
            assert [{name: board[name] for name in full["boards"][0]} for board in lazy["boards"]] == full["boards"]
            if "ai" in full:
                assert {name: lazy["ai"][name] for name in full["ai"]} == full["ai"]
            optional = ("seat", "ai_difficulty", "start_player", "active", "current_depth", "just_flipped", "ai", "no_such_field")
            for name in optional:
                assert (name in lazy) == (name in full) and lazy.get(name, "left out") == full.get(name, "left out")
                if name not in full:
                    with pytest.raises(KeyError):
                        lazy[name]
            for part in (lazy["depths"][0], lazy["boards"][0], *([lazy["ai"]] if "ai" in full else [])):
                assert "no_such_field" not in part
                with pytest.raises(KeyError):
                    part["no_such_field"]
        step(state, rng)
        steps += 1
    assert steps > 50


def test_events_are_public_and_encode_as_typed_messages() -> None:
    state = GAME.new_initial_state(GAME.make_config(1, {"ai_difficulty": "easy"}))
    play_out(state, random.Random(11))
    wire = get_wire("deep_dive")
    kinds = set()
    for event in state.events:
        assert event.audience is None
        wire.event_message(event)
        kinds.add(event.kind)
    assert {"setup", "turn_start", "flipped", "took", "ai_moved", "end_triggered", "last_dive", "game_end"} <= kinds
    message = wire.view_message(state.public_view())
    assert message.ai.score == state.result().details["ai_score"]


def test_determinize_is_an_independent_copy() -> None:
    state = new_game(3)
    begin_turn(state, 0)
    world = state.determinize(1, random.Random(0))
    assert json.dumps(world.public_view()) == json.dumps(state.public_view())
    decide(world, "flip")
    world.apply_chance("D1-25")
    assert state.phase == AT_DEPTH and state.inert[0] == [] and len(state.events) < len(world.events)
    assert GAME.hidden_information is False


# ----- config and data ----------------------------------------------------------------------------


def test_configs() -> None:
    for bad in (0, 7):
        with pytest.raises(ConfigError):
            GAME.make_config(bad)
    with pytest.raises(ConfigError):
        GAME.make_config(1, {"ai_difficulty": "impossible"})
    with pytest.raises(ConfigError):
        GAME.make_config(2, {"variant": True})
    assert GAME.make_config(1).variants["ai_difficulty"] == "medium"
    assert GAME.make_config(3, {"ai_difficulty": "hard"}).players == 3  # ignored unless solo


def _raw() -> dict:
    return copy.deepcopy(load_component_json(PACKAGE, "deep_dive.json"))


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda raw: raw["tiles"].pop(), "160 tiles"),
        (lambda raw: raw["tiles"][0].update(type="shell"), "unknown"),
        (lambda raw: raw["tiles"][0].update(colour="blue"), "colour"),
        (lambda raw: raw["tiles"][0].update(value=0), "value"),
        (lambda raw: raw["tiles"][21].update(value=2), "no colour or value"),
        (lambda raw: raw["tiles"][1].update(id="D1-99"), "ids"),
        (lambda raw: raw["tiles"][0].update(depth=6), "depth"),
        (lambda raw: raw["depth_summary"][0].update(predator=6), "predator"),
        (lambda raw: raw["setup_by_player_count"][0].update(remove_per_depth=6), "setup 1p"),
        (lambda raw: raw["setup_by_player_count"].pop(), "1 to 6"),
        (lambda raw: raw.pop("tiles"), "160 tiles"),
    ],
)
def test_bad_component_data_is_rejected(corrupt, message: str) -> None:
    raw = _raw()
    corrupt(raw)
    with pytest.raises(ComponentDataError, match=message):
        parse_data(raw)


def test_component_data_matches_the_spec() -> None:
    data = parse_data(_raw())
    assert len(data.tiles) == 160
    assert data.by_id["D2-10"].describe() == "D2-10 (yellow 3)"
    assert sum(1 for t in data.tiles if t.depth == 1 and t.type == "predator") == 6
    assert sum(1 for t in data.tiles if t.depth == 5 and t.type == "open_water") == 0
    with pytest.raises(ComponentDataError):
        load_component_json(PACKAGE, "missing.json")


def test_illegal_option_raises_with_context() -> None:
    state = new_game(2)
    with pytest.raises(IllegalOptionError, match="at_depth"):
        state.apply_decision(0, "skip")


# ----- further rules: skips, exhausted depth 5, retreat reach, the last seat, the AI's trigger -------


def test_skip_at_the_rock_start_depth_and_several_depths_in_a_row() -> None:
    # Spec 8.6: skipping is allowed "also at the depth where a rock dive starts, several depths in a row".
    state = new_game(2)
    capture(state, 0, "D2-22", "D3-16")
    acquire(state, 0, ["D1-22"])
    begin_turn(state, 0)
    decide(state, "rock:2")
    assert state.depth == 2 and option_ids(state, 0) == ["flip", "skip"]
    decide(state, "skip")
    assert state.depth == 3 and option_ids(state, 0) == ["flip", "skip"]
    start = len(state.events)
    decide(state, "skip")
    assert state.depth == 4 and option_ids(state, 0) == ["flip"]
    assert events_since(state, start) == [("skipped", {"player": 0, "depth": 3})]


def test_exhausted_depth_5_with_an_available_tile_offers_only_that_take() -> None:
    # Spec 4.4: "a player who does not skip it must take an available tile there"; no skip at depth 5.
    state = new_game(3)
    place_available(state, "D5-01")
    exhaust(state, 5)
    acquire(state, 1, ["D1-22"])
    begin_turn(state, 1)
    decide(state, "rock:5")
    assert option_ids(state, 1) == ["take:D5-01"]
    decide(state, "take:D5-01")
    assert ids(state, state.columns[1][0]) == ["D5-01"] and state.active == 2


def test_retreat_reaches_a_tile_left_by_dive_on_in_the_same_dive() -> None:
    # Spec T4: every available tile in any depth holding the player's 3 captured penguins.
    state = new_game(2)
    capture(state, 0, "D1-32", "D2-22")
    place_available(state, "D3-01")  # depth 3 holds no penguin of P0
    begin_turn(state, 0)
    assert option_ids(state, 0) == ["flip", "skip"]
    decide(state, "flip")
    state.apply_chance("D1-22")
    decide(state, "dive_on")
    assert option_ids(state, 0) == ["flip", "skip"]
    decide(state, "flip")
    state.apply_chance("D2-23")
    assert state.phase == RETREAT and option_ids(state, 0) == ["retreat_take:D1-22"]


def test_game_ends_after_the_seat_before_the_start_player() -> None:
    # Spec 4.1/T5: the last seat is the seat immediately before the start player in turn order.
    state = new_game(4, start=2)
    exhaust(state, 1, 2, 3, 4, 5)
    start = len(state.events)
    begin_turn(state, 2)  # T0: the start player's turn after the trigger begins the final round
    assert state.final_round and events_since(state, start)[1] == ("last_dive", {"player": 2})
    while not state.is_terminal():
        decide(state, "skip")
    turns = [data["player"] for kind, data in events_since(state, start) if kind == "turn_start"]
    assert turns == [2, 3, 0, 1]


def test_solo_ai_flipping_the_last_tile_triggers_the_end() -> None:
    # Spec 4.5 A2: "same trigger check as T3"; the final round is the human's next turn and the AI's.
    state = new_game(1)
    state.ai_position = 4
    set_stack(state, 4, 1, keep=["D4-09"])
    begin_turn(state, AI)
    start = len(state.events)
    state.apply_chance("D4-09")
    assert state.end_triggered and ("end_triggered", {"depth": 4}) in events_since(state, start)
    assert ids(state, state.ai_open_water) == ["D4-09"] and state.ai_position == 5
    assert state.active == 0 and state.final_round and state.public_view()["token"] == "last_dive"
    decide(state, "flip")
    state.apply_chance("D1-32")  # the human is captured: the AI's turn follows, then the end
    assert state.active == AI and not state.is_terminal()
    state.apply_chance("D5-07")
    assert state.is_terminal() and ids(state, state.ai_rocks) == ["D5-07"]
