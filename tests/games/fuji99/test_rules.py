"""Fuji 99: each rule of §3-§7 that the worked examples do not already pin down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.errors import ConfigError, GameOverError, IllegalOptionError, NotChanceNodeError, NotDecidingError
from referee.games.fuji99 import GAME
from referee.games.fuji99.phases import CARDS, CONTINUE_OR_STOP, PLACE_CUBE
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


def kinds(state: object) -> list[str]:
    return [event.kind for event in state.events]  # type: ignore[attr-defined]


# ----- S1 cube draws ---------------------------------------------------------------------


def test_each_cube_is_a_chance_node_over_the_bag() -> None:
    state = new_state()
    state.apply_decision(0, "draw:5")
    outcomes = {o.id: o.probability for o in state.chance_outcomes()}
    assert outcomes == pytest.approx({"clear": 6 / 13, "yellow": 4 / 13, "red": 3 / 13})
    state.apply_chance("red")
    outcomes = {o.id: o.probability for o in state.chance_outcomes()}
    assert outcomes == pytest.approx({"clear": 6 / 12, "yellow": 4 / 12, "red": 2 / 12})
    assert state.to_draw == 4 and state.private_view(0)["cubes_to_draw"] == 4


def test_small_bag_draws_everything() -> None:
    state = new_state()
    state.bags[0] = [2, 1, 1]
    begin_turn(state, 0)
    assert option_ids(state) == ["draw:4"]


def test_draw_below_five_is_illegal_with_a_full_bag() -> None:
    state = new_state()
    with pytest.raises(IllegalOptionError):
        state.apply_decision(0, "draw:4")
    with pytest.raises(IllegalOptionError):
        state.apply_decision(0, "draw:14")


def test_movement_counts_every_cube_including_reds() -> None:
    state = new_state()
    draw(state, 7, 2, 3, 2)
    assert state.m == 7 and state.red_area == 2


def test_three_active_omens_bust_any_draw() -> None:
    state = new_state()
    for card in ("ill_omen-1", "ill_omen-2", "ill_omen-3"):
        state.deck.remove(card)
        state.omens[0].append((card, False))
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    assert "red_bust" in kinds(state)
    assert state.discard == ["ill_omen-1", "ill_omen-2", "ill_omen-3"]
    assert state.active == 1


def test_red_bust_keeps_what_was_done() -> None:
    state = new_state()
    state.pagoda = 10
    give(state, 0, "spring_water-1", 2)
    give(state, 0, "lantern-1", 0)
    begin_turn(state, 0)
    draw(state, 6, 2, 3, 1)
    state.apply_decision(0, "use:spring_water-1")
    assert state.bags[0][0] == 4 + 2 + 3
    state.apply_decision(0, "end_use")
    draw_cards(state, ["amulet-1"])
    state.apply_decision(0, "continue")
    draw(state, 5, 3, 0, 2)  # R 1 + 2 = 3
    assert "red_bust" in kinds(state)
    assert state.pos[0] == 0
    assert hand(state, 0) == [("lantern-1", 0), ("amulet-1", 0)]  # kept, no cubes added
    assert state.discard == ["spring_water-1"]
    assert state.bags[0] == [6 + 2 + 3, 4, 3]
    assert state.pagoda == 7


# ----- S3 movement -------------------------------------------------------------------------


def test_lucky_charm_bonus_applies_to_every_s3_move_of_the_turn() -> None:
    state = new_state()
    give(state, 0, "lucky_charm-1")
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    assert state.m == 8
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "continue")
    draw(state, 5, 5, 0, 0)
    assert state.m == 16


def test_passing_both_yellow_spaces_in_one_move_takes_both() -> None:
    state = new_state()
    state.m = 15
    state.advance(40, "test")
    assert state.m == 55 and state.got[0] == [True, True]
    assert state.yellow_left == [2, 2] and state.bags[0][1] == 6


def test_landing_on_20_takes_the_yellow_but_starting_on_it_does_not() -> None:
    state = new_state()
    state.pos[0] = 15
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    assert state.m == 20 and state.got[0][0]
    other = new_state()
    other.pos[0] = 20
    begin_turn(other, 0)
    draw(other, 5, 5, 0, 0)
    assert not other.got[0][0]


def test_win_in_s3_ends_at_once_with_cap() -> None:
    state = new_state()
    state.pos[0] = 90
    state.got[0] = [True, True]
    give(state, 0, "lucky_charm-1")
    begin_turn(state, 0)
    deck = len(state.deck)
    draw(state, 7, 3, 2, 2)
    assert state.is_terminal() and state.m == 99 and state.winner == 0
    assert state.red_area == 0 and len(state.deck) == deck
    assert kinds(state)[-2:] == ["win", "game_end"]
    assert state.deciding_seats() == () and not state.is_chance_node()


# ----- S4 card effects ------------------------------------------------------------------------


def test_crystal_vein_moves_by_clear_cubes_of_the_current_draw() -> None:
    state = new_state()
    give(state, 0, "crystal_vein-1", 2)
    begin_turn(state, 0)
    draw(state, 6, 4, 1, 1)
    state.apply_decision(0, "use:crystal_vein-1")
    assert state.m == 10
    assert state.bags[0][0] == 2 + 2


def test_spring_water_takes_what_the_pagoda_has() -> None:
    state = new_state()
    state.pagoda = 2
    give(state, 0, "spring_water-1")
    begin_turn(state, 0)
    draw(state, 5, 3, 2, 0)
    state.apply_decision(0, "use:spring_water-1")
    assert state.pagoda == 0 and state.bags[0][0] == 3 + 2


def test_hot_spring_stops_when_the_pagoda_is_empty() -> None:
    state = new_state()
    state.pagoda = 2
    give(state, 1, "hot_spring-1")
    begin_turn(state, 1)
    draw(state, 5, 5, 0, 0)
    state.apply_decision(1, "use:hot_spring-1")  # cost 0: usable with no yellow
    assert [state.bags[seat][0] for seat in range(3)] == [6, 1 + 1, 7]
    assert state.pagoda == 0


def test_amulet_returns_one_red_or_nothing() -> None:
    state = new_state()
    give(state, 0, "amulet-1")
    give(state, 0, "amulet-2")
    begin_turn(state, 0)
    draw(state, 6, 3, 2, 1)
    state.apply_decision(0, "use:amulet-1")
    assert state.red_area == 0 and state.bags[0][2] == 3
    state.apply_decision(0, "use:amulet-2")
    assert state.red_area == 0 and state.bags[0][2] == 3
    returned = [e.data["count"] for e in state.events if e.kind == "red_returned"]
    assert returned == [1, 0]


def test_using_a_lucky_charm_does_nothing_but_discard_it() -> None:
    state = new_state()
    give(state, 0, "lucky_charm-1", 1)
    begin_turn(state, 0)
    draw(state, 5, 4, 1, 0)
    state.apply_decision(0, "use:lucky_charm-1")
    assert state.m == 8  # the S3 move had the bonus; the use moves nothing
    assert state.discard == ["lucky_charm-1"] and state.bags[0][0] == 2 + 1
    assert "no_effect" in kinds(state)


def test_buried_treasure_danger_is_its_cubes() -> None:
    state = new_state()
    give(state, 1, "buried_treasure-2", 5)
    assert state.card_danger("buried_treasure-2") == 5
    assert state.hand_danger(1) == 5


def test_rope_ladder_takes_the_nearest_player_above() -> None:
    state = new_state(4)
    state.pos[:] = [0, 9, 30, 12]
    give(state, 0, "rope_ladder-1")
    begin_turn(state, 0)
    draw(state, 6, 4, 2, 0)
    state.apply_decision(0, "use:rope_ladder-1")
    assert state.m == 9


def test_ill_omen_given_during_own_turn_waits_a_turn_then_counts_once() -> None:
    state = new_state(2)
    state.pos[:] = [20, 10]
    state.got[0] = [True, False]
    give(state, 0, "ill_omen-1")
    begin_turn(state, 0)
    draw(state, 5, 4, 1, 0)
    state.apply_decision(0, "use:ill_omen-1")
    assert state.omens[0] == [("ill_omen-1", False)]
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "stop")
    assert state.omens[0] == [("ill_omen-1", False)]  # still pending after the turn that received it
    red_bust_turn(state)
    assert state.active == 0 and state.omens[0] == [("ill_omen-1", True)]
    draw(state, 5, 3, 0, 2)  # threat 0 + 2 + 1 = 3
    assert state.omens[0] == [] and state.discard[-1] == "ill_omen-1"


def test_spent_yellow_stays_out_on_continue() -> None:
    state = new_state()
    give(state, 0, "lantern-1")
    begin_turn(state, 0)
    draw(state, 6, 3, 3, 0)
    state.apply_decision(0, "use:lantern-1")
    assert state.phase == CARDS
    draw_cards(state, ["tunnel-1"])
    state.apply_decision(0, "continue")
    assert state.bags[0] == [6, 3, 3] and state.spent == 1
    draw(state, 5, 5, 0, 0)
    assert state.phase == CARDS  # the Tunnel costs 2 and no yellow was drawn
    draw_cards(state, ["amulet-1"])
    state.apply_decision(0, "stop")
    assert state.bags[0] == [6, 4, 3]


def test_end_use_skips_the_rest_of_s4() -> None:
    state = new_state()
    give(state, 0, "lantern-1")
    give(state, 0, "tunnel-1")
    begin_turn(state, 0)
    draw(state, 6, 3, 3, 0)
    state.apply_decision(0, "end_use")
    assert state.phase == CARDS and state.available == 3


# ----- S5 card draws and echoes ---------------------------------------------------------------


def test_card_draw_is_a_chance_node_over_the_remaining_deck() -> None:
    state = new_state()
    give(state, 1, "tunnel-1")
    draw(state, 5, 5, 0, 0)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and "tunnel-1" not in {o.id for o in outcomes}
    assert all(o.probability == pytest.approx(1 / 21) for o in outcomes)


def test_only_an_outcome_of_the_pending_draw_is_accepted() -> None:
    """A colour the bag lacks, a card out of the deck, a cube at a card draw: refused, nothing changes."""
    state = new_state()
    with pytest.raises(NotChanceNodeError, match="no chance node is pending"):
        state.apply_chance("clear")
    state.bags[0] = [5, 0, 3]
    begin_turn(state, 0)
    state.apply_decision(0, "draw:5")
    for refused in ("yellow", "blue", "lantern-1"):
        with pytest.raises(NotChanceNodeError, match=f"{refused!r} is not an outcome"):
            state.apply_chance(refused)
    assert state.bags[0] == [5, 0, 3] and state.draw == [0, 0, 0]
    give(state, 1, "tunnel-1")
    draw_cards(state, ["clear"] * 5)
    deck = list(state.deck)
    for refused in ("tunnel-1", "clear", "nothing"):
        with pytest.raises(NotChanceNodeError, match=f"{refused!r} is not an outcome"):
            state.apply_chance(refused)
    assert state.deck == deck and state.drawing == 0


def test_only_the_active_seat_decides_and_only_once() -> None:
    state = new_state()
    with pytest.raises(NotDecidingError):
        state.apply_decisions({1: "draw:5"})
    with pytest.raises(NotDecidingError):
        state.apply_decisions({0: "draw:5", 1: "draw:5"})
    with pytest.raises(NotDecidingError):
        state.apply_decisions({})
    state.apply_decision(0, "draw:5")
    with pytest.raises(NotDecidingError):
        state.apply_decisions({0: "draw:5"})
    assert state.to_draw == 5


def test_no_outcome_or_decision_after_the_end() -> None:
    state = new_state(2, max_rounds=1)
    red_bust_turn(state)
    red_bust_turn(state)
    with pytest.raises(GameOverError):
        state.apply_chance("clear")
    with pytest.raises(GameOverError):
        state.apply_decision(0, "draw:5")


def test_reshuffle_only_when_the_deck_is_empty() -> None:
    state = new_state()
    state.deck[:] = []
    state.discard[:] = ["lantern-1", "tunnel-1"]
    draw(state, 5, 5, 0, 0)
    assert "reshuffle" in kinds(state)
    assert sorted(o.id for o in state.chance_outcomes()) == ["lantern-1", "tunnel-1"]
    assert state.discard == []
    draw_cards(state, ["tunnel-1"])
    assert state.deck == ["lantern-1"] and state.hands[0] == ["tunnel-1"]


def test_echo_reshuffle_leaves_the_resolving_echo_out() -> None:
    state = new_state()
    state.deck[:] = ["echo-1", "lantern-1"]
    state.discard[:] = ["tunnel-1"]
    draw(state, 5, 5, 0, 0)
    draw_cards(state, ["echo-1", "lantern-1"])  # A draws echo-1; B draws lantern-1
    assert state.drawing == 2 and state.deck == ["tunnel-1"] and state.resolving == ["echo-1"]
    draw_cards(state, ["tunnel-1"])  # C
    # A's draw: deck and discard empty, nothing drawn; then echo-1 is discarded
    assert "nothing_drawn" in kinds(state)
    assert state.discard == ["echo-1"] and state.resolving == []
    assert state.hands == [[], ["lantern-1"], ["tunnel-1"]]
    assert state.phase == CONTINUE_OR_STOP


def test_echo_with_two_players() -> None:
    state = new_state(2)
    draw(state, 5, 5, 0, 0)
    assert state.drawing == 0
    draw_cards(state, ["echo-2"])
    assert state.drawing == 1
    draw_cards(state, ["lantern-2"])
    assert state.drawing == 0
    draw_cards(state, ["tunnel-2"])
    assert state.hands == [["tunnel-2"], ["lantern-2"]] and state.discard == ["echo-2"]


def test_off_turn_draws_are_never_checked_until_the_holders_s6() -> None:
    state = new_state()
    give(state, 1, "great_pit-1")
    give(state, 1, "ill_omen-1")
    draw(state, 5, 5, 0, 0)
    draw_cards(state, ["echo-1", "tunnel-1", "lantern-1", "amulet-1"])
    assert state.hand_danger(1) == 9 and state.hands[1][-1] == "tunnel-1"
    assert state.phase == CONTINUE_OR_STOP and "card_bust" not in kinds(state)
    state.apply_decision(0, "stop")
    # B may use cards first: 2 yellow pay for the Tunnel, danger 9 - 3 = 6, then draws a danger-1 card
    draw(state, 5, 3, 2, 0)
    state.apply_decision(1, "use:tunnel-1")
    draw_cards(state, ["lantern-2"])
    bust = next(event for event in state.events if event.kind == "card_bust")
    assert bust.data["seat"] == 1 and bust.data["danger"] == 7 and state.hands[1] == []


# ----- stopping and placing cubes ---------------------------------------------------------------


def test_single_eligible_card_is_still_a_forced_decision() -> None:
    state = new_state()
    state.pagoda = 1
    give(state, 0, "tunnel-1")
    state.deck.clear()
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    state.apply_decision(0, "stop")
    assert state.phase == PLACE_CUBE and option_ids(state) == ["place:tunnel-1"]
    state.apply_decision(0, "place:tunnel-1")
    assert hand(state, 0) == [("tunnel-1", 1)] and state.pagoda == 0 and state.active == 1


def test_empty_pagoda_places_nothing() -> None:
    state = new_state()
    state.pagoda = 0
    give(state, 0, "tunnel-1")
    state.deck.clear()
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    state.apply_decision(0, "stop")
    assert hand(state, 0) == [("tunnel-1", 0)] and state.active == 1 and state.pos[0] == 5


def test_full_pagoda_places_cap_on_each_card() -> None:
    state = new_state()
    give(state, 0, "great_pit-1", 1)
    state.deck.clear()
    begin_turn(state, 0)
    draw(state, 5, 5, 0, 0)
    state.apply_decision(0, "stop")
    assert hand(state, 0) == [("great_pit-1", 4)] and state.pagoda == 43


# ----- end of game --------------------------------------------------------------------------


def test_round_limit_ends_without_a_winner() -> None:
    state = new_state(2, max_rounds=1)
    draw(state, 5, 5, 0, 0)
    draw_cards(state, ["lantern-1"])
    state.apply_decision(0, "stop")
    red_bust_turn(state)
    assert state.is_terminal() and state.winner is None
    assert state.round == 1 and state.turns_taken == [1, 1]
    result = state.result()
    assert result.ranks == (1, 2) and result.scores == (5.0, 0.0)
    assert state.events[-1].kind == "game_end" and state.events[-1].data["reason"] == "round_limit"
    assert "winner" not in state.events[-1].data


@pytest.mark.parametrize("bust", ["red", "card"])
def test_a_bust_takes_the_movement_piece_back_even_when_the_round_limit_ends_the_game(bust: str) -> None:
    """§4.4: on either bust the movement piece is "taken back; pos[A] unchanged"."""
    state = new_state(2, max_rounds=1)
    red_bust_turn(state)
    state.pos[1] = 10
    if bust == "card":
        give(state, 1, "great_pit-1")
        give(state, 1, "tunnel-1")
    begin_turn(state, 1)
    draw(state, 6, 3, 1, 2)
    assert state.m == 16
    if bust == "red":
        draw_cards(state, ["lantern-1"])
        state.apply_decision(1, "continue")
        draw(state, 5, 4, 0, 1)  # R 2 + 1 = 3
    else:
        draw_cards(state, ["lantern-1"])  # nothing affordable with Y = 1; danger 4 + 3 + 1 = 8
    assert f"{bust}_bust" in kinds(state)
    assert state.is_terminal() and state.pos[1] == 10
    assert state.m == 10 and state.public_view()["movement"] == 10


def test_equal_positions_and_turns_share_a_rank() -> None:
    state = new_state(2, max_rounds=1)
    red_bust_turn(state)
    red_bust_turn(state)
    assert state.result().ranks == (1, 1)


def test_rounds_count_when_play_returns_to_seat_0() -> None:
    state = new_state(3)
    for _ in range(3):
        red_bust_turn(state)
    assert state.round == 2 and state.active == 0 and state.turns_taken == [1, 1, 1]


@pytest.mark.parametrize("players", [1, 5])
def test_bad_player_counts(players: int) -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(players)


@pytest.mark.parametrize("value", [0, -3, "many", True])
def test_bad_max_rounds(value: object) -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(3, {"max_rounds": value})


def test_unknown_flag() -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(3, {"solo": True})


@pytest.mark.parametrize("bots", [2, 3, 4])
def test_b99_match_plays_fuji99(bots: int, tmp_path: Path) -> None:
    args = ["match", "fuji99", "--in-process", "--seed", "11", "--json", "--replay", str(tmp_path / "replay.jsonl")]
    for seat in range(bots):
        args += ["--bot", "heuristic" if seat == 0 else "random"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["game"] == "fuji99" and len(report["ranks"]) == bots
    assert CliRunner().invoke(main, ["replay", "verify", str(tmp_path / "replay.jsonl")]).exit_code == 0
