"""Rules of The Magnificent beyond the worked examples: setup per player count, flags, effects, timing, data."""

from __future__ import annotations

import copy
import json
import random

import pytest

from referee.components import load_component_json
from referee.errors import ComponentDataError, ConfigError, GameOverError, IllegalOptionError, NotDecidingError
from referee.games.magnificent import GAME
from referee.games.magnificent.data import DATA_FILE, PACKAGE, parse_components
from referee.games.magnificent.model import IN_HAND, show_position
from referee.playout import play_out
from referee.wire import get_wire
from tests.games.magnificent.helpers import A, B, begin_turn, decide, finish_turn, ids, run_step, setup_game

RAW = load_component_json(PACKAGE, DATA_FILE)


# ----- data and config ---------------------------------------------------------------------
def _broken(edit) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(RAW)
    edit(raw)
    with pytest.raises(ComponentDataError):
        parse_components(raw)


def test_component_data_loads() -> None:
    data = parse_components(RAW)
    assert sum(t.copies for t in data.tile_types.values()) == 72
    assert len(data.masters) == 56 and len(data.trainers) == 24 and len(data.track_tents) == 16
    assert len(data.posters) == 54 and data.tent_spaces == (2, 4, 7, 9, 11)


@pytest.mark.parametrize(
    "edit",
    [
        lambda raw: raw.pop("tents"),
        lambda raw: raw["camp_tile_types"][0]["orientations"].pop("3"),
        lambda raw: raw["camp_tile_types"][1].update(cells=[[0, 0], [0, 1], [0, 2]]),
        lambda raw: raw["player_boards"][0]["bonus_squares"].append(dict(raw["player_boards"][0]["bonus_squares"][0])),
        lambda raw: raw["player_boards"][0]["bonus_squares"][0].update(area="A9"),
        lambda raw: raw["camp_grid"]["areas"].pop(),
        lambda raw: raw["master_cards"]["regular"][0].update(bonus="FLY:2"),
        lambda raw: raw["trainer_tiles"][0].update(timing="LATER"),
        lambda raw: raw["posters"]["regular"][0].update(tiles=["Xx"]),
        lambda raw: raw["travel_tracks"][0]["spaces"][0].update(gem="X"),
        lambda raw: raw["dice"].pop("3"),
        lambda raw: raw["build_levels"].reverse(),
        lambda raw: raw["tent_slots"][0].pop("printed_tent"),
    ],
)
def test_bad_component_data_is_rejected(edit) -> None:  # type: ignore[no-untyped-def]
    _broken(edit)


def test_bad_configs() -> None:
    for players in (0, 5):
        with pytest.raises(ConfigError):
            GAME.make_config(players)
    with pytest.raises(ConfigError):
        GAME.make_config(2, {"side_b": "maybe"})
    with pytest.raises(ConfigError):
        GAME.make_config(2, {"draft_master_cards": 3})
    assert GAME.make_config(2, {"side_b": "true"}).variants == {"side_b": True, "draft_master_cards": False}


# ----- setup per player count and flags ----------------------------------------------------------
def _dice(state) -> dict[str, int]:  # type: ignore[no-untyped-def]
    counts = {colour: 0 for colour in "OGPC"}
    for key, count in state.main_tent.items():
        counts[key[0]] += count
    return counts


def test_solo_setup_and_rounds() -> None:
    state = setup_game(1, start=0, draft=False)
    player = state.players_state[0]
    assert player.coins == 6  # no coin to hand on
    assert player.hats == [0, IN_HAND]
    assert _dice(state) == {"O": 1, "G": 1, "P": 1, "C": 2}
    assert len(state.display) == 3
    assert len(ids(state)) == 4  # the draft pool of 4
    decide(state, ids(state)[0])
    assert state.removed_trainers and len(state.removed_trainers) == 3
    for _ in range(4):
        assert state.deciding_seats() == (0,)
        finish_turn(state)
    assert state.decision_code() == "RD1" and len(ids(state)) == 3
    decide(state, "pair:1")
    assert state.decision_code() == "RD2" and len(ids(state)) == 5
    decide(state, ids(state)[0])
    while state.is_chance_node():
        state.apply_chance(state.chance_outcomes()[0].id)
    assert state.round == 2 and state.start_player == 0 and state.decision_code() == "TD1"


def test_two_player_setup() -> None:
    state = setup_game(2, start=1, draft=False)
    assert [p.coins for p in state.players_state] == [7, 5]
    assert _dice(state) == {"O": 3, "G": 3, "P": 3, "C": 2}
    assert len(state.display) == 3
    assert state.deciding_seats() == (0,)  # the right neighbour of the start player drafts first


def test_three_player_dice() -> None:
    state = setup_game(3, start=0, draft=False)
    assert _dice(state) == {"O": 4, "G": 4, "P": 4, "C": 3}


def test_side_b_start_resources() -> None:
    boards = ["I", "II", "III", "IV"]
    state = setup_game(4, start=0, chance={"board": boards}, variants={"side_b": True}, draft=False)
    got = [(p.board, p.coins, p.markers, p.gems) for p in state.players_state]
    # seat 0 (start) hands 1 coin to seat 3
    assert got == [
        ("I", 4, 2, [1, 1, 0, 0]),
        ("II", 8, 1, [0, 1, 1, 0]),
        ("III", 6, 1, [1, 0, 1, 1]),
        ("IV", 5, 1, [1, 1, 1, 2]),
    ]


def test_unused_starting_masters_join_the_deck() -> None:
    state = setup_game(2, start=0, chance={"board": ["I", "II"]}, draft=False)
    deck = set(state.master_deck) | {m for m, _ in state.display}
    assert {"MIII-1", "MIV-4"} <= deck and not {"MI-1", "MII-1"} & deck
    assert len(deck) == 48


def test_tents_and_start_posters_dealt() -> None:
    state = setup_game(3, start=0)
    on_tracks = [t for track in state.track_tents.values() for t in track if t]
    assert len(on_tracks) == 15 and len(state.tents_left) == 1
    assert all(p.posters[0] and p.posters[0].startswith("SP") for p in state.players_state)
    assert all(state.poster_display)


# ----- effects and timing ----------------------------------------------------------------------
def _turn(state, seat: int, die: str, card: str, earlier=None):  # type: ignore[no-untyped-def]
    player = state.players_state[seat]
    player.board = "I"
    player.masters = [card] + [m for m in ("M01", "M02", "M03") if m != card][:3]
    player.dice = dict(earlier or {})
    player.trainers = []
    state.main_tent = {die: 1}
    state.display = [[None, None]] * len(state.display)
    begin_turn(state, seat)
    decide(state, f"die:{die}", f"card:{card}")
    return player


def test_die_shift_flip_and_set() -> None:
    state = setup_game(2, start=0)
    _turn(state, A, "O:1", "M09")  # DIE_SHIFT
    decide(state, "action:TRAVEL")
    assert [o for o in ids(state) if o.startswith("master")] == ["master:+1"]
    decide(state, "master:+1")
    assert state.turn.die_value == 2 and state.players_state[A].dice["M09"] == ("O", 2)  # type: ignore[union-attr]
    assert not any(o.startswith("master") for o in ids(state))

    state = setup_game(2, start=0)
    _turn(state, A, "G:2", "M13")  # DIE_FLIP
    decide(state, "action:TRAVEL", "master")
    assert state.power() == 5

    state = setup_game(2, start=0)
    player = _turn(state, A, "P:3", "M01")
    player.trainers, player.markers = ["TR11a"], 2
    decide(state, "action:BUILD")
    assert [o for o in ids(state) if o.startswith("trainer")] == [f"trainer:TR11a:{v}" for v in (1, 2, 4, 5, 6)]
    decide(state, "trainer:TR11a:6")
    assert state.power() == 6 and player.markers == 0 and player.spent == 2


def test_power_bonus_only_in_window_a() -> None:
    state = setup_game(2, start=0)
    _turn(state, A, "O:3", "M01")  # POWER:2
    decide(state, "action:TRAVEL", "resolve", "steps:1")
    while state.decision_code() != "TD6":
        decide(state, ids(state)[0])
    assert ids(state) == ["end"]


def test_coin_bonus_in_window_b() -> None:
    state = setup_game(2, start=0)
    player = _turn(state, A, "O:3", "M21")  # COINS:3
    decide(state, "action:TRAVEL", "resolve", "steps:1")
    coins = player.coins
    assert ids(state)[0] == "master"
    decide(state, "master")
    assert player.coins == coins + 3 and ids(state) == ["end"]


def test_architect_adds_a_small_tile() -> None:
    state = setup_game(2, start=0)
    player = _turn(state, A, "G:5", "M01")
    player.trainers, player.markers = ["TR05a"], 2
    decide(state, "action:BUILD", "trainer:TR05a", "resolve", "level:5")
    assert state.turn.pending_tiles == ["Gs", "Gl"]  # type: ignore[union-attr]
    assert state.supply["Gs"] == 11 and state.supply["Gl"] == 11


def test_unplaceable_tiles_return_to_the_supply() -> None:
    state = setup_game(2, start=0)
    player = _turn(state, A, "O:5", "M01")
    for y in range(7):
        for x in range(8):
            if (x, y) != (7, 6):
                player.camp |= 1 << (y * 8 + x)
    player.tiles.append(("Ol", 0, 0, 0))
    decide(state, "action:BUILD", "resolve", "level:5")
    assert state.decision_code() == "TD6"
    assert state.supply["Ol"] == 12
    assert any(e.kind == "tiles_returned" for e in state.events)


def test_navigator_moves_another_wagon() -> None:
    state = setup_game(2, start=0)
    player = _turn(state, A, "O:2", "M01")
    player.trainers, player.markers = ["TR07a"], 1
    decide(state, "action:TRAVEL", "trainer:TR07a:P", "resolve", "steps:1")
    assert state.wagons == {"O": 0, "G": 0, "P": 1}


def test_stagehand_and_clown() -> None:
    state = setup_game(2, start=0)
    player = _turn(state, A, "P:2", "M01")
    player.trainers, player.markers = ["TR08a", "TR09a"], 4
    player.tiles = [("Os", 0, 0, 0), ("Gs", 0, 0, 0)]
    player.posters = ["SP1", None, None, None, None]
    player.gems = [0, 1, 0, 0]
    decide(state, "action:PERFORM", "trainer:TR08a", "trainer:TR09a", "resolve", "space:1")
    assert state.turn.shows == 2  # type: ignore[union-attr]
    points, coins = player.points, player.coins
    decide(state, "posters:1")
    assert player.points == points + 5 + 0 + 2 and player.coins == coins + 1


def test_third_performance_moves_the_lower_hat() -> None:
    state = setup_game(2, start=0)
    player = _turn(state, A, "P:6", "M01")
    player.hats = [show_position(2), show_position(5)]
    decide(state, "action:PERFORM", "resolve")
    assert "space:2" not in ids(state) and "space:5" not in ids(state)
    decide(state, "space:3")
    assert player.hats == [show_position(3), show_position(5)]


def test_markers_never_exceed_eight() -> None:
    state = setup_game(2, start=0)
    player = state.players_state[A]
    player.markers, player.spent = 5, 3
    state._gain_marker(A, "test")
    assert player.markers == 5


def test_poster_deck_reshuffles_the_discard_pile() -> None:
    state = setup_game(2, start=0)
    state.poster_deck = []
    state.poster_discard = ["P40", "P41"]
    state.poster_display = [None, None, None, None]
    state.players_state[B].posters = ["SP1", None, None, None, None]
    run_step(state, ("gain_poster", B))
    assert ids(state) == ["deck"]
    decide(state, "deck")
    assert state.poster_discard == [] and [o.id for o in state.chance_outcomes()] == ["P40", "P41"]
    state.apply_chance("P41")
    decide(state, "slot:2")
    assert state.players_state[B].posters[1] == "P41"


def test_poster_gain_with_nothing_left_is_lost() -> None:
    state = setup_game(2, start=0)
    state.poster_deck, state.poster_discard, state.poster_display = [], [], [None] * 4
    run_step(state, ("gain_poster", B))
    assert state.pending is None and state.events[-1].kind == "poster_lost"


def test_rd2_is_simultaneous() -> None:
    state = setup_game(3, start=0)
    state.pending = ("RD2", -1)
    state._options = {}
    assert state.deciding_seats() == (0, 1, 2)
    assert state.decision_name(1) == "score_master_card"


def test_only_the_deciding_seats_answer_and_only_with_a_legal_option() -> None:
    state = setup_game(3, start=0)
    (seat,) = state.deciding_seats()
    legal = ids(state)[0]
    other = (seat + 1) % 3
    for wrong in ({other: legal}, {seat: legal, other: legal}, {}):
        with pytest.raises(NotDecidingError):
            state.apply_decisions(wrong)
    with pytest.raises(IllegalOptionError):
        state.apply_decisions({seat: "no-such-option"})
    assert state.deciding_seats() == (seat,) and ids(state)[0] == legal
    state.pending = ("RD2", -1)
    state._options = {}
    with pytest.raises(NotDecidingError):
        state.apply_decisions({0: ids(state, 0)[0]})


def test_no_decision_after_the_end() -> None:
    state = GAME.new_initial_state(GAME.make_config(2))
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.chance_outcomes()[0].id)
        else:
            state.apply_decisions({s: rng.choice(state.legal_options(s)).id for s in state.deciding_seats()})
    with pytest.raises(GameOverError):
        state.apply_decisions({0: "end"})


# ----- views, wire, whole games -------------------------------------------------------------
def test_views_are_public_and_encode() -> None:
    state = GAME.new_initial_state(GAME.make_config(3))
    rng = random.Random(5)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(outcomes[rng.randrange(len(outcomes))].id)
        else:
            state.apply_decisions({s: rng.choice(list(state.legal_options(s))).id for s in state.deciding_seats()})
    wire = get_wire("magnificent")
    public = state.public_view()
    for seat in range(3):
        view = state.private_view(seat)
        assert view.pop("seat") == seat
        assert view == public
        wire.view_message(state.private_view(seat))
    text = json.dumps(public)
    # deck orders and identities are never shown, only sizes
    assert "poster_deck_size" in public and "poster_deck" not in public
    assert not any(poster in text for poster in state.poster_deck if poster not in state.poster_discard)
    assert all(e.audience is None for e in state.events)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_with_ranks_and_breakdown(players: int) -> None:
    state = GAME.new_initial_state(GAME.make_config(players, {"side_b": players % 2 == 0}))
    play_out(state, random.Random(players))
    result = state.result()
    assert len(result.ranks) == players and min(result.ranks) == 1
    breakdown = result.details["breakdown"]
    assert [b["total"] for b in breakdown] == [int(s) for s in result.scores]
    assert state.round == 3 and all(len(p.masters) == 4 for p in state.players_state)
    assert state.events[-1].kind == "game_end"
    assert state.public_view()["game_over"] is True
