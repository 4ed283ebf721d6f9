"""Positions you can trust: a loaded position opens a new log with one event, agrees with its config, offers only the
engine's options, and every impossible position is refused with all its problems, each naming field and rule."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from referee.engine import GameState, Option
from referee.games.magnificent.model import FIRST_SHOW
from referee.games.merchants.state import CHOOSE_DUNGEON, CHOOSE_TILE, Chip
from referee.local import play_local
from referee.position import (
    POSITION_EVENT,
    ConfigMismatchError,
    DerivedFieldError,
    ImpossiblePositionError,
    PositionError,
    initial_position,
    load_position,
    position_json,
    refresh,
)
from referee.registry import game_ids, get_game
from sdk.bot import Bot
from sdk.types import Request


def play_until(game_id: str, wanted: Callable[[GameState], bool], players: int | None = None, variants: dict[str, Any] | None = None, seed: int = 1) -> GameState:
    """The first state of a seeded random game (of this config) that `wanted` accepts, trying seeds in turn."""
    game = get_game(game_id)
    config = game.make_config(players, variants or {})
    for attempt in range(seed, seed + 30):
        rng = random.Random(attempt)
        state = game.new_initial_state(config)
        while not state.is_terminal():
            if wanted(state):
                return state
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_chance(rng.choices(outcomes, [o.probability for o in outcomes])[0].id)
            else:
                state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
        if wanted(state):
            return state
    raise AssertionError(f"no {game_id} state found")


def reload(state: GameState) -> GameState:
    """The state written to a position, through JSON text, and loaded back (checked)."""
    return load_position(json.loads(json.dumps(position_json(state))))


# ----- 1. a new log with exactly one event -------------------------------------------------------
OPENINGS: list[tuple[str, int | None, dict[str, Any]]] = [
    ("underground_dice", 2, {"first_parent": "0"}),
    ("underground_dice", 2, {"counterfeit": True, "first_parent": "1"}),
    ("fuji99", None, {}),
    ("deep_dive", 1, {}),
    ("deep_dive", 3, {}),
    ("merchants", 2, {}),
    ("magnificent", 2, {}),
]


@pytest.mark.parametrize(("game_id", "players", "variants"), OPENINGS, ids=[f"{g}-{p}-{'-'.join(v)}" for g, p, v in OPENINGS])
def test_a_loaded_position_opens_a_new_log_with_one_event_describing_it(game_id: str, players: int | None, variants: dict[str, Any]) -> None:
    start = load_position(initial_position(game_id, players, variants))
    assert [event.kind for event in start.events] == [POSITION_EVENT]
    assert start.events[0].data == {"view": start.public_view()} and start.events[0].audience is None
    middle = play_until(game_id, lambda s: len(s.events) > 12 and not s.is_terminal(), players, variants)
    loaded = reload(middle)
    assert [event.kind for event in loaded.events] == [POSITION_EVENT]
    assert loaded.events[0].data == {"view": middle.public_view()}


class _Listener(Bot):
    """Takes the first option; keeps the kinds of every event it is sent."""

    def __init__(self) -> None:
        self.kinds: list[str] = []

    def on_game_start(self, start: Any) -> None:  # noqa: ANN401
        self.kinds += [event.kind for event in start.events]

    def choose(self, request: Request) -> str:
        self.kinds += [event.kind for event in request.events]
        return request.options[0].id


def test_a_match_from_a_position_sends_the_bots_only_the_position_event_to_open() -> None:
    state = play_until("underground_dice", lambda s: s.turn_number >= 3 and s.phase == "set_pins", 2, {"first_parent": "0"})
    state.genuine = [20, 40]
    bots = [_Listener(), _Listener()]
    play_local("underground_dice", bots, seed=3, position=position_json(state))
    for bot in bots:
        assert bot.kinds[0] == POSITION_EVENT
        assert "game_start" not in bot.kinds
        assert bot.kinds.count(POSITION_EVENT) == 1


# ----- 2. config and state agree; options are the engine's ----------------------------------------
def test_a_state_disagreeing_with_its_config_is_refused_naming_both() -> None:
    data = initial_position("underground_dice", 2, {"stake_cap": 2})
    assert "stake_cap" not in data["state"]  # the config is the one place a variant is written
    data["state"]["stake_cap"] = None
    with pytest.raises(ConfigMismatchError, match=r"state field 'stake_cap' is null, but the config's stake_cap makes it 2") as caught:
        load_position(data)
    assert [(p.field, p.rule) for p in caught.value.problems] == [("stake_cap", "agrees with the config")]
    solo = initial_position("merchants", 1)
    solo["state"]["back_side"] = False
    with pytest.raises(ConfigMismatchError, match=r"'back_side' is false, but the config's personal_board_back"):
        load_position(solo)


def test_a_position_cannot_offer_an_option_the_engine_does_not() -> None:
    state = play_until("deep_dive", lambda s: s.phase == "at_depth" and s.depth == 3 and len(s.unseen[2]) > 0)
    data = position_json(state)
    assert "_options" not in data["state"]  # options are the engine's: a position never lists them
    face_down = state.data.tiles[state.unseen[2][0]].id
    fake = state.tile_options.take[state.unseen[2][0]]
    assert isinstance(fake, Option) and fake.id == f"take:{face_down}"
    from referee.position import _encode

    data["state"]["_options"] = _encode((fake,), "_options")
    with pytest.raises(DerivedFieldError, match=rf"_options offers 'take:{face_down}', which the engine does not offer"):
        load_position(json.loads(json.dumps(data)))
    assert f"take:{face_down}" not in [o.id for o in reload(state).legal_options(state.active)]


def test_merchants_options_follow_an_edited_hand() -> None:
    state = play_until("merchants", lambda s: s.phase == CHOOSE_TILE, 2)
    hand = state.players_state[0].bundle.tiles  # type: ignore[union-attr]
    state.legal_options(0)  # fills the engine's cache with this hand's options
    swapped_out, swapped_in = hand[0], state.supply[0]
    hand[0], state.supply[0] = swapped_in, swapped_out
    options = [o.id for o in reload(state).legal_options(0)]
    assert any(swapped_in in option for option in options) and not any(swapped_out in option for option in options)
    assert [o.id for o in refresh(state).legal_options(0)] == options  # an in-place edit, refreshed


# ----- 3. every impossible position refused, each problem named -----------------------------------
def _merchants_shop(state: GameState, cells: list[tuple[int, int]]) -> None:
    """Seat 0's shop laid on these cells with tiles from the supply (its own tiles back to the supply)."""
    player = state.players_state[0]
    state.supply.extend(tile for tile, _ in player.shop.values())
    player.shop = {cell: (state.supply.pop(0), 0) for cell in cells}


def _merchants_mid(players: int = 2, variants: dict[str, Any] | None = None) -> GameState:
    return play_until("merchants", lambda s: s.phase == CHOOSE_TILE and len(s.players_state[0].shop) >= 2, players, variants)


def _used_chip(state: GameState) -> None:
    player = state.players_state[0]
    player.unused_chips.remove("dragon")
    player.chips.append(Chip(1, "dragon", False, 0))


def _magnificent_builder() -> GameState:
    return play_until("magnificent", lambda s: any(p.tiles for p in s.players_state) and not s.is_terminal(), 2)


def _camp_zero(state: GameState) -> None:
    next(p for p in state.players_state if p.tiles).camp = 0


def _hats_together(state: GameState) -> None:
    state.players_state[0].hats = [FIRST_SHOW + 5, -1]
    state.players_state[1].hats = [FIRST_SHOW + 5, -1]


IMPOSSIBLE: list[tuple[str, Callable[[], GameState], Callable[[GameState], None], str]] = [
    ("merchants 5-wide shop", _merchants_mid, lambda s: _merchants_shop(s, [(0, c) for c in range(5)]), r"shop is 1 rows by 5 columns, but a shop is at most 4 by 4"),
    ("merchants disconnected shop", _merchants_mid, lambda s: _merchants_shop(s, [(0, 0), (0, 1), (2, 2)]), r"shop is not connected: \(2, 2\)"),
    ("merchants shop without (0,0)", _merchants_mid, lambda s: _merchants_shop(s, [(0, 1), (1, 1)]), r"shop has no tile at \(0,0\)"),
    (
        "merchants first game with D6",
        lambda: play_until("merchants", lambda s: s.d_card is not None, 3, {"first_game": True}),
        lambda s: setattr(s, "d_card", "D6"),
        r"d_card is 'D6', but the config's first_game uses only the first-game D cards",
    ),
    (
        "merchants round-1 chip choice with a chip used",
        lambda: play_until("merchants", lambda s: s.phase == CHOOSE_DUNGEON and s.round == 1, 2),
        _used_chip,
        r"players_state\[0\] has used 1 chips in round 1",
    ),
    ("magnificent camp bitmask 0 with a tile", _magnificent_builder, _camp_zero, r"camp is 0, but its \d+ tiles cover \d+"),
    ("magnificent 30 orange dice", _magnificent_builder, lambda s: s.main_tent.update({"O:4": 30}), r"\d+ O dice in the main tent and on master cards, but 2 players roll \d+"),
    ("magnificent two hats on a show space", _magnificent_builder, _hats_together, r"2 hats are on show space 6, which holds one"),
    ("magnificent 7 gems of a colour", _magnificent_builder, lambda s: s.players_state[0].gems.__setitem__(1, 7), r"gems G is 7, but a player stores at most 3 gems of a colour"),
    ("magnificent 12 markers", _magnificent_builder, lambda s: setattr(s.players_state[1], "markers", 12), r"markers is 12, but a player owns at most 8 trainer markers"),
    (
        "underground dice counterfeits past the deal, dealt_fakes null",
        lambda: play_until("underground_dice", lambda s: s.phase == "stake", 2, {"counterfeit": True}),
        lambda s: setattr(s, "dealt_fakes", [None, None]),
        r"comes after the deal, but dealt_fakes is \[None, None\]",
    ),
]


@pytest.mark.parametrize(("name", "make", "corrupt", "message"), IMPOSSIBLE, ids=[case[0] for case in IMPOSSIBLE])
def test_an_impossible_position_of_the_issue_is_refused(name: str, make: Callable[[], GameState], corrupt: Callable[[GameState], None], message: str) -> None:
    state = make()
    reload(state)  # the real position loads
    corrupt(state)
    with pytest.raises(ImpossiblePositionError, match=message) as caught:
        reload(state)
    assert all(problem.field and problem.rule for problem in caught.value.problems)


def test_a_merchants_solo_game_with_back_side_off_is_refused() -> None:
    data = position_json(play_until("merchants", lambda s: s.round == 1, 1))
    data["state"]["back_side"] = False
    with pytest.raises(ConfigMismatchError, match="back_side"):
        load_position(data)


def test_every_problem_is_reported_at_once_each_naming_field_and_rule() -> None:
    state = _magnificent_builder()
    state.players_state[0].gems[0] = 9
    state.players_state[1].coins = -4
    state.main_tent["G:2"] = 40
    with pytest.raises(PositionError) as caught:
        reload(state)
    fields = [problem.field for problem in caught.value.problems]
    assert "players_state[0].gems O" in fields and "players_state[1].coins" in fields and "main_tent" in fields
    assert str(caught.value).startswith(f"position: {len(fields)} problems: ")
    assert "\n" not in str(caught.value)


# ----- the property: every state of random play round-trips; every single-field corruption is refused
def _first(items: list[Any]) -> Any:  # noqa: ANN401
    return next(iter(items))


CORRUPTIONS: dict[str, list[tuple[str, Callable[[dict[str, Any]], bool]]]] = {
    # Each corruption edits one field of a position's JSON state, or says (False) it does not apply to this one.
    "underground_dice": [
        ("genuine +1", lambda s: s["genuine"].__setitem__(0, s["genuine"][0] + 1) or True),
        ("pot_fakes > pot", lambda s: s.update(pot_fakes=s["pot"] + 1) or True),
        ("parent 2", lambda s: s.update(parent=2) or True),
        ("p 4", lambda s: s.update(p=4) or True),
        ("phase", lambda s: s.update(phase="dance") or True),
    ],
    "fuji99": [
        ("card twice", lambda s: bool(s["deck"]) and (s["discard"].append(s["deck"][0]) or True)),
        ("card lost", lambda s: bool(s["deck"]) and (s["deck"].pop() or True)),
        ("pos past the goal", lambda s: s["pos"].__setitem__(0, 10_000) or True),
        ("bag negative", lambda s: s["bags"][0].__setitem__(1, -1) or True),
        ("active", lambda s: s.update(active=7) or True),
    ],
    "deep_dive": [
        ("tile twice", lambda s: any(s["unseen"]) and (s["discarded"].append(next(t for d in s["unseen"] for t in d)) or True)),
        ("face_down", lambda s: s["face_down"].__setitem__(0, s["face_down"][0] + 1) or True),
        ("depth", lambda s: s.update(depth=9) or True),
        ("captured unknown", lambda s: s["captured"][0].append(5000) or True),
    ],
    "merchants": [
        ("tile twice", lambda s: bool(s["supply"]) and (s["supply"].append(s["supply"][0]) or True)),
        ("card lost", lambda s: bool(s["reputation_deck"]) and (s["reputation_deck"].pop() or True)),
        ("round", lambda s: s.update(round=4) or True),
        ("chip unknown", lambda s: s["players_state"][0]["fields"]["unused_chips"].append("moon") or True),
    ],
    "magnificent": [
        ("poster twice", lambda s: bool(s["poster_deck"]) and (s["poster_discard"].append(s["poster_deck"][0]) or True)),
        ("gems", lambda s: s["players_state"][0]["fields"]["gems"].__setitem__(2, 4) or True),
        ("markers", lambda s: s["players_state"][0]["fields"].update(markers=9) or True),
        ("wagon", lambda s: s["wagons"].update(O=99) or True),
        ("start player", lambda s: s.update(start_player=5) or True),
    ],
}


@pytest.mark.parametrize("game_id", game_ids())
def test_random_play_round_trips_and_every_single_field_corruption_is_refused(game_id: str) -> None:
    game = get_game(game_id)
    rng = random.Random(29)
    state = game.new_initial_state(game.make_config())
    refused = 0
    step = 0
    while True:
        data = json.loads(json.dumps(position_json(state)))
        back = load_position(json.loads(json.dumps(data)))
        assert json.loads(json.dumps(position_json(back))) == data
        if step % 7 == 0:
            for name, corrupt in CORRUPTIONS[game_id]:
                broken = json.loads(json.dumps(data))
                if corrupt(broken["state"]):
                    with pytest.raises(PositionError):
                        load_position(broken)
                    refused += 1
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices(outcomes, [o.probability for o in outcomes])[0].id)
        else:
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
        step += 1
    assert refused >= len(CORRUPTIONS[game_id])


# ----- 4. writing positions by hand: piles derived, a turn's start named ---------------------------
FILLED_CASES = [("fuji99", ["deck"]), ("deep_dive", ["unseen"]), ("merchants", ["supply", "reputation_deck"]), ("magnificent", ["supply", "poster_deck", "boards_left"])]


def _pile(value: Any) -> Any:  # noqa: ANN401
    """A pile regardless of its order (a list of lists per depth stays per depth)."""
    if isinstance(value, list) and value and isinstance(value[0], list):
        return [sorted(map(str, item)) for item in value]
    return sorted(map(str, value)) if isinstance(value, list) else value


@pytest.mark.parametrize(("game_id", "piles"), FILLED_CASES, ids=[g for g, _ in FILLED_CASES])
def test_a_pile_left_out_is_what_is_placed_nowhere_else(game_id: str, piles: list[str]) -> None:
    for state in [play_until(game_id, lambda s, k=k: len(s.events) > k and not s.is_terminal(), seed=k) for k in (5, 40)]:
        data = json.loads(json.dumps(position_json(state)))
        for name in piles:
            del data["state"][name]
        loaded = load_position(data)
        for name in piles:
            assert _pile(position_json(loaded)["state"][name]) == _pile(position_json(state)["state"][name]), name


def test_a_position_can_name_the_start_of_a_seats_turn() -> None:
    data = initial_position("fuji99", 3)
    data["state"].update(phase="turn_start", active=2, pos=[10, 20, 30], round=4, turns_taken=[3, 3, 3])
    del data["state"]["deck"]
    fuji = load_position(data)
    assert fuji.phase == "draw_count" and fuji.deciding_seats() == (2,) and fuji.m == 30
    assert [event.kind for event in fuji.events] == [POSITION_EVENT]
    dive = play_until("deep_dive", lambda s: s.phase == "at_depth" and s.round >= 2, 3)
    data = position_json(dive)
    data["state"].update(phase="turn_start", depth=0, flipped=None)
    dived = load_position(data)
    assert dived.deciding_seats() == (dive.active,) and dived.phase in ("start", "at_depth") and dived.depth in (0, 1)
    assert [event.kind for event in dived.events] == [POSITION_EVENT]


def test_tuples_may_be_written_as_lists() -> None:
    data = initial_position("underground_dice", 2, {"first_parent": "1"})
    data["state"]["used_dice"] = [["pin", 3]]
    data["state"]["p"] = 2
    assert load_position(data).used_dice == (("pin", 3),)


def test_a_camp_bitmask_left_out_is_what_its_tiles_cover() -> None:
    state = _magnificent_builder()
    data = json.loads(json.dumps(position_json(state)))
    for record in data["state"]["players_state"]:
        del record["fields"]["camp"]
    loaded = load_position(data)
    assert [p.camp for p in loaded.players_state] == [p.camp for p in state.players_state]
    assert any(p.camp for p in loaded.players_state)
