"""The worked examples of the Merchants of B99 spec, section 9 (E1-E16), one test each."""

from __future__ import annotations

import random
from typing import Any

from referee.games.merchants.patterns import score_face
from referee.games.merchants.scoring import (
    final_parts,
    final_ranks,
    score_cards,
    solo_star_points,
    solo_title,
    star_rank_points,
)
from referee.games.merchants.shop import attribute_sets, circle_points, condition_met, magic_circles
from referee.games.merchants.state import (
    CHOOSE_DUNGEON,
    CHOOSE_ROTATION,
    CHOOSE_TARGET,
    CHOOSE_TILE,
    Chip,
    MerchantsState,
)
from tests.games.merchants.helpers import DATA, at_decision, new_state, play_until, shop, tiles


def face(card: str, side: str = "") -> Any:
    return DATA.face(card, side)


def target_ids(state: MerchantsState, seat: int = 0) -> list[str]:
    return [option.id for option in state.legal_options(seat)]


def state_at_first_target(players: int = 1) -> MerchantsState:
    return play_until(new_state(players), at_decision(CHOOSE_TARGET, 1))


def test_e1_legal_target_cells_row_of_four() -> None:
    state = state_at_first_target()
    state.players_state[0].shop = shop(["R01 B07 Y13 R19"])
    expected = [
        "place:-1,0", "place:-1,1", "place:-1,2", "place:-1,3",
        "replace:0,0", "replace:0,1", "replace:0,2", "replace:0,3",
        "place:1,0", "place:1,1", "place:1,2", "place:1,3",
    ]
    assert target_ids(state) == expected
    for illegal in ("place:0,-1", "place:0,4", "place:1,-1", "place:-1,4"):
        assert illegal not in target_ids(state)
    payloads = [dict(option.payload) for option in state.legal_options(0)]
    assert payloads[0] == {"row": -1, "col": 0, "mode": "place"}
    assert payloads[4] == {"row": 0, "col": 0, "mode": "replace"}


def test_e2_legal_target_cells_l_shape_four_tall() -> None:
    state = state_at_first_target()
    state.players_state[0].shop = shop(["R01 .", "B07 .", "Y13 .", "R19 B01"])
    assert target_ids(state) == [
        "place:0,-1", "replace:0,0", "place:0,1",
        "place:1,-1", "replace:1,0", "place:1,1",
        "place:2,-1", "replace:2,0", "place:2,1",
        "place:3,-1", "replace:3,0", "replace:3,1", "place:3,2",
    ]
    for illegal in ("place:-1,0", "place:4,0", "place:4,1"):
        assert illegal not in target_ids(state)


def test_e3_multi_scores_one_place_only() -> None:
    red_line = face("DR1", "A")
    full = tiles(["R01 R03 R05 B01", "Y01 B03 Y03 B05", "R07 Y05 R09 Y07", "R11 B07 B09 Y09"])
    assert score_face(red_line, full) == 3
    diagonal = tiles(["R01 B01 .", "Y01 R03 B03", ". Y03 R05"])
    assert score_face(red_line, diagonal) == 0


def test_e4_per_tile_counts_each_tile_once() -> None:
    assert score_face(face("CA2", "A"), tiles(["Y01 R01 B01", "B03 Y03 R03", "R05 B05 Y05"])) == 3


def test_e5_blank_centre_pairs_are_tile_disjoint() -> None:
    blue_gap = face("DR3", "A")
    assert score_face(blue_gap, tiles(["B01 B03 B05 B07"])) == 4
    assert score_face(blue_gap, tiles(["B01 R01 B03", "R03 . R05", "B05 R07 Y03"])) == 2


def test_e6_formula_red_minus_yellow() -> None:
    more_red = face("DR3", "B")
    assert score_face(more_red, tiles(["R01 R03 Y01", "R05 Y03 R07", "B01 R09 Y05"])) == 2
    assert score_face(more_red, tiles(["R01 Y01 Y03", "Y05 R03 B01"])) == 0


def test_e7_groups() -> None:
    grid = tiles(["R01 R03 B01 R05", "R07 B03 Y01 B05", "Y03 B07 R09 B09", "R11 Y05 B11 B13"])
    assert score_face(face("SW4", "A"), grid) == 4
    assert score_face(face("CA1", "B"), grid) == 2
    assert score_face(face("DR1", "B"), grid) == 4
    assert score_face(face("CA4", "A"), grid) == 3
    assert score_face(face("DR4", "A"), grid) == 3
    assert score_face(face("SW1", "B"), grid) == 0


def test_e8_largest_with_cap() -> None:
    grid = tiles(["B01 B03 B05 B07", "B09 R01 R03 B11", "Y01 Y03 R05 B13"])
    assert score_face(face("DR4", "B"), grid) == 5
    assert score_face(face("CA99", "B"), grid) == 6
    assert score_face(face("CA4", "B"), grid) == 3
    assert score_face(face("SW4", "B"), grid) == 2
    assert score_face(face("DR4", "B"), tiles(["B01 R01 B03", "R03 B05 R05"])) == 0


def test_e9_region_template_anywhere_even_off_the_shop() -> None:
    hoard = face("DR2", "B")
    assert score_face(hoard, tiles(["R01 B01 Y01 B03", "R03 Y03 B05 Y05", "R05 B07 R07 Y07", "R09 Y09 B09 R11"])) == 4
    assert score_face(hoard, tiles(["R01 B01 R03 B03", "Y01 Y03 B05 Y05", "B07 R05 Y07 B09", "Y09 B11 Y11 R07"])) == 0
    assert score_face(face("CA2", "B"), tiles(["Y01 B01 Y03", "B03 Y05 R01", "R03 B05 R05"])) == 3


def test_e10_rotation_yes_mirror_no() -> None:
    hook = face("DR2", "A")
    assert score_face(hook, tiles(["R01 B01", "R03 Y01"])) == 3
    assert score_face(hook, tiles(["R01 R03", "Y01 B01"])) == 3
    assert score_face(hook, tiles(["B01 R01", "Y01 R03"])) == 0


def test_e11_magic_circles_and_attributes() -> None:
    first = shop(["R05@90 R13@270 Y01@180", "R09@0 B03@270 Y11@0"])
    halves = {cell: DATA.tiles[tile].rotated_halves[rotation // 90] for cell, (tile, rotation) in first.items()}
    assert halves == {
        (0, 0): {"E", "S"}, (0, 1): {"W", "N"}, (0, 2): {"S", "W"},
        (1, 0): {"N", "S"}, (1, 1): {"W", "N"}, (1, 2): {"N", "S"},
    }
    assert magic_circles(first, DATA) == 3
    assert circle_points(3, DATA) == 5
    second = shop(["R05@90 R13@180 Y01@180", "R09@0 B03@0 Y11@0"])
    assert magic_circles(second, DATA) == 4
    assert circle_points(4, DATA) == 8
    grid = tiles(["R05 R13 Y01", "R09 B03 Y11"])
    assert attribute_sets(grid) == 2
    assert attribute_sets(grid) * DATA.attribute_set_points == 8


E12_SHOP = ["Y01 Y03 B01 R13", "Y05 B13 R15 .", "R01 Y07 B17 .", "Y09 . . ."]


def e12_position(back_side: bool) -> MerchantsState:
    """Round 2, DP6, two players; seat 0 holds the E12 layout and shop and still has castle and swamp."""
    state = play_until(new_state(2, personal_board_back=back_side), at_decision(CHOOSE_DUNGEON, 2))
    layout = {
        "dragon": (("DR1", "A"), ("DR4", "B"), "C2", "G1"),
        "castle": (("CA1", "A"), ("CA3", "B"), "C4", "G3"),
        "swamp": (("SW2", "A"), ("SW1", "B"), "C6", "G2"),
    }
    for dungeon, (a, b, c_card, grey) in layout.items():
        state.layout[(dungeon, "A")] = a
        state.layout[(dungeon, "B")] = b
        state.c_cards[dungeon] = c_card
        state.grey[dungeon] = grey
    state.grey["D"] = "G4"
    player = state.players_state[0]
    player.shop = shop(E12_SHOP)
    player.unused_chips = ["castle", "swamp"]
    player.chips = [Chip(1, "dragon", False, 0)]
    player.score = 0
    return state


def test_e12_round_two_scoring_and_thumbs_up() -> None:
    state = e12_position(back_side=False)
    grid = tiles(E12_SHOP)
    assert len(grid) == 11
    castle = score_cards(state.round_cards("castle"), grid, DATA)
    assert [(c.card, c.kind, c.points) for c in castle] == [("CA1", None, 3), ("CA3", None, 2), ("C4", "shield", 2)]
    dragon = score_cards(state.round_cards("dragon"), grid, DATA)
    assert [(c.card, c.kind, c.points) for c in dragon] == [("DR1", None, 0), ("DR4", None, 0), ("C2", "sword", 2)]
    swamp = score_cards(state.round_cards("swamp"), grid, DATA)
    assert [(c.card, c.kind, c.points) for c in swamp] == [("SW2", None, 0), ("SW1", None, 2), ("C6", "staff", 0)]
    other = state.legal_options(1)[0].id
    state.apply_decisions({0: "dungeon:castle", 1: other})
    player = state.players_state[0]
    assert player.score == 7
    assert player.chips[-1] == Chip(2, "castle", True, 7)
    assert player.unused_chips == ["swamp"]
    scored = [e for e in state.events if e.kind == "round_scored"][-1].data["seats"][0]
    assert scored["thumb"] is True and scored["thumb_points"] == 0 and scored["round_points"] == 7


def test_e12_back_side_adds_three_points_in_round_two() -> None:
    state = e12_position(back_side=True)
    state.apply_decisions({0: "dungeon:castle", 1: state.legal_options(1)[0].id})
    player = state.players_state[0]
    assert player.score == 7 + 3
    assert player.chips[-1].thumb


def test_e13_star_ranking_four_players_front_side() -> None:
    e14 = shop(E14_SHOP)
    red_block = shop(["R01 R03 R05", "R07 R09 R11"])
    seat0 = final_parts(e14, 1, ["REP05", "REP13", "REP20"], 2, True, DATA)
    seat1 = final_parts(red_block, 0, ["REP02", "REP11"], 1, True, DATA)
    seat2 = final_parts(red_block, 1, ["REP03", "REP17", "REP18"], 3, True, DATA)
    seat3 = final_parts(e14, 2, ["REP16", "REP13", "REP20"], 0, True, DATA)
    assert (seat0.stars, seat0.best_heart) == (8, 15)
    assert (seat1.stars, seat1.best_heart) == (8, 22)
    assert (seat2.stars, seat2.best_heart) == (8, 0)
    assert seat3.stars == 2
    parts = [seat0, seat1, seat2, seat3]
    assert star_rank_points([p.stars for p in parts], [p.best_heart for p in parts], DATA) == [6, 9, 3, 0]


E14_SHOP = [
    "R05@90 R13@180 Y01@180 B07@0",
    "R09@0 B03@0 Y11@0 B21@0",
    "Y03@0 B05@0 R11@0 Y17@0",
    "B13@0 R15@0 Y21@0 R23@0",
]


def final_position(players: int, trend_before: int, thumb_points_before: int) -> tuple[MerchantsState, str]:
    """Round 3, DP6: seat 0 holds the E14 shop, 👍 in rounds 1 and 2, REP05/REP16/REP13, no discards.

    Its last chip is a dungeon that gives no 👍 in round 3, and its score before round 3 is set so
    that its trend-card points over the game come to `trend_before` plus nothing else.
    """
    state = play_until(new_state(players), at_decision(CHOOSE_DUNGEON, 3), rng=random.Random(5))
    player = state.players_state[0]
    player.shop = shop(E14_SHOP)
    player.discards = []
    player.reputation = ["REP05", "REP13", "REP16"]
    grid = tiles(E14_SHOP)
    for dungeon in ("dragon", "castle", "swamp"):
        scored = score_cards(state.round_cards(dungeon), grid, DATA)
        if not all(card.points >= 1 for card in scored):
            break
    else:
        raise AssertionError("every dungeon gives a thumbs-up in this position")
    round3 = sum(card.points for card in scored)
    used = [d for d in ("dragon", "castle", "swamp") if d != dungeon]
    player.unused_chips = [dungeon]
    player.chips = [Chip(1, used[0], True, 0), Chip(2, used[1], True, 0)]
    player.score = trend_before - round3 + thumb_points_before
    for other in state.players_state[1:]:
        other.reputation = []
        other.discards = []
        other.chips = [Chip(chip.round, chip.dungeon, False, chip.points) for chip in other.chips]
    return state, dungeon


def test_e14_final_scoring_of_one_shop_and_final_ties() -> None:
    parts = final_parts(shop(E14_SHOP), 0, ["REP05", "REP16", "REP13"], 2, True, DATA)
    assert (parts.sets, parts.attribute_points) == (4, 16)
    assert (parts.circles, parts.circle_points) == (8, 20)
    assert dict(parts.achieved) == {"REP05": True, "REP16": True, "REP13": False}
    assert parts.stars == 13
    grid = tiles(E14_SHOP)
    for card in ("REP01", "REP02", "REP06", "REP10", "REP12"):
        assert condition_met(DATA.reputation[card].condition, grid, 0, 8), card

    state, dungeon = final_position(4, trend_before=27, thumb_points_before=0)
    state.apply_decisions({seat: state.legal_options(seat)[0].id if seat else f"dungeon:{dungeon}" for seat in range(4)})
    assert state.is_terminal()
    final = state.players_state[0].final
    assert final is not None
    assert final["stars"] == 13 and final["star_points"] == 9
    assert final["trend_points"] == 27
    assert final["total"] == 27 + 16 + 20 + 9 == 72
    assert state.result().scores[0] == 72

    # (b) and (c): ties on total broken by raw ★ only, never by ♥.
    assert final_ranks([61, 61], [7, 5]) == (1, 2)
    assert star_rank_points([6, 6], [22, 3], DATA) == [5, 0]
    assert final_ranks([61, 61], [6, 6]) == (1, 1)


def test_e15_solo() -> None:
    state, dungeon = final_position(1, trend_before=27, thumb_points_before=2 + 3)
    assert state.back_side
    state.apply_decisions({0: f"dungeon:{dungeon}"})
    final = state.players_state[0].final
    assert final is not None
    assert final["thumb_points"] == 5 and final["trend_points"] == 27
    assert final["stars"] == 7 and final["star_points"] == 3
    assert final["total"] == 27 + 5 + 16 + 20 + 3 == 71
    assert (final["solo_rank"], final["solo_title"]) == ("AAA", "Legendary Merchant")
    assert state.result().details["solo_rank"] == "AAA"
    assert state.result().ranks == (1,)
    for total, rank in ((63, "AAA"), (62, "AA"), (51, "A"), (50, "B"), (45, "C"), (44, "D")):
        assert solo_title(total, DATA)[0] == rank
    for stars, points in ((13, 9), (12, 6), (10, 6), (9, 3), (7, 3), (6, 0), (-2, 0)):
        assert solo_star_points(stars, DATA) == points


def test_e16_draft_passing_and_visibility_three_players() -> None:
    script = ["B05", "R01", "R02", "Y07", "Y08"]

    def chance(state: MerchantsState) -> str | None:
        step = state.chance_step()
        if step == ("hand_tile", 0) and state.round == 1 and script and script[0] in state.supply:
            return script.pop(0)
        return None

    def decide(state: MerchantsState, seat: int) -> str | None:
        if state.decision_name(seat) == CHOOSE_TILE and seat == 0 and state.round == 1 and state.pick == 1:
            return "tile:Y07"
        if state.decision_name(seat) == CHOOSE_TARGET:
            return next(o.id for o in state.legal_options(seat) if o.payload["mode"] == "place")
        return None

    state = play_until(new_state(3), at_decision(CHOOSE_TILE, 1), chance=chance, decide=decide)
    assert state.private_view(0)["hand"] == ["B05", "R01", "R02", "Y07", "Y08"]
    start = len(state.events)
    play_until(state, lambda s: s.pick == 2, chance=chance, decide=decide)
    assert state.private_view(1)["hand"] == ["B05", "R01", "R02", "Y08"]
    for seat in (0, 1, 2, None):
        passed = [e.data for e in state.events_for(seat, start) if e.kind == "hand_passed" and e.data["from_seat"] == 0]
        assert passed == [{"from_seat": 0, "to_seat": 1, "count": 4}]
        received = [e.data for e in state.events_for(seat, start) if e.kind == "hand_tiles" and e.data.get("from_seat") == 0]
        if seat == 1:
            assert received == [{"seat": 1, "from_seat": 0, "tiles": ["B05", "R01", "R02", "Y08"]}]
        else:
            assert received == []
            if seat is not None:
                assert "B05" not in state.private_view(seat)["hand"]

    play_until(state, at_decision(CHOOSE_TILE, 2), chance=chance, decide=decide)
    start = len(state.events)
    play_until(state, lambda s: s.pick == 2, chance=chance, decide=decide)
    directions = {(e.data["from_seat"], e.data["to_seat"]) for e in state.events_for(None, start) if e.kind == "hand_passed"}
    assert directions == {(0, 2), (1, 0), (2, 1)}

    play_until(state, lambda s: s.pick == 5 and bool(s.deciding_seats()), chance=chance, decide=decide)
    assert state.decision_name(0) == CHOOSE_TILE
    for seat in range(3):
        assert len(state.legal_options(seat)) == 1
    state.apply_decisions({seat: state.legal_options(seat)[0].id for seat in range(3)})
    assert state.decision_name(0) == CHOOSE_TARGET and all(len(state.legal_options(s)) > 1 for s in range(3))
    play_until(state, at_decision(CHOOSE_ROTATION), decide=decide)
    assert all(len(state.legal_options(s)) == 4 for s in range(3))
    play_until(state, at_decision(CHOOSE_DUNGEON, 2), chance=chance, decide=decide)
    assert [len(player.shop) for player in state.players_state] == [11, 11, 11]
