"""Merchants of B99 rules: setup and flags, draft, reputation, scoring, hidden information, data validation."""

from __future__ import annotations

import copy
import json
import random
from importlib import resources

import pytest

from referee.errors import ComponentDataError, ConfigError, IllegalOptionError
from referee.games.merchants import GAME
from referee.games.merchants.data import DUNGEONS, parse_data
from referee.games.merchants.state import (
    CHOOSE_DUNGEON,
    CHOOSE_ROTATION,
    CHOOSE_TARGET,
    CHOOSE_TILE,
    INITIAL_ROTATION,
    RETURN_REPUTATION,
    MerchantsState,
)
from tests.games.merchants.helpers import at_decision, new_state, play_until


def random_play(state: MerchantsState, seed: int) -> MerchantsState:
    rng = random.Random(seed)
    return play_until(state, MerchantsState.is_terminal, rng=rng, decide=lambda s, seat: rng.choice(s.legal_options(seat)).id)


# ----- config and setup --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (0, {}),
        (5, {}),
        (2, {"first_game": True, "floor99": "dragon"}),
        (2, {"floor99": "attic"}),
        (2, {"floor99_face": "C"}),
        (2, {"first_game": "maybe"}),
        (2, {"expansion": True}),
    ],
)
def test_bad_configs_raise_config_error(players: int, variants: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        GAME.make_config(players, variants)


def test_normal_setup_deals_one_ab_card_per_slot_with_the_slot_face() -> None:
    state = play_until(new_state(2), at_decision(INITIAL_ROTATION))
    for dungeon in DUNGEONS:
        a_card, a_face = state.layout[(dungeon, "A")]
        b_card, b_face = state.layout[(dungeon, "B")]
        assert (a_face, b_face) == ("A", "B") and a_card != b_card
        assert {a_card, b_card} <= set(state.data.ab_cards_of(dungeon))
    assert state.c_cards == {} and state.d_card is None and state.grey == {}
    layout = [e for e in state.events if e.kind == "setup_layout"]
    assert len(layout) == 1 and len(layout[0].data["rows"]) == 3
    for seat in range(2):
        assert list(state.players_state[seat].shop) == [(0, 0)]
        assert [o.id for o in state.legal_options(seat)] == ["rotation:0", "rotation:90", "rotation:180", "rotation:270"]


def test_first_game_uses_the_fixed_layout_and_only_d1_to_d3() -> None:
    state = play_until(new_state(3, first_game=True), lambda s: s.chance_step() == ("d_card", None))
    layout = state.data.first_game_layout
    for dungeon in DUNGEONS:
        assert state.layout[(dungeon, "A")] == (layout[dungeon]["A"], "A")
        assert state.layout[(dungeon, "B")] == (layout[dungeon]["B"], "B")
    assert [o.id for o in state.chance_outcomes()] == ["D1", "D2", "D3"]


def test_floor99_card_takes_the_slot_of_its_face() -> None:
    state = play_until(new_state(2, floor99="castle", floor99_face="B"), at_decision(INITIAL_ROTATION))
    assert state.layout[("castle", "B")] == ("CA99", "B")
    assert state.layout[("castle", "A")][0] in state.data.ab_cards_of("castle")
    state = new_state(2, floor99="random", floor99_face="random")
    assert [o.id for o in state.chance_outcomes()] == ["dragon", "castle", "swamp"]
    state.apply_chance("swamp")
    assert [o.id for o in state.chance_outcomes()] == ["A", "B"]
    state.apply_chance("A")
    play_until(state, at_decision(INITIAL_ROTATION))
    assert state.layout[("swamp", "A")] == ("SW99", "A")


def test_tile_draws_are_chance_nodes_over_what_remains() -> None:
    state = play_until(new_state(2), lambda s: s.chance_step() == ("initial_tile", 0))
    assert len(state.chance_outcomes()) == 72
    state.apply_chance("R01")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 71 and "R01" not in [o.id for o in outcomes]
    assert abs(sum(o.probability for o in outcomes) - 1) < 1e-9


# ----- draft ------------------------------------------------------------------------------
def test_solo_draft_draws_five_to_one_and_removes_the_rest() -> None:
    state = play_until(new_state(1, personal_board_back=False), at_decision(CHOOSE_DUNGEON, 1))
    assert state.back_side
    removed = [e.data["tiles"] for e in state.events if e.kind == "solo_removed"]
    assert [len(tiles) for tiles in removed] == [4, 3, 2, 1]
    drawn = [e.data["count"] for e in state.events if e.kind == "hand_drawn"]
    assert drawn == [5, 4, 3, 2, 1]
    assert len(state.players_state[0].shop) + len(state.players_state[0].discards) == 6
    assert len(state.supply) == 72 - 1 - 15


def test_every_player_places_sixteen_tiles() -> None:
    for players in (1, 2, 4):
        state = random_play(new_state(players), seed=players)
        for player in state.players_state:
            assert len(player.shop) + len(player.discards) == 16
            rows = [r for r, _ in player.shop]
            cols = [c for _, c in player.shop]
            assert max(rows) - min(rows) < 4 and max(cols) - min(cols) < 4


def test_replacing_a_tile_discards_it_and_costs_a_star() -> None:
    def decide(state: MerchantsState, seat: int) -> str | None:
        if state.decision_name(seat) == CHOOSE_TARGET and state.round == 1 and state.pick == 1 and seat == 0:
            return "replace:0,0"
        return None

    state = play_until(new_state(2), lambda s: s.round == 1 and s.pick == 2, decide=decide)
    initial = next(e.data["tile"] for e in state.events if e.kind == "initial_tile" and e.data["seat"] == 0)
    player = state.players_state[0]
    assert player.discards == [initial]
    placed = [e.data for e in state.events if e.kind == "placed" and e.data["mode"] == "replace"]
    assert placed[0]["discarded"] == initial and (placed[0]["row"], placed[0]["col"]) == (0, 0)
    assert state.public_view()["seats"][0]["discards"] == [initial]


def test_answers_stay_secret_until_every_placement_is_revealed() -> None:
    state = play_until(new_state(3), at_decision(CHOOSE_TILE, 1))
    start = len(state.events)
    tile = state.legal_options(0)[-1].payload["tile"]
    state.apply_decisions({0: f"tile:{tile}", 1: state.legal_options(1)[0].id, 2: state.legal_options(2)[0].id})
    assert state.private_view(0)["pending_tile"] == tile
    for seat in (1, 2, None):
        view = state.private_view(seat) if seat is not None else state.public_view()
        assert tile not in json.dumps(view)
        own = state.players_state[seat].pending_tile if seat is not None else None
        assert view.get("pending_tile") == own
    targets = {seat: state.legal_options(seat)[-1 if seat == 0 else 0] for seat in range(3)}
    state.apply_decisions({seat: option.id for seat, option in targets.items()})
    for seat in range(3):
        assert state.private_view(seat)["pending_target"] == dict(targets[seat].payload)
    assert "pending_target" not in state.public_view() and "pending_tile" not in state.public_view()
    assert len(state.events) == start
    state.apply_decisions({seat: "rotation:90" for seat in range(3)})
    placed = [e.data for e in state.events.since(start) if e.kind == "placed"]
    assert [p["seat"] for p in placed] == [0, 1, 2] and placed[0]["tile"] == tile


def test_a_wrong_option_is_refused() -> None:
    state = play_until(new_state(2), at_decision(CHOOSE_TILE, 1))
    with pytest.raises(IllegalOptionError):
        state.apply_decisions({0: "tile:NOPE", 1: state.legal_options(1)[0].id})


@pytest.mark.parametrize(("phase", "wrong"), [(CHOOSE_TILE, "tile:NOPE"), (CHOOSE_TARGET, "place:9,9"), (CHOOSE_ROTATION, "rotation:45")])
def test_a_wrong_option_is_refused_once_every_seats_options_are_listed_and_nothing_changes(phase: str, wrong: str) -> None:
    """Answers are checked by look-up once all options are listed (as a search does): a wrong one still fails whole."""
    state = play_until(new_state(3), at_decision(phase, 2))
    listed = {seat: [o.id for o in state.legal_options(seat)] for seat in range(3)}
    before = (state.public_view(), [state.private_view(seat) for seat in range(3)], len(state.events))
    for seat in range(3):
        choices = {other: listed[other][0] for other in range(3)}
        choices[seat] = wrong
        with pytest.raises(IllegalOptionError):
            state.apply_decisions(choices)
        for others in [option for option in listed[(seat + 1) % 3] if option not in listed[seat]][:1]:
            with pytest.raises(IllegalOptionError):  # another seat's option (a tile of its hand), not this one's
                state.apply_decisions({**choices, seat: others})
    assert (state.public_view(), [state.private_view(seat) for seat in range(3)], len(state.events)) == before
    assert {seat: [o.id for o in state.legal_options(seat)] for seat in range(3)} == listed
    state.apply_decisions({seat: listed[seat][-1] for seat in range(3)})
    assert state.decision_name(0) != phase


# ----- reputation and rounds ---------------------------------------------------------------
def test_reputation_hands_grow_and_returned_cards_stay_secret() -> None:
    state = play_until(new_state(2), at_decision(RETURN_REPUTATION, 2))
    assert [len(p.reputation) for p in state.players_state] == [3, 3]
    options = [o.id for o in state.legal_options(0)]
    assert options == sorted(options) and len(options) == 3
    returned = state.legal_options(0)[1].payload["card"]
    start = len(state.events)
    state.apply_decisions({0: f"return:{returned}", 1: state.legal_options(1)[0].id})
    assert returned not in json.dumps(state.private_view(1)) and returned not in json.dumps(state.public_view())
    assert all(returned not in json.dumps(dict(e.data)) for e in state.events_for(1, start))
    assert all(returned not in json.dumps(dict(e.data)) for e in state.events_for(None, start))
    assert state.private_view(0)["returned_reputation"] == [returned]
    play_until(state, at_decision(RETURN_REPUTATION, 3))
    assert [len(p.reputation) for p in state.players_state] == [4, 4]
    random_play(state, seed=3)
    assert [len(p.reputation) for p in state.players_state] == [3, 3]
    assert [len(p.returned) for p in state.players_state] == [2, 2]
    assert returned not in json.dumps(state.private_view(1))


def test_c_and_d_cards_are_hidden_until_round_two() -> None:
    state = play_until(new_state(2), at_decision(CHOOSE_DUNGEON, 1))
    view = state.private_view(0)
    assert all("c_card" not in row for row in view["layout"]) and "d_card" not in view
    play_until(state, at_decision(RETURN_REPUTATION, 2))
    view = state.public_view()
    assert all(row["c_kind"] in ("sword", "staff", "shield", "armor") for row in view["layout"])
    assert view["d_card"] == state.d_card
    kinds = {row["c_kind"] for row in view["layout"]} | {view["d_kind"]}
    assert len(kinds) == 4
    revealed = [e for e in state.events if e.kind == "trends_revealed"]
    assert len(revealed) == 1 and revealed[0].audience is None


def test_each_dungeon_is_scored_once_and_round_three_is_forced() -> None:
    state = play_until(new_state(2), at_decision(CHOOSE_DUNGEON, 1))
    assert [o.id for o in state.legal_options(0)] == ["dungeon:dragon", "dungeon:castle", "dungeon:swamp"]
    state.apply_decisions({0: "dungeon:swamp", 1: "dungeon:dragon"})
    chips = [e.data for e in state.events if e.kind == "chips_revealed"]
    assert chips[-1]["choices"] == [{"seat": 0, "dungeon": "swamp"}, {"seat": 1, "dungeon": "dragon"}]
    scored = [e.data for e in state.events if e.kind == "round_scored"][-1]
    assert [len(s["cards"]) for s in scored["seats"]] == [2, 2]
    play_until(state, at_decision(CHOOSE_DUNGEON, 2))
    assert [o.id for o in state.legal_options(0)] == ["dungeon:dragon", "dungeon:castle"]
    state.apply_decisions({0: "dungeon:castle", 1: "dungeon:swamp"})
    scored = [e.data for e in state.events if e.kind == "round_scored"][-1]
    assert [len(s["cards"]) for s in scored["seats"]] == [3, 3]
    play_until(state, at_decision(CHOOSE_DUNGEON, 3))
    assert [o.id for o in state.legal_options(0)] == ["dungeon:dragon"]
    state.apply_decisions({0: "dungeon:dragon", 1: "dungeon:castle"})
    scored = [e.data for e in state.events if e.kind == "round_scored"][-1]
    assert [len(s["cards"]) for s in scored["seats"]] == [4, 4]
    assert scored["seats"][0]["cards"][-1]["card"] == state.d_card == scored["seats"][1]["cards"][-1]["card"]
    assert state.is_terminal()


def test_front_side_thumbs_are_stars_and_back_side_thumbs_are_points() -> None:
    for back in (False, True):
        for seed in range(6):
            state = random_play(new_state(2, personal_board_back=back), seed)
            for player in state.players_state:
                final = player.final
                assert final is not None
                achieved = sum(state.data.reputation[r["card"]].stars for r in final["reputation"] if r["achieved"])
                thumbs = final["thumbs"]
                assert final["stars"] == (0 if back else 3 * thumbs) - final["discards"] + achieved
                expected = sum({1: 2, 2: 3, 3: 4}[c.round] for c in player.chips if c.thumb) if back else 0
                assert final["thumb_points"] == expected
                assert final["total"] == (
                    final["trend_points"] + final["thumb_points"] + final["attribute_points"]
                    + final["circle_points"] + final["star_points"]
                )


def test_final_scoring_reveals_every_reputation_hand() -> None:
    state = random_play(new_state(3), seed=11)
    final = [e for e in state.events if e.kind == "final_scoring"]
    assert len(final) == 1 and final[0].audience is None
    for seat, entry in enumerate(final[0].data["seats"]):
        assert sorted(r["card"] for r in entry["reputation"]) == sorted(state.players_state[seat].reputation)
    result = state.result()
    assert list(result.ranks) == final[0].data["ranks"]


# ----- hidden information and search support ----------------------------------------------
def test_views_hold_only_what_the_seat_may_know() -> None:
    state = play_until(new_state(3), at_decision(CHOOSE_TILE, 1))
    for seat in range(3):
        view = state.private_view(seat)
        assert view["hand"] == sorted(state.players_state[seat].bundle.tiles)
        assert view["reputation_hand"] == state.players_state[seat].reputation
        for other in range(3):
            if other == seat:
                continue
            for tile in state.players_state[other].bundle.tiles:
                assert tile not in json.dumps(view)
            assert view["seats"][other]["hand_size"] == 5
            assert view["seats"][other]["reputation_count"] == 1
    public = state.public_view()
    assert "hand" not in public and "reputation_hand" not in public and "seat" not in public


def test_determinize_keeps_what_the_seat_knows_and_redraws_the_rest() -> None:
    state = play_until(new_state(3), at_decision(CHOOSE_TARGET, 1))
    rng = random.Random(1)
    others = set()
    for _ in range(8):
        world = state.determinize(0, rng)
        assert world.private_view(0) == state.private_view(0)
        assert world.players_state[0].bundle.tiles == state.players_state[0].bundle.tiles
        hand = tuple(sorted(world.players_state[1].bundle.tiles))
        assert world.players_state[1].pending_tile in hand
        others.add(hand)
        seen = set(world.supply) | {t for p in world.players_state for t in p.bundle.tiles}
        assert len(seen) == len(world.supply) + 15
    assert len(others) > 1


# ----- component data ----------------------------------------------------------------------
def raw_data() -> dict[str, object]:
    text = resources.files("referee.games.merchants").joinpath("merchants.json").read_text(encoding="utf-8")
    return json.loads(text)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d["tiles"].pop(), "72 coloured tiles"),
        (lambda d: d["tiles"][0].update(colour="green"), "colour"),
        (lambda d: d["tiles"][0].update(halves=["N", "Q"]), "halves"),
        (lambda d: d["reputation_cards"][0].update(hearts=22), "hearts"),
        (lambda d: d["reputation_cards"][0]["condition"].update(type="vibes"), "condition"),
        (lambda d: d["ab_cards"][0]["A"].update(type="spiral"), "unknown type"),
        (lambda d: d["first_game_ab_layout"]["dragon"].update(A="CA1"), "first-game"),
        (lambda d: d["grey_tiles"].pop(), "grey"),
        (lambda d: d.pop("magic_circle_points"), "magic_circle_points"),
        (lambda d: d["c_cards"][1]["face"].update(pattern=["KX"]), "token"),
    ],
)
def test_bad_component_data_is_rejected(damage: object, message: str) -> None:
    data = copy.deepcopy(raw_data())
    damage(data)  # type: ignore[operator]
    with pytest.raises(ComponentDataError, match=message):
        parse_data(data)


def test_shipped_component_data_matches_the_spec_counts() -> None:
    data = parse_data(raw_data())
    assert len(data.tiles) == 72 and len(data.grey_kinds) == 4
    assert len(data.ab_cards) == 12 and len(data.floor99_cards) == 3
    assert len(data.c_cards) == 6 and len(data.d_cards) == 6 and len(data.reputation) == 22
    for dungeon in DUNGEONS:
        types = sorted(
            (face.type, face.min_size if face.type == "groups" else 0)
            for card in data.ab_cards.values() if card.dungeon == dungeon
            for face in card.faces.values()
        )
        assert len(set(types)) == 8


def test_a_seats_world_cut_to_its_own_events_plays_on_to_the_end() -> None:
    from sdk.forward import seat_world

    state = play_until(new_state(3), at_decision(CHOOSE_TILE, 2), rng=random.Random(4))
    world = seat_world(state, 1, random.Random(5))
    random_play(world, 6)
    assert world.is_terminal() and [event.kind for event in world.events][-1] == "final_scoring"
    seen = state.events_for(1)
    assert [event.kind for event in world.events][: len(seen)] == [event.kind for event in seen]
