"""The worked examples of the spec's section 9, one test each (E1..E14)."""

from __future__ import annotations

from referee.games.magnificent import scoring
from referee.games.magnificent.data import components
from referee.games.magnificent.model import IN_HAND, Player, show_position
from referee.games.magnificent.state import MagnificentState
from tests.games.magnificent.helpers import A, B, C, D, begin_turn, decide, finish_turn, ids, place, run_step, setup_game

STARTING_I = ["MI-1", "MI-2", "MI-3", "MI-4"]


def _board_i(state: MagnificentState, seat: int) -> Player:
    player = state.players_state[seat]
    player.board = "I"
    player.masters = list(STARTING_I)
    player.dice = {}
    return player


def test_e1_power_and_clear_dice() -> None:
    state = setup_game(4, start=A)
    player = _board_i(state, B)
    player.dice = {"MI-1": ("O", 3), "MI-2": ("C", 5)}
    player.gems = [1, 0, 0, 1]
    player.markers = 2
    player.trainers = ["TR01a"]
    state.display = [["M01", "TR05a"], ["M02", "TR08a"], ["M03", "TR12a"], ["M04", "TR03b"]]
    state.main_tent = {"O:4": 1, "C:2": 1, "G:6": 1}
    begin_turn(state, B)
    before_clear = state.clone()

    decide(state, "die:O:4")
    assert ids(state) == ["card:MI-3", "card:MI-4"]
    decide(state, "card:MI-3", "action:BUILD")
    assert state.power() == 7  # C5 does not count
    assert ids(state) == [
        "gem_power:O",
        "gem_power:C",
        "master:O",
        "master:G",
        "master:P",
        "master:C",
        "trainer:TR01a",
        "trainer:TR03b",
        "trainer:TR05a",
        "resolve",
    ]
    decide(state, "master:O")
    assert player.gems == [2, 0, 0, 1]
    decide(state, "gem_power:O", "gem_power:O")
    assert player.gems[0] == 0 and state.power() == 11
    decide(state, "gem_power:C")
    assert player.gems == [0, 0, 0, 0] and state.power() == 13
    decide(state, "resolve")
    assert ids(state) == ["level:3", "level:5", "level:7", "level:9", "level:12"]

    # (b) the clear die
    decide(before_clear, "die:C:2", "card:MI-3")
    assert ids(before_clear) == ["colour:O", "colour:G", "colour:P"]
    as_green = before_clear.clone()
    decide(before_clear, "colour:O")
    assert before_clear.power() == 5
    decide(as_green, "colour:G")
    assert as_green.power() == 2  # the earlier C5 never counts


def _build_turn(state: MagnificentState, seat: int, die: str, earlier: dict[str, tuple[str, int]] | None = None) -> Player:
    player = _board_i(state, seat)
    player.dice = dict(earlier or {})
    player.gems = [0, 0, 0, 0]
    colour, value = die.split(":")
    state.main_tent = {die: 1}
    begin_turn(state, seat)
    decide(state, f"die:{die}")
    card = ids(state)[0]
    decide(state, card)
    return player


def test_e2_build_levels_and_supply() -> None:
    state = setup_game(4, start=A)
    state.supply.update({"Gs": 1, "Gl": 4})
    state.display = [[None, None]] * 4
    player = _build_turn(state, B, "G:6", {"MI-4": ("G", 2)})
    player.trainers = ["TR06a"]
    player.markers = 1
    decide(state, "action:BUILD")
    assert state.power() == 8
    painter = state.clone()
    decide(state, "resolve")
    assert ids(state) == ["level:3", "level:5"]  # level 7 needs 2 Gs

    assert "trainer:TR06a:O" in ids(painter)
    decide(painter, "trainer:TR06a:O", "resolve")
    assert ids(painter) == ["level:3", "level:5", "level:7"]

    weak = setup_game(4, start=A)
    weak.display = [[None, None]] * 4
    _build_turn(weak, B, "G:2")
    decide(weak, "action:BUILD", "resolve")
    assert weak.decision_code() == "TD6"  # the build did nothing, window B follows
    assert weak.players_state[B].tiles == []


def test_e3_first_tile() -> None:
    state = setup_game(4, start=A)
    player = _build_turn(state, B, "O:3")
    decide(state, "action:BUILD", "resolve", "level:3")
    assert ids(state) == ["tile:Os"]
    decide(state, "tile:Os")
    assert len(ids(state)) == 47
    corner = state.clone()
    decide(state, "cell:0,0")
    assert ids(state) == ["orient:0", "orient:3"]
    decide(corner, "cell:7,0")
    assert ids(corner) == ["orient:1"]
    decide(corner, "orient:1")
    placed = [e for e in corner.events if e.kind == "tile_placed"][-1]
    assert {(c["x"], c["y"]) for c in placed.data["cells"]} == {(7, 0), (6, 1), (7, 1), (7, 2)}
    assert corner.players_state[B].tiles == [("Os", 1, 7, 0)]
    assert corner.decision_code() == "GP1"  # the (7,2) poster bonus is asked at once
    assert player is state.players_state[B]


def test_e4_adjacency() -> None:
    state = setup_game(4, start=A)
    player = _build_turn(state, B, "G:3")
    place(player, "Ol", 0, 0, 0)
    decide(state, "action:BUILD", "resolve", "level:3", "tile:Gs")
    assert ids(state) == ["cell:3,0", "cell:5,0", "cell:3,1", "cell:4,1", "cell:0,2", "cell:1,2", "cell:2,2"]
    other = state.clone()
    decide(other, "cell:5,0")
    assert ids(other) == ["orient:3"]
    decide(other, "orient:3")
    covered = [e for e in other.events if e.kind == "tile_placed"][-1].data["cells"]
    assert {(c["x"], c["y"]) for c in covered} == {(5, 0), (3, 1), (4, 1), (5, 1)}

    decide(state, "cell:3,0")
    assert ids(state) == ["orient:0", "orient:1", "orient:2", "orient:4", "orient:5", "orient:6", "orient:7"]
    points = player.points
    decide(state, "orient:5")
    covered = [e for e in state.events if e.kind == "tile_placed"][-1].data["cells"]
    assert {(c["x"], c["y"]) for c in covered} == {(3, 0), (3, 1), (4, 1), (5, 1)}
    assert player.points == points + 2


def _travel_state() -> tuple[MagnificentState, Player]:
    state = setup_game(4, start=A)
    for index in range(12):
        state.track_tents["O"][index] = None
    state.track_tents["O"][2] = "T05"
    state.track_tents["O"][4] = "T09"
    state.track_tents["O"][9] = "T02"
    state.track_tents["O"][11] = "T13"
    state.wagons["O"] = 0
    state.display = [[None, None]] * 4
    player = _build_turn(state, B, "O:4", {"MI-4": ("O", 3)})
    player.gems = [3, 1, 0, 2]
    player.coins = 4
    player.tents = ["T00", "T01", None, None, None]
    player.posters = ["SP1", "P01", None, None, None]
    decide(state, "action:TRAVEL", "resolve")
    return state, player


def test_e5_travel() -> None:
    state, player = _travel_state()
    assert state.power() == 7
    assert ids(state) == [f"steps:{k}" for k in range(1, 8)]
    short = state.clone()

    decide(state, "steps:7")
    assert player.coins == 6
    assert player.gems == [3, 2, 0, 3]
    assert state.wagons["O"] == 7
    assert ids(state) == ["deck", "display:1", "display:2", "display:3", "display:4"]  # no decline
    decide(state, "display:1")
    while state.is_chance_node():
        state.apply_chance(state.chance_outcomes()[0].id)
    decide(state, "slot:3")
    assert sum(1 for p in player.posters if p) == 3

    b = short.players_state[B]
    decide(short, "steps:4")
    assert b.coins == 5 and b.gems == [3, 2, 0, 2]
    assert ids(short) == ["tent_slot:3", "tent_slot:4", "tent_slot:5", "decline"]
    decide(short, "tent_slot:3")
    assert b.tents[2] == "T09"
    assert b.coins == 7
    assert short.decision_code() == "GP1"
    decide(short, "deck")
    short.apply_chance(short.chance_outcomes()[0].id)
    assert short.decision_code() == "GP2"
    assert short.track_tents["O"][4] is None  # index 4 is now a poster space
    assert short.c.track_spaces["O"][4] is None


def test_e6_full_poster_area() -> None:
    state = setup_game(4, start=A)
    player = state.players_state[C]
    player.posters = ["SP2", "P04", "P10", "P22", "P31"]
    state.poster_display = ["P07", "P40", "P15", "P28"]
    used = {"SP2", "P04", "P10", "P22", "P31", "P07", "P40", "P15", "P28"}
    state.poster_deck = [p for p in components().regular_posters if p not in used][:20]
    state.poster_discard = []
    run_step(state, ("gain_poster", C))
    assert ids(state) == ["deck", "display:1", "display:2", "display:3", "display:4", "decline"]
    decide(state, "display:2")
    assert state.is_chance_node() and state.poster_display[1] is None
    state.apply_chance(state.chance_outcomes()[0].id)
    assert state.poster_display[1] is not None and len(state.poster_deck) == 19
    assert ids(state) == ["replace:1", "replace:2", "replace:3", "replace:4", "replace:5", "discard"]
    decide(state, "replace:4")
    assert state.poster_discard == ["P22"]
    assert player.posters == ["SP2", "P04", "P10", "P40", "P31"]


def _perform_state(gems: list[int]) -> tuple[MagnificentState, Player]:
    state = setup_game(4, start=A)
    state.display = [[None, None]] * 4
    state.players_state[A].hats = [show_position(4), IN_HAND]
    state.players_state[B].hats = [show_position(5), IN_HAND]
    player = _build_turn(state, D, "P:4", {"MI-4": ("P", 3)})
    for tile in ("Os", "Gs", "Gl"):
        player.tiles.append((tile, 0, 0, 0))
    player.posters = ["SP1", "P19", "P14", None, None]
    player.tents = ["T00", "T09", None, None, None]
    player.gems = gems
    player.hats = [3, IN_HAND]
    decide(state, "action:PERFORM", "resolve")
    return state, player


def test_e7_perform() -> None:
    state, player = _perform_state([1, 1, 0, 1])
    assert state.power() == 7
    assert ids(state) == ["space:1", "space:2", "space:3", "space:6"]
    decide(state, "space:6")
    assert player.hats[0] == show_position(6) and state.turn.shows == 2  # type: ignore[union-attr]
    assert ids(state) == ["posters:-", "posters:1", "posters:2"]
    points, coins = player.points, player.coins
    decide(state, "posters:2")
    assert player.gems == [0, 1, 0, 1]  # the O gem was paid automatically
    assert ids(state) == ["pay:G", "pay:C"]
    decide(state, "pay:C")
    assert player.gems == [0, 1, 0, 0]
    assert player.points == points + 11 and player.coins == coins + 2
    assert player.completed[-1] == "P19"
    options = ids(state)
    assert len(options) == 20 and options[0] == "arrange:1,2"
    decide(state, "arrange:1,2")
    assert player.posters == ["SP1", "P14", None, None, None]

    variant, other = _perform_state([0, 1, 0, 1])
    decide(variant, "space:6")
    assert "posters:2" in ids(variant)
    decide(variant, "posters:2")
    assert other.gems == [0, 1, 0, 0]  # the clear gem paid the O
    assert ids(variant) == ["pay:G"]


def test_e8_round_end_payment() -> None:
    state = setup_game(4, start=A)
    state.round = 2
    a, b = state.players_state[A], state.players_state[B]
    a.dice = {"x1": ("O", 5), "x2": ("O", 3), "x3": ("G", 4), "x4": ("C", 6)}
    a.coins, a.points = 10, 40
    b.dice = {"y1": ("O", 2), "y2": ("G", 2), "y3": ("P", 2), "y4": ("C", 1)}
    b.coins, b.points = 10, 0
    assert scoring.payment_due(a) == 14 and scoring.payment_due(b) == 3
    run_step(state, ("round_end",))
    assert a.coins == 0 and a.points == 32
    assert b.coins == 7 and b.points == 0
    payments = {e.data["seat"]: e.data for e in state.events if e.kind == "payment"}
    assert payments[A] == {"seat": A, "due": 14, "paid": 10, "penalty": 8}

    third = setup_game(4, start=A)
    third.round = 3
    c = third.players_state[C]
    c.dice = {f"z{i}": ("O", 1) for i in range(4)}
    c.coins, c.points = 1, 0
    run_step(third, ("round_end",))
    assert c.coins == 0 and c.points == -9


def test_e9_hats_pair_order_next_start_player() -> None:
    state = setup_game(4, start=A)
    for player in state.players_state:
        player.dice = {}
    state.players_state[A].hats = [show_position(2), IN_HAND]
    state.players_state[B].hats = [show_position(5), show_position(9)]
    state.players_state[C].hats = [2, IN_HAND]
    state.players_state[D].hats = [show_position(7), IN_HAND]
    run_step(state, ("round_end",))
    assert state.players_state[B].hats == [IN_HAND, show_position(9)]
    order = []
    while state.decision_code() == "RD1":
        (seat,) = state.deciding_seats()
        order.append(seat)
        if seat == C:
            assert len(ids(state)) == 1
        decide(state, ids(state)[0])
    assert order == [B, D, A, C]
    assert state.decision_code() == "RD2"
    state.apply_decisions({seat: state.legal_options(seat)[0].id for seat in state.deciding_seats()})
    while state.is_chance_node():
        state.apply_chance(state.chance_outcomes()[0].id)
    assert [max(p.hats) for p in state.players_state] == [1, 3, 0, 2]  # C #1, A #2, D #3, B #4
    assert state.start_player == C and state.round == 2
    turns = []
    for _ in range(4):
        turns.append(state.deciding_seats()[0])
        finish_turn(state)
    assert turns == [C, D, A, B]


def test_e10_round_end_master_scoring() -> None:
    state = setup_game(4, start=A)
    a = _board_i(state, A)
    a.masters = STARTING_I + ["M21"]
    a.completed = ["P01", "P02"]
    for tile in ("Ol", "Os", "Gs"):
        a.tiles.append((tile, 0, 0, 0))
    a.gems = [2, 1, 1, 1]
    a.tents = ["T00", "T01", "T02", None, None]
    values = {card: scoring.master_value(state.c, state.c.masters[card], a) for card in a.masters}
    assert values == {"MI-1": 4, "MI-2": 2, "MI-3": 5, "MI-4": 6, "M21": 0}
    state.pending = ("RD2", -1)
    state._options = {}
    assert state.deciding_seats() == (A, B, C, D)
    assert ids(state, A) == ["score:MI-1", "score:MI-2", "score:MI-3", "score:MI-4", "score:M21"]
    points = a.points
    choices = {seat: state.legal_options(seat)[0].id for seat in (B, C, D)}
    state.apply_decisions({A: "score:MI-4", **choices})
    assert a.points == points + 6
    assert a.masters == ["MI-1", "MI-2", "MI-3", "M21"]


E11_CAMP = [("Ol", 0, 0, 0), ("Ol", 1, 3, 0), ("Ol", 1, 3, 3), ("Gs", 1, 0, 2), ("Ps", 0, 1, 3), ("Gs", 7, 5, 0), ("Ps", 1, 5, 2), ("Os", 2, 1, 5)]


def test_e11_final_scoring() -> None:
    state = setup_game(4, start=A)
    b = state.players_state[B]
    b.board = "II"
    b.camp, b.tiles = 0, []
    for tile_type, k, x, y in E11_CAMP:
        legal = {(p.k, p.x, p.y) for p in state._legal_placements(B, tile_type)}
        assert (k, x, y) in legal
        place(b, tile_type, k, x, y)
    empty = {area: size - (b.camp & mask).bit_count() for area, mask, size in state.c.areas}
    assert empty == {"A1": 0, "A2": 0, "A3": 2, "A4": 1, "A5": 0, "A6": 5, "A7": 2, "A8": 2, "A9": 6}
    b.points, b.coins = 97, 14
    b.completed = [f"P0{i}" for i in range(1, 7)]
    b.gems = [2, 1, 1, 2]
    b.masters = ["M08", "MII-1", "M22", "M10"]
    values = [scoring.master_value(state.c, state.c.masters[m], b) // 2 for m in b.masters]
    assert values == [6, 4, 3, 4]
    areas, filled = scoring.areas_after_gem_filling(state.c, b.camp, 6)
    assert filled == ["A4", "A3", "A7"] and areas == 6
    breakdown = scoring.final_breakdown(state.c, b)
    assert breakdown == {"track": 97, "masters": 17, "coins": 2, "full_areas": 6, "areas": 24, "total": 140}
    run_step(state, ("game_end",))
    assert state.is_terminal()
    assert state.result().scores[B] == 140


def test_e12_ranking() -> None:
    players = [Player(coins=14), Player(coins=12), Player(coins=7), Player(coins=7)]
    players[2].completed = ["x"] * 5
    players[3].completed = ["x"] * 5
    assert scoring.final_ranks([140, 140, 118, 118], players) == (1, 2, 3, 3)


def test_e13_illegal_options() -> None:
    # (a) power 6, show space 4 occupied
    state = setup_game(4, start=A)
    state.players_state[A].hats = [show_position(4), IN_HAND]
    _build_turn(state, D, "P:6")
    decide(state, "action:PERFORM", "resolve")
    assert ids(state) == ["space:1", "space:2", "space:3", "space:5"]

    # (b) travel with power 15
    state = setup_game(4, start=A)
    _build_turn(state, D, "O:6", {"MI-3": ("O", 6), "MI-4": ("O", 3)})
    decide(state, "action:TRAVEL", "resolve")
    assert state.power() == 15
    assert ids(state) == [f"steps:{k}" for k in range(1, 13)]

    # (c) a poster above an empty tent slot is never offered
    state = setup_game(4, start=A)
    player = _build_turn(state, D, "P:6", {"MI-4": ("P", 6)})
    for tile in ("Os", "Os", "Gs", "Ps", "Ol", "Gl", "Pl"):
        player.tiles.append((tile, 0, 0, 0))
    player.posters = ["SP1", "P19", "P10", None, None]
    player.tents = ["T00", "T01", None, None, None]
    player.gems = [3, 3, 3, 3]
    decide(state, "action:PERFORM", "resolve", "space:11")
    assert all("3" not in option.split(":")[1] for option in ids(state))
    assert "posters:1,2" in ids(state)

    # (d) a PERFORM tile is never offered with BUILD; window B offers only ANY tiles
    state = setup_game(4, start=A)
    state.display = [[None, None]] * 4
    player = _build_turn(state, B, "O:2")
    player.trainers = ["TR01a", "TR03a", "TR04a", "TR05a", "TR06a", "TR07a", "TR08a", "TR09a", "TR10a", "TR11a", "TR12a"]
    player.markers = 8
    decide(state, "action:BUILD")
    window_a = {option.split(":")[1] for option in ids(state) if option.startswith("trainer:")}
    assert window_a == {"TR01a", "TR03a", "TR04a", "TR05a", "TR06a", "TR10a", "TR11a", "TR12a"}
    decide(state, "resolve")
    window_b = [option for option in ids(state) if option.startswith("trainer:")]
    assert window_b == ["trainer:TR03a", "trainer:TR04a", "trainer:TR10a", "trainer:TR12a"]

    # (e) no second Painter in the same turn
    state = setup_game(4, start=A)
    state.display = [[None, "TR06b"], [None, None], [None, None], [None, None]]
    player = _build_turn(state, B, "O:2")
    player.trainers = ["TR06a"]
    player.markers = 3
    decide(state, "action:BUILD")
    assert "trainer:TR06b:G" in ids(state)
    decide(state, "trainer:TR06a:G")
    assert not any(option.startswith("trainer:TR06") for option in ids(state))


def test_e14_setup() -> None:
    state = setup_game(4, start=C, draft=False)
    coins = [p.coins for p in state.players_state]
    assert coins == [6, 7, 5, 6]
    assert [p.hats[0] for p in state.players_state] == [2, 3, 0, 1]  # C #1, D #2, A #3, B #4
    draft_order = []
    while state.decision_code() == "SD1":
        (seat,) = state.deciding_seats()
        draft_order.append(seat)
        if seat == C:
            assert len(ids(state)) == 1
        decide(state, ids(state)[0])
    assert draft_order == [B, A, D, C]
    dice = {colour: 0 for colour in "OGPC"}
    for key, count in state.main_tent.items():
        dice[key[0]] += count
    assert dice == {"O": 5, "G": 5, "P": 5, "C": 4}
    assert len(state.display) == 4 and all(m and t for m, t in state.display)
    turns = []
    for _ in range(4):
        turns.append(state.deciding_seats()[0])
        finish_turn(state)
    assert turns == [C, D, A, B]
