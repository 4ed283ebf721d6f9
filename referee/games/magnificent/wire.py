"""The Magnificent's typed messages on the wire, and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` in field-number order. A player's board
and a track change a few times a game: each is written from its part of the dict view (views.py) once and
then found by a tuple of what it shows. Tests compare the two on random games of every variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from b99.games import magnificent_pb2 as pb

from referee.engine import Seat
from referee.games.magnificent.data import TILE_TYPES
from referee.games.magnificent.state import MagnificentState
from referee.games.magnificent.views import final_scores, main_tent_order, own_draft, player_view, track_view, turn_view, view_tables
from referee.wire import (
    Blocks,
    GameWire,
    SharedParts,
    blocks_of,
    encode,
    key,
    message_field,
    packed_field,
    shared_part,
    string_field,
    strings_field,
    varint,
    varint_field,
)

SEAT, ROUND, START_PLAYER, TURN_COUNT, DECISION, DECIDING, MAIN_TENT, DISPLAY, POSTER_DISPLAY = (
    key(1, 0), key(2, 0), key(3, 0), key(4, 0), key(5, 2), key(6, 2), key(7, 2), key(8, 2), key(9, 2),
)
POSTER_DECK_SIZE, POSTER_DISCARD, MASTER_DECK_SIZE, TRAINER_DECK_SIZE, DRAFT_POOL, REMOVED_TRAINERS = (
    key(10, 0), key(11, 2), key(12, 0), key(13, 0), key(14, 2), key(15, 2),
)
TRACKS, SUPPLY, PLAYERS, TURN, POSTER_IN_HAND, SIDE_B, GAME_OVER, FINAL_SCORES = (
    key(16, 2), key(17, 2), key(18, 2), key(19, 2), key(20, 2), key(21, 0), key(22, 0), key(23, 2),
)
DRAFT_MASTER_CARDS, DRAFT_ROUND = key(24, 0), key(25, 0)
# DieCount, Pair, TileSupply
COLOUR, VALUE, COUNT = key(1, 2), key(2, 0), key(3, 0)
SLOT, CARD, TRAINER = key(1, 0), key(2, 2), key(3, 2)
TILE_TYPE, TILE_COUNT = key(1, 2), key(2, 0)

#: Per components object: players' boards and tracks already written, by what they show.
_PARTS: dict[int, tuple[Any, Blocks]] = {}


def _remembered(written: Blocks, part_key: tuple[Any, ...], write: Callable[[Any], bytes], part: Any) -> bytes:
    block = written.get(part_key)
    return written.keep(part_key, write(part)) if block is None else block


def _main_tent(main_tent: Mapping[str, int]) -> bytes:
    """View field 7: the dice in the main tent by colour (O, G, P, C), then by key."""
    return b"".join(
        [
            message_field(MAIN_TENT, string_field(COLOUR, die[0]) + varint_field(VALUE, int(die[2])) + varint_field(COUNT, main_tent[die]))
            for die in sorted(main_tent, key=main_tent_order)
        ]
    )


def _display(display: Sequence[Sequence[str | None]]) -> bytes:
    """View field 8: the display's card and trainer pairs."""
    return b"".join(
        [
            message_field(DISPLAY, varint_field(SLOT, index + 1) + string_field(CARD, card or "") + string_field(TRAINER, tile or ""))
            for index, (card, tile) in enumerate(display)
        ]
    )


def _supply(supply: Mapping[str, int]) -> bytes:
    """View field 17: the tiles left of each type."""
    return b"".join([message_field(SUPPLY, string_field(TILE_TYPE, tile) + varint_field(TILE_COUNT, supply[tile])) for tile in TILE_TYPES])


def view_bytes(state: MagnificentState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the viewer's seat, what
    every seat sees (written once for all of a decision's requests when `shared` is given), then the seat's
    own part of the draft."""
    public = shared_part(shared, "public", _public, state)
    if not state.draft:
        return SEAT + varint(seat) + public
    # Fields 26-28, the last ones: the seat's own part of the draft, as views.py decides it.
    return SEAT + varint(seat) + public + encode(pb.View, own_draft(state, seat)).SerializeToString()


def _public(state: MagnificentState) -> bytes:
    """View fields 2-25: what every seat sees."""
    tables = view_tables(state)
    decision = state.decision_code()
    main_tent = state.main_tent
    written = blocks_of(_PARTS, state.c)
    parts = [
        varint_field(ROUND, state.round),
        varint_field(START_PLAYER, state.start_player),
        varint_field(TURN_COUNT, state.turn_count),
        string_field(DECISION, decision),
        packed_field(DECIDING, state.deciding_seats()),
        _remembered(written, ("main tent", *main_tent.items()), _main_tent, main_tent),
        _remembered(written, ("display", *map(tuple, state.display)), _display, state.display),
        strings_field(POSTER_DISPLAY, [poster or "" for poster in state.poster_display]),
        varint_field(POSTER_DECK_SIZE, len(state.poster_deck)),
        strings_field(POSTER_DISCARD, state.poster_discard),
        varint_field(MASTER_DECK_SIZE, len(state.master_deck)),
        varint_field(TRAINER_DECK_SIZE, len(state.trainer_deck)),
        strings_field(DRAFT_POOL, state.draft_pool),
        strings_field(REMOVED_TRAINERS, state.removed_trainers),
    ]
    for colour, tents in state.track_tents.items():
        part_key = (colour, state.wagons[colour], tuple(tents))
        block = written.get(part_key)
        if block is None:
            block = written.keep(part_key, message_field(TRACKS, encode(pb.Track, track_view(state, tables, colour)).SerializeToString()))
        parts.append(block)
    supply = state.supply
    parts.append(_remembered(written, ("supply", *map(supply.__getitem__, TILE_TYPES)), _supply, supply))
    for index, player in enumerate(state.players_state):
        player_key = (
            index, player.board, player.points, player.coins, tuple(player.gems), player.markers, player.spent,
            tuple(player.masters), tuple(player.dice.items()), tuple(player.trainers), tuple(player.tiles),
            tuple(player.posters), tuple(player.tents), tuple(player.completed), tuple(player.hats),
        )
        block = written.get(player_key)
        if block is None:
            body = encode(pb.Player, player_view(state, tables, index, player)).SerializeToString()
            block = written.keep(player_key, message_field(PLAYERS, body))
        parts.append(block)
    if state.turn is not None:
        parts.append(message_field(TURN, encode(pb.TurnInfo, turn_view(state, decision)).SerializeToString()))
    parts += [
        string_field(POSTER_IN_HAND, state.poster_in_hand),
        varint_field(SIDE_B, state.side_b),
        varint_field(GAME_OVER, state.over),
    ]
    if state.final:
        parts.append(encode(pb.View, {"final_scores": final_scores(state)}).SerializeToString())
    parts.append(varint_field(DRAFT_MASTER_CARDS, state.draft))
    if state.draft:
        parts.append(varint_field(DRAFT_ROUND, state.draft_round))
    return b"".join(parts)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
