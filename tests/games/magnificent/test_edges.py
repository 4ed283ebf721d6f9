"""Edge cases of The Magnificent's rules not covered by a worked example (travel, perform, markers, ranking)."""

from __future__ import annotations

from referee.games.magnificent import scoring
from referee.games.magnificent.model import IN_HAND, Player, show_position
from referee.games.magnificent.state import MagnificentState
from tests.games.magnificent.helpers import A, B, begin_turn, decide, ids, run_step, setup_game


def _turn(state: MagnificentState, seat: int, die: str, card: str = "M01") -> Player:
    """`seat` takes `die` and puts it on `card` (M01: POWER:2), with no other dice, tiles or trainers."""
    player = state.players_state[seat]
    player.board = "I"
    player.masters = [card] + [m for m in ("M01", "M02", "M03", "M04") if m != card][:3]
    player.dice = {}
    player.trainers = []
    state.main_tent = {die: 1}
    state.display = [[None, None]] * len(state.display)
    begin_turn(state, seat)
    decide(state, f"die:{die}", f"card:{card}")
    return player


def test_twelve_steps_pass_every_other_space_and_land_on_the_start_space() -> None:
    # §4.5: "k = 12 passes the other 11 spaces and lands on its starting space"; a passed tent gives nothing,
    # a passed poster space gives a poster, a landed-on tent asks VD2.
    state = setup_game(2, start=0)
    track = state.track_tents["O"]
    for index in (2, 7, 9, 11):
        track[index] = None  # poster spaces
    track[4] = "T05"
    state.wagons["O"] = 4
    player = _turn(state, A, "O:6")
    player.gems = [3, 0, 0, 0]
    player.posters = ["SP1", None, None, None, None]
    decide(state, "action:TRAVEL", "master", "gem_power:O", "gem_power:O", "resolve")  # 6 + 2 + 2 x 2
    assert ids(state)[-1] == "steps:12"
    decide(state, "steps:12")
    gp1 = 0
    while state.decision_code() != "VD2":
        if state.is_chance_node():
            state.apply_chance(state.chance_outcomes()[0].id)
            continue
        if state.decision_code() == "GP1":
            gp1 += 1
        decide(state, ids(state)[0])
    assert gp1 == 4  # poster spaces 7, 9, 11, 2 (passed)
    assert state.wagons["O"] == 4
    # gems: 5 O, 6 C, 8 O, 10 P, 0 O, 1 O, 3 G, from O1 after spending two
    assert player.gems == [3, 1, 1, 1]
    assert ids(state) == ["tent_slot:2", "tent_slot:3", "tent_slot:4", "tent_slot:5", "decline"]


def test_a_perform_with_no_reachable_space_does_nothing() -> None:
    # §4.6 PD1: "If there is none, the perform does nothing (no decision, no hat moves)."
    state = setup_game(2, start=0)
    state.players_state[B].hats = [show_position(1), IN_HAND]
    player = _turn(state, A, "P:2", "M02")  # M02 is POWER:2 but stays unused
    hats = list(player.hats)
    decide(state, "action:PERFORM", "resolve")
    assert state.decision_code() == "TD6"
    assert player.hats == hats


def test_second_performance_places_the_hat_in_hand() -> None:
    # §4.6: with no hat on a start space, the hat in hand is placed; the first one stays.
    state = setup_game(2, start=0)
    player = _turn(state, A, "P:5")
    player.hats = [show_position(2), IN_HAND]
    decide(state, "action:PERFORM", "resolve")
    assert ids(state) == ["space:1", "space:3", "space:4"]
    decide(state, "space:4")
    assert player.hats == [show_position(2), show_position(4)]


def test_display_trainer_markers_are_spent_until_the_next_round() -> None:
    # §4.9 display tiles usable by everyone; §4.10 4a spent markers return at the next round's preparation.
    state = setup_game(2, start=0)
    player = _turn(state, A, "O:1")
    state.display = [[None, "TR03a"], [None, None], [None, None]]
    player.markers, player.spent = 1, 0
    decide(state, "action:TRAVEL", "resolve", "steps:1")
    coins = player.coins
    assert ids(state) == ["trainer:TR03a", "end"]
    decide(state, "trainer:TR03a")
    assert player.coins == coins + 2 and (player.markers, player.spent) == (0, 1)
    assert ids(state) == ["end"]
    assert scoring.master_value(state.c, state.c.masters["M03"], player) == 2  # PER_MARKER counts spent ones
    run_step(state, ("round_prep",))
    assert (player.markers, player.spent) == (1, 0)


def test_full_gem_row_turns_a_clear_gem_into_a_coin() -> None:
    # §4.2: with 3 gems of a colour (clear has its own row) the gain is 1 coin instead.
    state = setup_game(2, start=0)
    player = state.players_state[A]
    player.gems = [0, 0, 0, 3]
    coins, points = player.coins, player.points
    state._gain_bonus(A, state.c.tent_slot_bonus[5], "tent_slot:5")
    assert player.gems == [0, 0, 0, 3] and player.coins == coins + 1 and player.points == points + 3


def test_ties_on_score_and_coins_are_broken_by_completed_posters() -> None:
    # §6: "Ties: more coins at game end, then more completed posters; players still tied share the rank."
    players = [Player(coins=3), Player(coins=3), Player(coins=3)]
    players[0].completed = ["P01"]
    players[1].completed = ["P01", "P02"]
    players[2].completed = ["P03", "P04"]
    assert scoring.final_ranks([50, 50, 50], players) == (3, 1, 1)
