"""Merchants of B99's own writers (referee/games/merchants/wire.py and event_wire.py) write exactly protobuf's bytes.

Events: the draft's and the rounds' kinds are written by the game's wire from their data, the others by the
shared writer; every event of random games of every player count and variant, under sequence numbers of one
and two bytes, none, and sent again under another, is compared with protobuf's serialization of the arena
Event, and so are events whose data are not the engine's (left to the shared writer, which says what is wrong).
Views: what the writer keeps per seat (its hand, its reputation cards) and per board token (the board with its
hand size and reputation count) is found again only where it still holds, with several games interleaved.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from google.protobuf import any_pb2

import b99.arena_pb2 as arena_pb2
from referee import playout
from referee.engine import Event
from referee.games.merchants.state import MerchantsState
from referee.games.merchants.wire import WIRE
from referee.registry import get_game
from referee.wire import WireError, fill, get_wire

GAME = get_game("merchants")


def _packed(message: Any) -> any_pb2.Any:  # noqa: ANN401 - a protobuf message
    result = any_pb2.Any()
    result.Pack(message)
    return result


def _expected(events: list[tuple[int, Event]]) -> bytes:
    return arena_pb2.DecisionRequest(
        events=[
            arena_pb2.Event(sequence=index, kind=event.kind, data=_packed(fill(WIRE.event(), {event.kind: event.data})))
            for index, event in events
        ]
    ).SerializeToString()


def _game_events(players: int, variant: dict[str, Any], rng: random.Random) -> list[Event]:
    state = GAME.new_initial_state(GAME.make_config(players, variant))
    while not state.is_terminal():
        playout.step(state, rng)
    return list(state.events)


def test_the_games_wire_writes_its_events() -> None:
    """The game's own writer takes its kinds (a placement here) and leaves others to the shared writer."""
    wire = get_wire("merchants")
    assert wire is WIRE and wire.write_event is not None
    events = _game_events(2, {}, random.Random(1))
    placed = next(event for event in events if event.kind == "placed")
    whole, tail_start = wire.write_event(placed, 3)
    assert tail_start > 0 and whole == _expected([(3, placed)])
    final = next(event for event in events if event.kind == "final_scoring")
    assert wire.write_event(final, 3) == (b"", -1)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_events_are_protobufs_bytes_under_any_sequence_number(players: int) -> None:
    rng = random.Random(players)
    kinds = set()
    for variant in GAME.test_variants:
        events = _game_events(players, dict(variant), rng)
        kinds.update(event.kind for event in events)
        for offset in (0, 1, 200, 4090):  # no sequence field for 0; one and two bytes; beyond the table of numbers
            pairs = [(index + offset, event) for index, event in enumerate(events)]
            for start in range(0, len(pairs), 6):
                chunk = pairs[start:start + 6]
                assert WIRE.events_fields(chunk) == _expected(chunk)
                assert WIRE.events_fields(chunk) == _expected(chunk)  # found again as written
                moved = [(index + 1, event) for index, event in chunk]  # the same events under other numbers
                assert WIRE.events_fields(moved) == _expected(moved)
    assert {"placed", "hand_tiles", "reputation_cards", "returned_card", "round_scored", "final_scoring"} <= kinds
    assert ("hand_passed" in kinds) == (players > 1) and ("solo_removed" in kinds) == (players == 1)


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("placed", {"seat": 1, "tile": "T01", "row": -3, "col": 2, "rotation": 270, "mode": "replace", "discarded": "T02"}),
        ("placed", {"seat": 0, "tile": "", "row": 0, "col": -1, "rotation": 0, "mode": "initial", "discarded": ""}),
        ("placed", {"seat": 0, "tile": "T01", "row": 1 << 20, "col": 0, "rotation": 1 << 20, "mode": "place"}),
        ("hand_passed", {"from_seat": 0, "to_seat": 0, "count": 0}),
        ("hand_passed", {"from_seat": 3, "to_seat": 2000, "count": 5}),
        ("hand_tiles", {"seat": 2, "tiles": [], "from_seat": 0}),
        ("hand_tiles", {"seat": 0, "tiles": ["T01", "", "T99"]}),
        ("hand_tiles", {"seat": 0, "tiles": ["T01"], "from_seat": 5000}),
        ("hand_drawn", {"seat": 0, "count": 0}),
        ("reputation_drawn", {"seat": 3, "count": 2}),
        ("reputation_cards", {"seat": 1, "cards": ["R1", "R2"]}),
        ("reputation_returned", {"seat": 0}),
        ("returned_card", {"seat": 2, "card": ""}),
        ("initial_tile", {"seat": 1, "tile": "T05"}),
        ("round_started", {"round": 3}),
        ("solo_removed", {"tiles": ["T05", "T06"]}),
        ("solo_removed", {"tiles": []}),
        ("round_scored", {"round": 2, "seats": [
            {"seat": 0, "dungeon": "dragon", "cards": [{"card": "A1", "face": "A", "points": -2}, {"card": "C3", "face": "", "kind": "", "points": 0}],
             "thumb": False, "thumb_points": 0, "round_points": -2, "score": -5},
            {"seat": 1, "dungeon": "", "cards": [], "thumb": True, "thumb_points": 3, "round_points": 300, "score": 1 << 20},
        ]}),
        ("round_scored", {"round": 1, "seats": []}),
        # not the engine's: another type, a key the message lacks, a value out of range, a missing key
        ("placed", {"seat": True, "tile": "T01", "row": 0, "col": 0, "rotation": 0, "mode": "place"}),
        ("placed", {"seat": 0, "tile": "T01", "row": 0, "col": 0, "rotation": 0, "mode": "place", "discarded": None}),
        ("hand_passed", {"from_seat": 0, "to_seat": 1}),
        ("hand_tiles", {"seat": 0, "tiles": ("T01", "T02")}),
        ("hand_drawn", {"seat": 0, "count": 1, "extra": 2}),
        ("round_started", {"round": 1 << 40}),
        ("returned_card", {"seat": -1, "card": "R1"}),
        ("round_scored", {"round": 1, "seats": [{"seat": 0, "dungeon": "swamp", "cards": [], "thumb": 1, "thumb_points": 0,
                                                  "round_points": 0, "score": 0}]}),
        ("round_scored", {"round": 1, "seats": [{"seat": 0, "dungeon": "swamp", "cards": [{"card": "A1", "face": "A", "points": 1,
                                                  "kind": None}], "thumb": True, "thumb_points": 0, "round_points": 0, "score": 0}]}),
    ],
)
def test_events_of_any_data_are_written_as_protobuf_writes_them_or_refused(kind: str, data: dict[str, Any]) -> None:
    for sequence in (0, 7, 300):
        for audience in (None, frozenset({0})):
            event = Event(kind, data, audience)
            try:
                expected = _expected([(sequence, event)])
            except WireError:
                with pytest.raises(WireError):
                    WIRE.events_fields([(sequence, event)])
                continue
            assert WIRE.events_fields([(sequence, event)]) == expected
            assert WIRE.events_fields([(sequence + 1, event)]) == _expected([(sequence + 1, event)])


def test_views_of_interleaved_games_are_their_dict_views() -> None:
    """Several games (and copies of them that play on apart) viewed in turn: each seat's hand and reputation cards
    and each board kept by the writer are found again only where they still hold."""
    rng = random.Random(5)
    for players in (2, 4):
        states: list[MerchantsState] = [GAME.new_initial_state(GAME.make_config(players)) for _ in range(3)]
        compared = 0
        while any(not state.is_terminal() for state in states):
            for index, state in enumerate(states):
                if state.is_terminal():
                    continue
                playout.step(state, rng)
                if rng.random() < 0.05:
                    states.append(state.clone())  # a copy shares every token until it plays on apart
                for seat in range(players):
                    expected = WIRE.view_message(state.private_view(seat)).SerializeToString()
                    assert WIRE.view_bytes(state, seat, None) == expected, (players, index, seat)
                    compared += 1
            states = states[:6]
        assert compared > 1000


def test_view_parts_are_the_views_pieces_and_size() -> None:
    """`view_parts` appends pieces whose join is `view_bytes`'s bytes and returns their size (a request joins them)."""
    rng = random.Random(11)
    for players in (1, 2, 3, 4):
        state = GAME.new_initial_state(GAME.make_config(players))
        while not state.is_terminal():
            playout.step(state, rng)
            for seat in range(players):
                parts = [b"before"]
                size = WIRE.view_parts(state, seat, {}, parts)
                assert parts[0] == b"before" and size == sum(len(part) for part in parts[1:])
                assert b"".join(parts[1:]) == WIRE.view_message(state.private_view(seat)).SerializeToString()


def _check_views_after_board_change(state: MerchantsState) -> None:
    """Seat 0's board and the public fields given new tokens (what a change from outside gives a 2-player state), then
    every seat's view compared with protobuf's serialization of its dict view."""
    from referee.games.merchants.state import TOKENS

    state.board_tokens[0] = TOKENS.new()
    state.public_token = TOKENS.new()
    for seat in range(2):
        assert WIRE.view_bytes(state, seat, None) == WIRE.view_message(state.private_view(seat)).SerializeToString()


def test_boards_edited_from_outside_are_written_again() -> None:
    """A shop changed in any way (a tile moved, removed, swapped for another at the same count, out of the usual
    reach, emptied) under a new board token is written as protobuf writes it, never from a square kept before."""
    rng = random.Random(3)
    state = GAME.new_initial_state(GAME.make_config(2))
    while not state.is_terminal() and len(state.players_state[0].shop) < 6:
        playout.step(state, rng)

    _check_views_after_board_change(state)
    shop = state.players_state[0].shop
    cells = list(shop)
    moved = shop.pop(cells[-1])
    shop[(cells[-1][0] + 3 if cells[-1][0] < 0 else cells[-1][0] - 3, 3)] = moved  # the same pair at another square
    _check_views_after_board_change(state)
    gone = shop.pop(cells[0])
    _check_views_after_board_change(state)
    shop[cells[0]] = gone  # back where it was, with one fewer elsewhere: the same count as a shop seen before
    del shop[cells[1]]
    _check_views_after_board_change(state)
    shop[cells[1]] = (gone[0], (gone[1] + 90) % 360)  # a new pair at a square seen before
    _check_views_after_board_change(state)
    shop[(5, -7)] = moved  # outside any shop the rules make
    _check_views_after_board_change(state)
    del shop[(5, -7)]
    _check_views_after_board_change(state)
    shop.clear()
    _check_views_after_board_change(state)
    state.players_state[0].discards.append(gone[0])  # a board whose shop is unchanged but its discards
    _check_views_after_board_change(state)


def test_hands_edited_from_outside_are_written_again() -> None:
    """A draft hand changed in place in any way (a tile taken, two taken, one added, the order changed, a bundle
    swapped for another) is written as protobuf writes it; one tile taken is the usual change (a pick)."""
    from referee.games.merchants.state import TOKENS

    rng = random.Random(8)
    state = GAME.new_initial_state(GAME.make_config(3))
    while not state.is_terminal() and not (state.players_state[0].bundle and len(state.players_state[0].bundle.tiles) >= 5):
        playout.step(state, rng)
    bundle = state.players_state[0].bundle
    assert bundle is not None
    tiles = bundle.tiles

    def check() -> None:
        state.public_token = TOKENS.new()  # the hands' sizes are public: what a change from outside gives a state
        for seat in range(3):
            assert WIRE.view_bytes(state, seat, None) == WIRE.view_message(state.private_view(seat)).SerializeToString()

    check()
    for edit in (
        lambda: tiles.pop(2),
        lambda: tiles.pop(),
        lambda: tiles.pop(0),
        lambda: tiles.insert(1, tiles[0]),
        lambda: tiles.reverse(),
        lambda: tiles.extend(["zz", "aa"]),
        lambda: (tiles.pop(0), tiles.pop()),
    ):
        edit()
        check()
    players = state.players_state
    players[0].bundle, players[1].bundle = players[1].bundle, players[0].bundle
    check()


def test_board_parts_changed_in_place_are_written_again() -> None:
    """A board's shop, discards and chips changed in place (a pair replaced at a cell kept, cells added at the end of
    the shop's order anywhere in its (row, col) order, lists grown, shortened or changed at one element) under a new
    board token are written as protobuf writes them: what the writer kept of the seat's board is used only where it
    still holds."""
    from referee.games.merchants.state import Chip

    rng = random.Random(13)
    state = GAME.new_initial_state(GAME.make_config(2))
    while not state.is_terminal() and not (state.players_state[0].chips and len(state.players_state[0].shop) >= 4):
        playout.step(state, rng)
    player = state.players_state[0]

    _check_views_after_board_change(state)
    shop = player.shop
    cell = next(iter(shop))
    tile, rotation = shop[cell]
    shop[cell] = (tile, (rotation + 90) % 360)  # a pair replaced at the first cell kept
    _check_views_after_board_change(state)
    rows = [row for row, _ in shop]
    cols = [col for _, col in shop]
    added = 0
    for square in ((min(rows) - 1, min(cols)), (max(rows), max(cols) + 1), (min(rows), min(cols) - 1), (0, 1), (1, 0)):
        if square not in shop and abs(square[0]) <= 3 and abs(square[1]) <= 3:
            shop[square] = ("zz-new", 180)  # added at the end of the dict's order, first, last or between in (row, col)
            _check_views_after_board_change(state)
            added += 1
    assert added >= 2
    for edit in (
        lambda: player.discards.append("zz-a"),
        lambda: player.discards.extend(["zz-b", "zz-c"]),
        lambda: player.discards.insert(0, "zz-d"),
        lambda: player.discards.__setitem__(1, "zz-e"),
        lambda: player.discards.pop(),
        lambda: player.discards.clear(),
        lambda: player.unused_chips.reverse(),
        lambda: player.unused_chips.pop(),
        lambda: player.chips.append(Chip(3, "zz", True, 7)),
        lambda: player.chips.insert(0, Chip(1, "zy", False, 2)),
        lambda: player.chips.pop(),
        lambda: player.chips.__setitem__(0, Chip(2, "zx", True, 0)),
        lambda: player.chips.clear(),
    ):
        edit()
        _check_views_after_board_change(state)


def test_public_boards_of_games_of_other_player_counts_viewed_in_turn() -> None:
    """The public boards are joined once while every board is the one last joined: games of 1 to 4 players, and copies
    that play on apart, viewed in turn (another count of boards, the same count with other boards, a board whose
    hand size alone changed) are each their dict views."""
    rng = random.Random(29)
    states: list[MerchantsState] = [GAME.new_initial_state(GAME.make_config(players)) for players in (1, 2, 3, 4)]
    states.append(states[3].clone())
    compared = 0
    while any(not state.is_terminal() for state in states):
        for state in states:
            if state.is_terminal():
                continue
            playout.step(state, rng)
            for seat in range(len(state.players_state)):
                expected = WIRE.view_message(state.private_view(seat)).SerializeToString()
                assert WIRE.view_bytes(state, seat, None) == expected
                compared += 1
    assert compared > 1000
