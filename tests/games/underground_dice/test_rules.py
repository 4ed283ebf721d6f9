"""Underground Dice rules and flags beyond the worked examples: setup, chance, legality, chains, ends, configs, data."""

from __future__ import annotations

import copy
import random
import re
from math import comb

import pytest

from referee.components import load_component_json
from referee.errors import ComponentDataError, ConfigError, IllegalOptionError
from referee.games.underground_dice.data import DATA_FILE, PACKAGE, compute_possible_sums, parse_components
from referee.playout import step
from tests.games.underground_dice.helpers import (
    GAME,
    decide,
    events_since,
    hands,
    new_state,
    option_ids,
    play_miss_rounds,
    set_position,
    split,
)

# Appendix A of the spec, verbatim: "p,q | k=1 | ... | k=6" cells as ranges with option counts.
APPENDIX_A = """
| 0,1 | 4–6 [3] | | | | | |
| 0,2 | 4–6 [3] | 8–12 [5] | | | | |
| 0,3 | 4–6 [3] | 8–12 [5] | 12–18 [7] | | | |
| 1,0 | 1 [1] | | | | | |
| 1,1 | 1, 4–6 [4] | 5–7 [3] | | | | |
| 1,2 | 1, 4–6 [4] | 5–12 [8] | 9–13 [5] | | | |
| 1,3 | 1, 4–6 [4] | 5–12 [8] | 9–18 [10] | 13–19 [7] | | |
| 2,0 | 1 [1] | 2 [1] | | | | |
| 2,1 | 1, 4–6 [4] | 2, 5–7 [4] | 6–8 [3] | | | |
| 2,2 | 1, 4–6 [4] | 2, 5–12 [9] | 6–13 [8] | 10–14 [5] | | |
| 2,3 | 1, 4–6 [4] | 2, 5–12 [9] | 6–18 [13] | 10–19 [10] | 14–20 [7] | |
| 3,0 | 1 [1] | 2 [1] | 3 [1] | | | |
| 3,1 | 1, 4–6 [4] | 2, 5–7 [4] | 3, 6–8 [4] | 7–9 [3] | | |
| 3,2 | 1, 4–6 [4] | 2, 5–12 [9] | 3, 6–13 [9] | 7–14 [8] | 11–15 [5] | |
| 3,3 | 1, 4–6 [4] | 2, 5–12 [9] | 3, 6–18 [14] | 7–19 [13] | 11–20 [10] | 15–21 [7] |
"""


def appendix_a() -> dict[tuple[int, int, int], list[int]]:
    table: dict[tuple[int, int, int], list[int]] = {}
    for line in APPENDIX_A.strip().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        p, q = (int(x) for x in cells[0].split(","))
        for k, cell in enumerate(cells[1:], start=1):
            if not cell:
                continue
            body, count = re.fullmatch(r"(.*) \[(\d+)\]", cell).groups()  # type: ignore[union-attr]
            sums: list[int] = []
            for part in body.split(","):
                low, _, high = part.strip().partition("–")
                sums.extend(range(int(low), int(high or low) + 1))
            assert len(sums) == int(count), f"appendix cell {p},{q},{k} miscounted"
            table[(p, q, k)] = sums
    return table


def test_appendix_a_possible_sums_match_the_engine_for_every_p_q_k() -> None:
    table = appendix_a()
    assert len(table) == 48
    for (p, q, k), sums in table.items():
        assert list(GAME.data.possible_sums[(p, q, k)]) == sums
        assert compute_possible_sums(p, q, k, 1, (4, 5, 6)) == tuple(sums)
        # and the engine offers exactly these guesses
        assert [o.id for o in GAME.tables.guesses[(p, q, k)]] == [f"guess:{s}" for s in sums]
    assert set(GAME.data.possible_sums) == set(table)


def test_guess_options_are_the_sums_some_legal_set_can_show() -> None:
    """Brute force: every (pins, faces) the parent may choose gives a sum among the guesses, and every guess is reachable."""
    for (p, q), pins_options in GAME.tables.pins.items():
        reachable: dict[int, set[int]] = {}
        for pins_option in pins_options:
            a = pins_option.payload["pins"]
            for faces_option in GAME.tables.faces[(q, a > 0)]:
                face = GAME.data.face_option(faces_option.payload["faces"])
                reachable.setdefault(a + face.dice, set()).add(a + face.total)
        for k, totals in reachable.items():
            assert sorted(totals) == list(GAME.data.possible_sums[(p, q, k)])


def test_first_parent_random_is_a_fair_chance_node() -> None:
    state = new_state()
    assert state.is_chance_node() and state.deciding_seats() == ()
    assert [(o.id, o.probability) for o in state.chance_outcomes()] == [("parent:0", 0.5), ("parent:1", 0.5)]
    state.apply_chance("parent:1")
    assert state.parent == 1 and state.deciding_seats() == (1,)
    assert events_since(state, 0)[:2] == [
        ("game_start", {"first_parent": 1, "hands": [30, 30]}),
        ("parent_turn_start", {"parent": 1, "number": 1}),
    ]


@pytest.mark.parametrize("seat", [0, 1])
def test_fixed_first_parent_needs_no_chance(seat: int) -> None:
    state = new_state({"first_parent": seat})
    assert not state.is_chance_node() and state.parent == seat and state.decision_name(seat) == "set_pins"


def test_counterfeit_deal_is_two_hypergeometric_chance_nodes_then_the_first_parent() -> None:
    state = new_state({"counterfeit": True})
    first = state.chance_outcomes()
    assert [o.id for o in first] == [f"counterfeits:{z}" for z in range(7)]
    for z, outcome in enumerate(first):
        assert outcome.probability == pytest.approx(comb(6, z) * comb(60, 30 - z) / comb(66, 30))
    state.apply_chance("counterfeits:4")
    second = state.chance_outcomes()
    assert [o.id for o in second] == ["counterfeits:0", "counterfeits:1", "counterfeits:2"]
    for z, outcome in enumerate(second):
        assert outcome.probability == pytest.approx(comb(2, z) * comb(34, 30 - z) / comb(36, 30))
    state.apply_chance("counterfeits:1")
    assert split(state, 0) == (26, 4) and split(state, 1) == (29, 1) and state.set_aside_fakes == 1
    assert state.is_chance_node() and [o.id for o in state.chance_outcomes()] == ["parent:0", "parent:1"]
    assert events_since(state, 0, 0) == [("counterfeit_dealt", {"seat": 0, "genuine": 26, "counterfeit": 4})]
    assert events_since(state, 0, 1) == [("counterfeit_dealt", {"seat": 1, "genuine": 29, "counterfeit": 1})]
    assert events_since(state, 0, None) == []
    state.apply_chance("parent:0")
    assert state.parent == 0 and state.decision_name(0) == "set_pins"


def test_counterfeit_with_fixed_first_parent_starts_after_the_deal() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[0, 6])
    assert state.parent == 1 and state.set_aside_fakes == 0 and not state.is_chance_node()


def test_pins_zero_is_illegal_without_four_five_six_dice() -> None:
    state = set_position(new_state({"first_parent": 0}), parent=0, hands=[30, 30], p=3, q=0)
    assert option_ids(state) == ["pins:1", "pins:2", "pins:3"]
    with pytest.raises(IllegalOptionError):
        decide(state, "pins:0")


def test_only_four_five_six_dice_left() -> None:
    state = set_position(new_state({"first_parent": 0}), parent=0, hands=[30, 30], p=0, q=2)
    assert option_ids(state) == ["pins:0"]
    decide(state, "pins:0")
    assert option_ids(state) == ["faces:4", "faces:5", "faces:6", "faces:44", "faces:45", "faces:46", "faces:55", "faces:56", "faces:66"]


@pytest.mark.parametrize("k,multiplier", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 10), (6, 10)])
def test_payout_multiplier_by_k(k: int, multiplier: int) -> None:
    state = set_position(new_state({"first_parent": 0}), parent=0, hands=[40, 20])
    pins = min(k, 3)
    faces = "none" if k <= 3 else "4" * (k - 3)
    decide(state, f"pins:{pins}", f"faces:{faces}", "stake:2")
    total = pins + 4 * (k - pins)
    start = len(state.events)
    decide(state, f"guess:{total}")
    assert events_since(state, start)[1][1]["hit"] is True
    assert hands(state) == [40 - 2 * multiplier, 20 + 2 * multiplier]


def test_the_parent_keeps_playing_until_all_six_dice_are_used() -> None:
    state = set_position(new_state({"first_parent": 0}), parent=0, hands=[30, 30])
    for pins, faces, guess in (("pins:1", "faces:none", "guess:1"), ("pins:1", "faces:4", "guess:2"), ("pins:1", "faces:none", "guess:1")):
        assert state.parent == 0 and state.turn_number == 1
        decide(state, pins, faces, "stake:1", guess)
    assert (state.p, state.q) == (0, 2) and state.parent == 0
    decide(state, "pins:0", "faces:55", "stake:1", "guess:8")
    assert state.parent == 1 and state.turn_number == 2 and state.completed == [1, 0] and (state.p, state.q) == (3, 3)


def test_normal_end_ignores_max_parent_turns() -> None:
    state = new_state({"first_parent": 0, "max_parent_turns": 2})
    for _ in range(3):
        play_miss_rounds(state, 1)
    assert not state.is_terminal() and state.turns_done == 3


def test_view_shows_used_dice_and_the_reveal_until_the_round_is_settled() -> None:
    state = new_state({"counterfeit": True, "first_parent": 0}, deal=[0, 0])
    decide(state, "pins:1", "faces:45", "stake:2", "fakes:0", "guess:10")
    view = state.private_view(1)
    assert view["used_dice"] == [{"type": "pin", "face": 1}, {"type": "shigoro", "face": 4}, {"type": "shigoro", "face": 5}]
    assert view["revealed_total"] == 10 and view["hit"] is True and view["stake"] == 2 and view["guess"] == 10
    assert view["phase"] == "pay_fakes" and view["transfer"]["amount"] == 6
    decide(state, "fakes:0", "accept")
    view = state.private_view(1)
    assert view["phase"] == "set_pins" and len(view["used_dice"]) == 3
    assert not {"revealed_total", "hit", "stake", "guess", "announced_dice", "transfer"} & set(view)


# ----- counterfeit transfers -----------------------------------------------------------------


def test_accusation_chain_doubles_until_the_giver_cannot_pay() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[3, 0])
    set_position(state, parent=1, hands=[(27, 3), (30, 0)])
    decide(state, "pins:1", "faces:none", "stake:2", "fakes:1", "guess:4")  # miss (S = 1)
    decide(state, "accuse")
    assert state.amount == 4 and state.decision_name(0) == "pay_fakes"
    assert option_ids(state) == ["fakes:0", "fakes:1", "fakes:2", "fakes:3"]
    decide(state, "fakes:3", "accuse")
    assert state.amount == 8
    decide(state, "fakes:1", "accuse")
    assert state.amount == 16
    decide(state, "fakes:2", "accuse")
    start = len(state.events)
    # 32 > 30 bills: P0 cannot pay; nothing moves
    assert state.is_terminal() and state.bankrupt == 0 and state.bankrupt_reason == "cannot_pay"
    assert split(state, 0) == (27, 3) and split(state, 1) == (30, 0) and state.pot == 0
    assert state.result().ranks == (2, 1) and state.result().scores == (24000.0, 30000.0)
    assert events_since(state, start - 4)[-3:] == [
        ("transfer_due", {"giver": 0, "receiver": 1, "amount": 32}),
        ("bankrupt", {"seat": 0, "reason": "cannot_pay"}),
        ("game_end", {"ranks": [2, 1], "scores": [24000, 30000]}),
    ]


def test_accusation_chain_on_a_payout_ends_when_the_parent_cannot_pay_double() -> None:
    """T3 accuse with f >= 1: the group goes back, A doubles, T1 again; T1: fewer bills than A is bankruptcy, nothing moves."""
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[0, 2])
    set_position(state, parent=1, hands=[(40, 0), (18, 2)])
    decide(state, "pins:2", "faces:none", "stake:3", "fakes:0", "guess:2")  # hit: P1 owes 2 x 3 = 6
    assert state.amount == 6 and option_ids(state) == ["fakes:0", "fakes:1", "fakes:2"]
    decide(state, "fakes:1", "accuse")
    assert state.amount == 12 and state.hand(1) == 20 and state.decision_name(1) == "pay_fakes"
    start = len(state.events)
    decide(state, "fakes:2", "accuse")  # A = 24 > 20 bills
    assert events_since(state, start) == [
        ("accused", {"fakes": 2, "counterfeit_found": True, "new_amount": 24}),
        ("transfer_due", {"giver": 1, "receiver": 0, "amount": 24}),
        ("bankrupt", {"seat": 1, "reason": "cannot_pay"}),
        ("game_end", {"ranks": [1, 2], "scores": [40000, 16000]}),
    ]
    assert split(state, 0) == (40, 0) and split(state, 1) == (18, 2) and state.pot == 0
    assert state.result().ranks == (1, 2)


def test_counterfeits_count_as_bills_when_paying_and_paying_the_whole_hand_is_bankruptcy() -> None:
    """T1 counts counterfeits (8 bills can pay 8 with only 6 genuine); R8: a hand left at 0 bills loses."""
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[2, 2])
    set_position(state, parent=1, hands=[(50, 2), (6, 2)])
    decide(state, "pins:1", "faces:none", "stake:4", "fakes:0", "guess:1")  # hit: P1 owes 1 x 4 = 4
    decide(state, "fakes:1", "accuse")
    assert state.amount == 8 and state.hand(1) == 8 and not state.is_terminal()
    assert option_ids(state) == ["fakes:2"]  # max(0, 8 - 6) = 2 = min(8, 2)
    decide(state, "fakes:2", "accept")
    assert split(state, 0) == (56, 4) and state.hand(1) == 0
    assert state.is_terminal() and state.bankrupt == 1 and state.bankrupt_reason == "no_bills"
    assert state.result().ranks == (1, 2) and state.result().scores == (52000.0, 0.0)


def test_an_accepted_all_in_stake_leaves_the_child_bankrupt() -> None:
    """R4b bounds with the whole hand staked, then R8 after the parent accepts the missed stake."""
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[1, 0])
    set_position(state, parent=1, hands=[(2, 1), (57, 0)])
    decide(state, "pins:1", "faces:none", "stake:3")
    assert option_ids(state) == ["fakes:1"] and state.hand(0) == 0 and not state.is_terminal()
    decide(state, "fakes:1", "guess:4", "accept")  # S = 1: a miss
    assert split(state, 1) == (59, 1) and state.hand(0) == 0
    assert state.is_terminal() and state.bankrupt == 0 and state.bankrupt_reason == "no_bills"
    assert state.result().ranks == (2, 1) and state.result().scores == (0.0, 58000.0)


def test_false_accusation_on_a_stake_cancels_the_debt() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[3, 0])
    set_position(state, parent=1, hands=[(27, 3), (30, 0)])
    decide(state, "pins:1", "faces:none", "stake:5", "fakes:0", "guess:4", "accuse")
    assert split(state, 0) == (27, 3) and split(state, 1) == (30, 0)
    assert state.decision_name(1) == "set_pins"


def test_false_accusation_after_a_doubling_cancels_everything() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[3, 0])
    set_position(state, parent=1, hands=[(27, 3), (30, 0)])
    decide(state, "pins:1", "faces:none", "stake:2", "fakes:2", "guess:4", "accuse", "fakes:0", "accuse")
    assert split(state, 0) == (27, 3) and split(state, 1) == (30, 0)


def test_accepted_stake_with_counterfeits_moves_them() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[3, 0])
    set_position(state, parent=1, hands=[(27, 3), (30, 0)])
    decide(state, "pins:1", "faces:none", "stake:4", "fakes:3", "guess:4")
    start = len(state.events)
    decide(state, "accept")
    assert events_since(state, start)[:2] == [
        ("accepted", {"fakes": 3}),
        ("bills_moved", {"giver": 0, "receiver": 1, "bills": 4, "fakes": 3}),
    ]
    assert split(state, 0) == (26, 0) and split(state, 1) == (31, 3)
    assert state.score(1) == 28000 and state.score(0) == 26000


def test_stake_fakes_bounds_count_the_staked_bills() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[2, 0])
    set_position(state, parent=1, hands=[(3, 2), (55, 0)])
    decide(state, "pins:1", "faces:none", "stake:5")
    assert option_ids(state) == ["fakes:2"]  # all five bills: both counterfeits must go in
    assert state.hand(0) == 0 and state.pot == 5


def test_hit_returns_the_stake_with_its_counterfeits_unseen_by_the_parent() -> None:
    state = new_state({"counterfeit": True, "first_parent": 1}, deal=[3, 0])
    set_position(state, parent=1, hands=[(27, 3), (30, 0)])
    decide(state, "pins:1", "faces:none", "stake:2", "fakes:2", "guess:1")
    assert split(state, 0) == (27, 3)
    parent_seen = events_since(state, 0, 1)
    assert all(kind not in ("stake_fakes",) for kind, _ in parent_seen)
    assert ("stake_returned", {"seat": 0, "bills": 2}) in parent_seen


# ----- configs and data ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "variants",
    [
        {"first_parent": 2},
        {"first_parent": True},
        {"first_parent": "left"},
        {"stake_cap": 0},
        {"stake_cap": "many"},
        {"max_parent_turns": 0},
        {"counterfeit": "maybe"},
        {"until_bankruptcy": 3},
        {"jokers": True},
    ],
)
def test_bad_configs_raise_config_error(variants: dict) -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(2, variants)


@pytest.mark.parametrize("players", [1, 3])
def test_only_two_players(players: int) -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(players)


def test_config_values_from_the_command_line() -> None:
    config = GAME.make_config(2, {"first_parent": "1", "stake_cap": "null", "counterfeit": "true", "max_parent_turns": "12"})
    assert dict(config.variants) == {
        "first_parent": 1,
        "stake_cap": None,
        "until_bankruptcy": False,
        "max_parent_turns": 12,
        "counterfeit": True,
    }


def raw_data() -> dict:
    return copy.deepcopy(load_component_json(PACKAGE, DATA_FILE))


def corrupt(mutate) -> dict:
    raw = raw_data()
    mutate(raw)
    return raw


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda raw: raw["possible_sums"][5].update(sums=[12, 13]), "possible_sums"),
        (lambda raw: raw["possible_sums"].pop(), "rows"),
        (lambda raw: raw["face_options"].pop(3), "face_options"),
        (lambda raw: raw["face_options"][4].update(sum=9), "wrong dice or sum"),
        (lambda raw: raw["face_options"][1].update(faces=[7], option="7"), "no 4-5-6 die"),
        (lambda raw: raw["bills"].update(total=70), "total"),
        (lambda raw: raw["counterfeit_bills"].update(counterfeit=5), r"genuine \+ counterfeit"),
        (lambda raw: raw["dice"].pop(), "dice"),
        (lambda raw: raw["payout_multiplier_by_k"].pop("6"), "payout_multiplier_by_k"),
        (lambda raw: raw["payout_multiplier_by_k"].update({"5": 0}), "multipliers"),
        (lambda raw: raw.update(parent_turns_per_player=0), "parent_turns_per_player"),
        (lambda raw: raw.update(id="deep_dive"), "not 'underground_dice'"),
    ],
)
def test_bad_component_data_is_rejected(mutate, message: str) -> None:
    with pytest.raises(ComponentDataError, match=message):
        parse_components(corrupt(mutate))


def test_the_shipped_data_file_is_valid() -> None:
    data = parse_components(raw_data())
    assert data.multipliers == {1: 1, 2: 2, 3: 3, 4: 4, 5: 10, 6: 10}
    assert len(data.face_options) == 20 and data.bills_per_player == 30 and data.counterfeit_count == 6


def test_every_random_game_keeps_sixty_bills_in_play_and_ends() -> None:
    for seed in range(60):
        variants = GAME.test_variants[seed % len(GAME.test_variants)]
        state = new_state(variants)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.hand(0) + state.hand(1) + state.pot == 60
            step(state, rng)
        assert state.hand(0) + state.hand(1) == 60 and state.pot == 0
        assert state.fakes[0] + state.fakes[1] + (state.set_aside_fakes or 0) == (6 if state.counterfeit else 0)
