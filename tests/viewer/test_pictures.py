"""Pictures of every game's table: well-formed SVG, every seat's area shown, nothing beyond the view drawn."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree

import pytest

from referee.viewer.pictures import draw_view
from tests.viewer.games import CONFIGS, play_states

SVG = "{http://www.w3.org/2000/svg}"


def seat_areas(picture: str) -> set[str]:
    root = ElementTree.fromstring(picture)
    return {node.attrib["data-seat-area"] for node in root.iter() if "data-seat-area" in node.attrib}


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pictures_at_start_middle_and_end_show_every_seat(game_id: str, players: int) -> None:
    states = play_states(game_id, players)
    for state in (states[0], states[len(states) // 2], states[-1]):
        for seat in [None, *range(players)]:
            view = state.public_view() if seat is None else state.private_view(seat)
            picture = draw_view(game_id, view)
            assert seat_areas(picture) >= {str(s) for s in range(players)}, (game_id, players, seat)
            assert picture == draw_view(game_id, view), "a picture is a function of its view"


@pytest.mark.parametrize(("game_id", "players"), [c for c in CONFIGS if c[1] > 1])
def test_pictures_leak_no_other_seats_secrets(game_id: str, players: int) -> None:
    """Two states differing only in what seat 0 cannot know draw byte-identical pictures for seat 0 and spectators."""
    states = play_states(game_id, players, seed=11)
    rng = random.Random(3)
    checked = 0
    for state in states[1 :: max(1, len(states) // 12)]:
        if state.is_terminal():
            continue
        twin = state.determinize(0, rng)
        assert draw_view(game_id, twin.private_view(0)) == draw_view(game_id, state.private_view(0))
        assert draw_view(game_id, twin.public_view()) == draw_view(game_id, state.public_view())
        checked += 1
    assert checked >= 5


def test_a_seat_sees_its_own_secret_that_others_do_not() -> None:
    """Merchants: the draft hand is on its owner's picture and on no one else's."""
    states = play_states("merchants", 2)
    state = next(s for s in states if s.private_view(0).get("hand"))
    tile = state.private_view(0)["hand"][0]
    assert f'data-tile="{tile}"' in draw_view("merchants", state.private_view(0))
    assert f'data-keys="tile:{tile}"' not in draw_view("merchants", state.private_view(1))
    assert f'data-keys="tile:{tile}"' not in draw_view("merchants", state.public_view())


#: Options a person makes by pointing at the table: each must be a clickable part of the seat's picture.
POINTED = {
    "deep_dive": ("take", "retreat_take", "flip", "rock", "keep"),
    "fuji99": ("use",),
    "merchants": ("tile", "place", "replace", "return"),
    "magnificent": ("die", "cell", "tile", "display", "slot"),
}


@pytest.mark.parametrize("game_id", sorted(POINTED))
def test_options_that_point_at_the_table_are_clickable_on_the_picture(game_id: str) -> None:
    from referee.registry import get_game

    players = min(get_game(game_id).max_players, 3)
    states = play_states(game_id, players, seed=1)
    seen = set()
    for state in states[:: max(1, len(states) // 50)]:
        if state.is_terminal() or state.is_chance_node():
            continue
        for seat in state.deciding_seats():
            root = ElementTree.fromstring(draw_view(game_id, state.private_view(seat)))
            keys = {key for node in root.iter() for key in node.attrib.get("data-keys", "").split()}
            for option in state.legal_options(seat):
                kind = option.id.split(":")[0]
                if kind in POINTED[game_id]:
                    assert option.id in keys, (game_id, seat, option.id)
                    seen.add(kind)
    assert seen, f"{game_id}: no pointed option was met"


def test_underground_dice_counts_one_bill_in_the_singular() -> None:
    """A hand, stake, pot or payment of one bill reads "1 bill" (not "1 bills"); more read in the plural."""
    state = play_states("underground_dice", 2)[0]
    view = dict(state.public_view())
    view["hands"] = [dict(hand) for hand in view["hands"]]
    view["hands"][0]["bills"], view["hands"][1]["bills"] = 1, 59
    view["stake"], view["pot"] = 1, 1
    view["transfer"] = {"giver": 0, "receiver": 1, "amount": 1, "from_stake": True}
    picture = draw_view("underground_dice", view)
    assert "1 bills" not in picture
    assert ">1 bill<" in picture and "stake: 1 bill<" in picture and "pot: 1 bill<" in picture and ">59 bills<" in picture
    assert "pays seat 1 1 bill (from the stake)" in picture
