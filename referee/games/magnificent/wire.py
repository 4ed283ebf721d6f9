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
from referee.games.magnificent.model import Player, Turn
from referee.games.magnificent.state import MagnificentState
from referee.games.magnificent.views import (
    camp_rows, final_scores, hat_label, main_tent_order, market_copy, market_shown, own_draft, track_view, view_tables,
)
from referee.wire import (
    Blocks,
    GameWire,
    SharedParts,
    blocks_of,
    encode,
    key,
    message_field,
    optional_string_field,
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
CELL_X, CELL_Y = key(1, 0), key(2, 0)
SLOT_CARD, SLOT_DIE = key(1, 2), key(2, 2)
TILE_ORIENTATION, TILE_X, TILE_Y = key(2, 0), key(3, 0), key(4, 0)
# Player
P_SEAT, P_BOARD, P_POINTS, P_COINS, P_GEMS, P_MARKERS, P_SPENT, P_MASTERS, P_TRAINERS, P_TILES, P_CAMP = (
    key(1, 0), key(2, 2), key(3, 0), key(4, 0), key(5, 2), key(6, 0), key(7, 0), key(8, 2), key(9, 2), key(10, 2), key(11, 2),
)
P_POSTERS, P_TENTS, P_COMPLETED, P_HATS, P_TURNS_TAKEN = key(12, 2), key(13, 2), key(14, 2), key(15, 2), key(16, 0)
# TurnInfo
T_SEAT, T_DIE, T_CARD, T_ACTING, T_ACTION, T_POWER, T_BUILD_COLOUR, T_WAGON_COLOUR, T_MASTER_USED, T_TRAINERS_USED = (
    key(1, 0), key(2, 2), key(3, 2), key(4, 2), key(5, 2), key(6, 0), key(7, 2), key(8, 2), key(9, 0), key(10, 2),
)
T_EXTRA_SMALL, T_EXTRA_SHOWS, T_POINTS_PER_SHOW, T_RESOLVED, T_PENDING_TILES, T_TILE_TYPE, T_ANCHOR, T_SHOWS = (
    key(11, 0), key(12, 0), key(13, 0), key(14, 0), key(15, 2), key(16, 2), key(17, 2), key(18, 0),
)
T_CHOSEN, T_EXTRA_GEMS_DUE, T_TENT = key(19, 2), key(20, 0), key(21, 2)

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
    """View fields 2-25: what every seat sees. The market and each player are found again, when they are as they
    were last written, by comparing them with a copy kept then (in C, no key built); the turn is written by hand."""
    decision = state.decision_code()
    counts = (state.round, state.start_player, state.turn_count)
    head = _HEADS.get(counts)
    if head is None:
        head = _HEADS.keep(counts, _head(*counts))
    deciding = state.deciding_seats()
    pending = _DECISIONS.get((decision, deciding))
    if pending is None:
        pending = _DECISIONS.keep((decision, deciding), string_field(DECISION, decision) + packed_field(DECIDING, deciding))
    parts = [head, pending]
    known_market = _MARKETS.get(id(state))
    if known_market is not None and known_market[0] is state and known_market[1] == market_shown(state):
        parts.append(known_market[2])
    else:
        market = _market(state)
        if len(_MARKETS) >= _KEPT_LIMIT:
            _MARKETS.clear()
        _MARKETS[id(state)] = (state, market_copy(state), market)
        parts.append(market)
    for index, player in enumerate(state.players_state):
        known = _PLAYERS.get(id(player))
        if known is not None and known[0] is player and known[1] == index and known[2] == player:
            parts.append(known[3])
            continue
        block = _player(state, index, player)
        if len(_PLAYERS) >= _KEPT_LIMIT:
            _PLAYERS.clear()
        _PLAYERS[id(player)] = (player, index, player.copy(), block)
        parts.append(block)
    if state.turn is not None:
        parts.append(_turn(state, state.turn, decision))
    tail_key = (state.poster_in_hand, state.side_b, state.over, state.draft, state.draft_round)
    tail = _TAILS.get(tail_key)
    if tail is None:
        tail = _TAILS.keep(tail_key, _tail(*tail_key))
    if state.final:
        # Field 23 sits between fields 22 and 24 (a finished game only).
        parts.append(tail[0] + encode(pb.View, {"final_scores": final_scores(state)}).SerializeToString() + tail[1])
    else:
        parts.append(tail[0] + tail[1])
    return b"".join(parts)


def _head(round_number: int, start_player: int, turn_count: int) -> bytes:
    """View fields 2-4."""
    return varint_field(ROUND, round_number) + varint_field(START_PLAYER, start_player) + varint_field(TURN_COUNT, turn_count)


def _tail(poster_in_hand: str, side_b: bool, over: bool, draft: bool, draft_round: int) -> tuple[bytes, bytes]:
    """View fields 20-22, and 24-25 (what comes after the final scores)."""
    return (
        string_field(POSTER_IN_HAND, poster_in_hand) + varint_field(SIDE_B, side_b) + varint_field(GAME_OVER, over),
        varint_field(DRAFT_MASTER_CARDS, draft) + (varint_field(DRAFT_ROUND, draft_round) if draft else b""),
    )


#: View fields 2-4 already written, by their values (3 rounds x 6 start players x the turns of a round).
_HEADS = Blocks(4096)
#: View fields 5-6 already written, by the decision and the seats deciding.
_DECISIONS = Blocks()
#: View fields 20-22 and 24-25 already written, by their values.
_TAILS = Blocks()
#: Entries the memories of markets (by state) and players (by player) keep before they are emptied.
_KEPT_LIMIT = 256
#: id(state) -> (the state, a copy of what its market fields show (`views.market_copy`), View fields 7-17 written)
_MARKETS: dict[int, tuple[MagnificentState, tuple[Any, ...], bytes]] = {}
#: id(player) -> (the player, its seat, a copy of it as written, its View field 18 written)
_PLAYERS: dict[int, tuple[Player, int, Player, bytes]] = {}




def _market(state: MagnificentState) -> bytes:
    """View fields 7-17: the main tent, the display, posters, decks, the draft pool, tracks and the supply."""
    tables = view_tables(state)
    main_tent = state.main_tent
    written = blocks_of(_PARTS, state.c)
    parts = [
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
    return b"".join(parts)


def _player(state: MagnificentState, index: int, player: Player) -> bytes:
    """View field 18 for one player (as views.player_view shows it), written field by field."""
    dice = player.dice
    masters = []
    for card in player.masters:
        die = dice.get(card)
        if die is None:
            masters.append(message_field(P_MASTERS, string_field(SLOT_CARD, card)))
        else:
            die_body = string_field(COLOUR, die[0]) + varint_field(VALUE, die[1])
            masters.append(message_field(P_MASTERS, string_field(SLOT_CARD, card) + message_field(SLOT_DIE, die_body)))
    # Fields 9-15 change a few times a game: found by what they show.
    belongings = (
        tuple(player.trainers), tuple(player.tiles), tuple(player.posters), tuple(player.tents), tuple(player.completed),
        tuple(player.hats),
    )
    written = blocks_of(_BELONGINGS, state.c)
    block = written.get(belongings)
    if block is None:
        block = written.keep(
            belongings,
            strings_field(P_TRAINERS, player.trainers)
            + _tiles_and_camp(state, player)
            + strings_field(P_POSTERS, [poster or "" for poster in player.posters])
            + strings_field(P_TENTS, [tent or "" for tent in player.tents])
            + strings_field(P_COMPLETED, player.completed)
            + strings_field(P_HATS, [hat_label(hat) for hat in player.hats]),
        )
    body = b"".join(
        [
            varint_field(P_SEAT, index),
            string_field(P_BOARD, player.board),
            varint_field(P_POINTS, player.points),
            varint_field(P_COINS, player.coins),
            packed_field(P_GEMS, player.gems),
            varint_field(P_MARKERS, player.markers),
            varint_field(P_SPENT, player.spent),
            *masters,
            block,
            varint_field(P_TURNS_TAKEN, len(dice)),
        ]
    )
    return message_field(PLAYERS, body)


def _tiles_and_camp(state: MagnificentState, player: Player) -> bytes:
    """Player fields 10 and 11: the tiles placed and the camp's rows they draw."""
    placed = [
        message_field(P_TILES, string_field(TILE_TYPE, tile_type) + varint_field(TILE_ORIENTATION, k) + varint_field(TILE_X, x) + varint_field(TILE_Y, y))
        for tile_type, k, x, y in player.tiles
    ]
    return b"".join(placed) + strings_field(P_CAMP, camp_rows(state, view_tables(state), player))


#: Per components object: Player fields 9-15 already written, by what they show.
_BELONGINGS: dict[int, tuple[Any, Blocks]] = {}


def _turn(state: MagnificentState, turn: Turn, decision: str) -> bytes:
    """View field 19, the turn in progress (as views.turn_view shows it): its die, card and action (fields 1-9),
    then its effects (10-21), each found by what it shows (the effects are mostly as a turn begins)."""
    acting = turn.acting
    action = turn.action
    die = (
        turn.seat, turn.die_colour, turn.die_value, turn.card, acting, action, state.power(),
        turn.build_colour or (acting if action == "BUILD" else ""), turn.wagon_colour or (acting if action == "TRAVEL" else ""),
        turn.master_used,
    )
    head = _TURN_HEADS.get(die)
    if head is None:
        head = _TURN_HEADS.keep(die, _turn_head(*die))
    tent: str | None = None
    if decision == "VD2":
        colour, space = turn.tent_space
        tent = state.track_tents[colour][space] or ""
    effects = (
        tuple(turn.trainers_used), turn.extra_small, turn.extra_show, turn.points_per_show, turn.resolved,
        tuple(turn.pending_tiles), turn.tile, turn.anchor, turn.shows, tuple(turn.chosen), turn.extra_gems_due, tent,
    )
    tail = _TURN_EFFECTS.get(effects)
    if tail is None:
        tail = _TURN_EFFECTS.keep(effects, _turn_effects(*effects))
    return message_field(TURN, head + tail)


def _turn_head(
    seat: int, die_colour: str, die_value: int, card: str, acting: str, action: str, power: int, build_colour: str,
    wagon_colour: str, master_used: bool,
) -> bytes:
    """TurnInfo fields 1-9."""
    return b"".join(
        [
            varint_field(T_SEAT, seat),
            message_field(T_DIE, string_field(COLOUR, die_colour) + varint_field(VALUE, die_value)) if die_colour else b"",
            string_field(T_CARD, card),
            string_field(T_ACTING, acting),
            string_field(T_ACTION, action),
            varint_field(T_POWER, power),
            string_field(T_BUILD_COLOUR, build_colour),
            string_field(T_WAGON_COLOUR, wagon_colour),
            varint_field(T_MASTER_USED, master_used),
        ]
    )


def _turn_effects(
    trainers_used: tuple[str, ...], extra_small: int, extra_shows: int, points_per_show: int, resolved: bool,
    pending_tiles: tuple[str, ...], tile_type: str, anchor: tuple[int, int], shows: int, chosen: tuple[int, ...],
    extra_gems_due: int, tent: str | None,
) -> bytes:
    """TurnInfo fields 10-21."""
    x, y = anchor
    return b"".join(
        [
            strings_field(T_TRAINERS_USED, trainers_used),
            varint_field(T_EXTRA_SMALL, extra_small),
            varint_field(T_EXTRA_SHOWS, extra_shows),
            varint_field(T_POINTS_PER_SHOW, points_per_show),
            varint_field(T_RESOLVED, resolved),
            strings_field(T_PENDING_TILES, pending_tiles),
            string_field(T_TILE_TYPE, tile_type),
            message_field(T_ANCHOR, varint_field(CELL_X, x) + varint_field(CELL_Y, y)) if x >= 0 else b"",
            varint_field(T_SHOWS, shows),
            packed_field(T_CHOSEN, [slot + 1 for slot in chosen]),
            varint_field(T_EXTRA_GEMS_DUE, extra_gems_due),
            optional_string_field(T_TENT, tent),
        ]
    )


#: TurnInfo fields 1-9 and 10-21 already written, by what they show.
_TURN_HEADS = Blocks(4096)
_TURN_EFFECTS = Blocks(4096)


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
