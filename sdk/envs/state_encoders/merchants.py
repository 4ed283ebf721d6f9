"""Merchants of B99 observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

What a seat may see follows referee/games/merchants/views.py exactly: the public table (the layout with
the C cards and the D card only once `state.trends_revealed()`, every shop, discards, chips, hand sizes,
reputation counts and final records) plus the seat's own hand, reputation cards, returned cards and
pending answers; never another seat's hand or reputation cards. Slot numbers come from the view
encoding (`ViewEncoding.start`, `stride`, `one_hot`, ... by field path). Lists the encoding counts (hand,
discards, ...) are read in any order; the shop, a list by position, is read in the view's order (sorted
by square).

What every seat sees alike (slots before the seat's own) is one block, made once per position for all seats:
it is kept by the token the state replaces at every decision and chance outcome (`MerchantsState.public_token`),
and made from the layout's and each seat's board's blocks, kept by the tokens the state replaces wherever that
part changes (`layout_token`, `board_tokens`): a part is written again only when the engine changed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from referee.engine import GameState, Seat
from referee.games.merchants.data import DUNGEONS
from referee.games.merchants.state import OVER, MerchantsState
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from referee.wire import Blocks
from sdk.envs.state_encoders.parts import Block, block_taker, naming_vocabulary_errors, over_cap

GAME = "merchants"
_E = game_encoding(GAME).view

_PLAYERS, _ROUND, _PICK = _E.start("players"), _E.start("round"), _E.start("pick")
_PHASE = _E.one_hot("phase")
_SOLO, _BACK = _E.start("solo"), _E.start("personal_board_back")
_LAYOUT = _E.start("layout")
_LAYOUT_STRIDE = _E.stride("layout")
#: per layout row: (presence slot, dungeon -> slot, A card -> slot, A face -> slot, B card -> slot, B face -> slot,
#: C card -> slot, C kind -> slot)
_LAYOUT_ROWS: tuple[tuple[Any, ...], ...] = tuple(
    (_E.start("layout[]") + i * _LAYOUT_STRIDE,)
    + tuple(
        _E.one_hot(f"layout[].{name}", shift=i * _LAYOUT_STRIDE)
        for name in ("dungeon", "a_card", "a_face", "b_card", "b_face", "c_card", "c_kind")
    )
    for i in range(_E.cap("layout"))
)
_D_CARD, _D_KIND = _E.one_hot("d_card"), _E.one_hot("d_kind")
#: the stretch of the layout rows and the D card (they follow each other in the View message)
_LAYOUT_STRETCH = _LAYOUT
_LAYOUT_SIZE = _E.start("d_kind") + _E.node("d_kind").size - _LAYOUT
_SEATS = _E.start("seats")
_SEATS_CAP, _SHOP_CAP, _CHIPS_CAP = _E.cap("seats"), _E.cap("seats[].shop"), _E.cap("seats[].chips")
_SEAT_STRIDE, _SHOP_STRIDE, _CHIP_STRIDE = _E.stride("seats"), _E.stride("seats[].shop"), _E.stride("seats[].chips")
_TILE_INDEX = _E.indexed("seats[].shop[].tile")
_SHOP = tuple(_E.start("seats[].shop") + p * _SEAT_STRIDE for p in range(_SEATS_CAP))
_CHIPS = tuple(_E.start("seats[].chips") + p * _SEAT_STRIDE for p in range(_SEATS_CAP))
_SEAT_FIELDS = ("seats[]", "seats[].seat", "seats[].score", "seats[].hand_size", "seats[].reputation_count")
#: per seat: its fields' slots in the order of _SEAT_FIELDS
#: each seat's stretch of the vector starts at its item's presence slot
_SEAT_ITEMS = tuple(_E.start("seats[]") + p * _SEAT_STRIDE for p in range(_SEATS_CAP))
_SEAT_SLOTS = tuple(tuple(_E.start(path) + p * _SEAT_STRIDE for path in _SEAT_FIELDS) for p in range(_SEATS_CAP))
#: per seat, per place in the shop: (presence, tile, row, col, rotation) slots
_SHOP_SLOTS = tuple(
    tuple(
        tuple(
            _E.start(path) + p * _SEAT_STRIDE + i * _SHOP_STRIDE
            for path in ("seats[].shop[]", "seats[].shop[].tile", "seats[].shop[].row", "seats[].shop[].col", "seats[].shop[].rotation")
        )
        for i in range(_SHOP_CAP)
    )
    for p in range(_SEATS_CAP)
)
_DISCARDS = tuple(_E.one_hot("seats[].discards", shift=p * _SEAT_STRIDE) for p in range(_SEATS_CAP))
_UNUSED_CHIPS = tuple(
    _E.one_hot("seats[].unused_chips", shift=p * _SEAT_STRIDE) for p in range(_SEATS_CAP)
)
#: per seat, per chip: (presence slot, round slot, dungeon -> slot, thumb slot, points slot)
_CHIP_SLOTS = tuple(
    tuple(
        (
            _E.start("seats[].chips[]") + p * _SEAT_STRIDE + i * _CHIP_STRIDE,
            _E.start("seats[].chips[].round") + p * _SEAT_STRIDE + i * _CHIP_STRIDE,
            _E.one_hot("seats[].chips[].dungeon", shift=p * _SEAT_STRIDE + i * _CHIP_STRIDE),
            _E.start("seats[].chips[].thumb") + p * _SEAT_STRIDE + i * _CHIP_STRIDE,
            _E.start("seats[].chips[].points") + p * _SEAT_STRIDE + i * _CHIP_STRIDE,
        )
        for i in range(_CHIPS_CAP)
    )
    for p in range(_SEATS_CAP)
)
#: the final record's number fields, in the View message's order
_FINAL_NUMBERS = (
    "seat", "trend_points", "thumb_points", "attribute_sets", "attribute_points", "circles", "circle_points",
    "thumbs", "discards", "stars", "best_heart", "star_points", "total", "rank",
)
_FINAL = _E.start("seats[].final")
_FINAL_NUMBER_SLOTS = {name: _E.start(f"seats[].final.{name}") for name in _FINAL_NUMBERS}
_REPUTATION = _E.start("seats[].final.reputation")
_REPUTATION_CAP, _REPUTATION_STRIDE = _E.cap("seats[].final.reputation"), _E.stride("seats[].final.reputation")
_REPUTATION_ITEM, _REPUTATION_CARD = _E.start("seats[].final.reputation[]"), _E.one_hot("seats[].final.reputation[].card")
_REPUTATION_ACHIEVED = _E.start("seats[].final.reputation[].achieved")
_SOLO_RANK, _SOLO_TITLE = _E.one_hot("seats[].final.solo_rank"), _E.one_hot("seats[].final.solo_title")
_FINAL_FIELDS = frozenset(_FINAL_NUMBERS) | {"reputation", "solo_rank", "solo_title"}
_SUPPLY, _REPUTATION_DECK = _E.start("supply_size"), _E.start("reputation_deck_size")
_SOLO_REMOVED = _E.one_hot("solo_removed")
_PASS = _E.one_hot("pass_direction")
_SEAT = _E.start("seat")
_HAND = _E.one_hot("hand")
_REPUTATION_HAND = _E.one_hot("reputation_hand")
_RETURNED = _E.one_hot("returned_reputation")
_PENDING_TILE = _E.one_hot("pending_tile")
_TARGET, _TARGET_ROW, _TARGET_COL = _E.start("pending_target"), _E.start("pending_target.row"), _E.start("pending_target.col")
_TARGET_MODE = _E.one_hot("pending_target.mode")


def _final(final: dict[str, Any], shift: int, out: dict[int, float]) -> None:
    """A seat's final scoring record (once the game is over), as the view shows it."""
    unknown = set(final) - _FINAL_FIELDS
    if unknown:
        raise EncodingError(f"view field seats[].final has no field {sorted(unknown)[0]!r} in its encoding")
    out[_FINAL + shift] = 1.0
    for name, slot in _FINAL_NUMBER_SLOTS.items():
        value = final.get(name)
        if value is not None:
            out[slot + shift] = value
    reputation = final.get("reputation") or ()
    if len(reputation) > _REPUTATION_CAP:
        raise over_cap("seats[].final.reputation", len(reputation), _REPUTATION_CAP)
    out[_REPUTATION + shift] = len(reputation)
    for i, item in enumerate(reputation):
        at = shift + i * _REPUTATION_STRIDE
        out[_REPUTATION_ITEM + at] = 1.0
        out[_REPUTATION_CARD[item["card"]] + at] = 1.0
        out[_REPUTATION_ACHIEVED + at] = item["achieved"]
    for name, table in (("solo_rank", _SOLO_RANK), ("solo_title", _SOLO_TITLE)):
        value = final.get(name)
        if value:
            out[table[value] + shift] = 1.0


#: slots 0 .. _PUBLIC_SIZE - 1: what every seat sees alike (the seat's own fields follow)
_PUBLIC_SIZE = _SEAT
#: seat 0's slot tables counted from the start of its stretch (every seat's stretch is laid out alike)
_SEAT0 = _SEAT_ITEMS[0]
_R_PRESENT, _R_SEAT, _R_SCORE, _R_HAND, _R_REPUTATION = (slot - _SEAT0 for slot in _SEAT_SLOTS[0])
_R_SHOP, _R_CHIPS = _SHOP[0] - _SEAT0, _CHIPS[0] - _SEAT0
_R_SHOP_SLOTS = tuple(tuple(slot - _SEAT0 for slot in place) for place in _SHOP_SLOTS[0])
_R_DISCARDS = {tile: slot - _SEAT0 for tile, slot in _DISCARDS[0].items()}
_R_UNUSED_CHIPS = {dungeon: slot - _SEAT0 for dungeon, slot in _UNUSED_CHIPS[0].items()}
_R_CHIP_SLOTS = tuple(
    (present - _SEAT0, round_slot - _SEAT0, {name: slot - _SEAT0 for name, slot in dungeons.items()}, thumb - _SEAT0, points - _SEAT0)
    for present, round_slot, dungeons, thumb, points in _CHIP_SLOTS[0]
)

#: the seat's public board, by its board token; the layout, by its token and whether the trend cards are shown;
#: what all seats see, by the state's public token (bounded memories: random play makes new ones forever)
_boards, _layouts, _publics = Blocks(), Blocks(), Blocks(64)


def _board(seat: Seat, player: Any) -> np.ndarray:  # noqa: ANN401 - the state's PlayerState
    """Seat `seat`'s stretch of the vector as far as its board shows it: presence, seat, score, shop (in the view's
    order: sorted by square), discards, unused and used chips, final record (hand size and reputation count: 0)."""
    values: Any = np.zeros(_SEAT_STRIDE, np.float32)  # Any: numpy's stubs do not declare its buffer
    slots: Any = memoryview(values)  # float32 slots set one by one (a memoryview: no numpy call per slot)
    slots[_R_PRESENT] = 1.0
    slots[_R_SEAT] = seat
    slots[_R_SCORE] = player.score
    shop = player.shop
    if len(shop) > _SHOP_CAP:
        raise over_cap("seats[].shop", len(shop), _SHOP_CAP)
    slots[_R_SHOP] = len(shop)
    tile_index = _TILE_INDEX
    for place, cell in zip(_R_SHOP_SLOTS, sorted(shop)):
        tile, rotation = shop[cell]
        t_present, t_tile, t_row, t_col, t_rotation = place
        slots[t_present] = 1.0
        slots[t_tile] = tile_index[tile]
        slots[t_row], slots[t_col] = cell
        slots[t_rotation] = rotation
    for tile in player.discards:
        slots[_R_DISCARDS[tile]] = 1.0
    for dungeon in player.unused_chips:
        slots[_R_UNUSED_CHIPS[dungeon]] = 1.0
    chips = player.chips
    if len(chips) > _CHIPS_CAP:
        raise over_cap("seats[].chips", len(chips), _CHIPS_CAP)
    slots[_R_CHIPS] = len(chips)
    for chip_slots, chip in zip(_R_CHIP_SLOTS, chips):
        c_present, c_round, c_dungeons, c_thumb, c_points = chip_slots
        slots[c_present] = 1.0
        slots[c_round] = chip.round
        slots[c_dungeons[chip.dungeon]] = 1.0
        slots[c_thumb] = chip.thumb
        slots[c_points] = chip.points
    if player.final is not None:
        final: dict[int, float] = {}
        _final(player.final, 0, final)
        for slot, value in final.items():
            slots[slot - _SEAT0] = value
    return values


def _layout(
    layout: dict[tuple[str, str], tuple[str, str]], revealed: bool, c_cards: dict[str, str], grey: dict[str, str],
    d_card: str | None, grey_kinds: Mapping[str, str],
) -> np.ndarray:
    """The stretch of the layout rows (as `state.layout_rows(revealed)` gives them) and of the D card once revealed."""
    out: dict[int, float] = {}
    row = 0
    for dungeon in DUNGEONS:
        a = layout.get((dungeon, "A"))
        b = layout.get((dungeon, "B"))
        if a is None or b is None:
            continue
        present, dungeons, a_cards, a_faces, b_cards, b_faces, c_card_slots, c_kinds = _LAYOUT_ROWS[row]
        out[present] = 1.0
        out[dungeons[dungeon]] = 1.0
        out[a_cards[a[0]]] = 1.0
        out[a_faces[a[1]]] = 1.0
        out[b_cards[b[0]]] = 1.0
        out[b_faces[b[1]]] = 1.0
        if revealed and dungeon in c_cards and dungeon in grey:
            out[c_card_slots[c_cards[dungeon]]] = 1.0
            out[c_kinds[grey_kinds[grey[dungeon]]]] = 1.0
        row += 1
    out[_LAYOUT] = row
    if revealed and d_card is not None:
        out[_D_CARD[d_card]] = 1.0
        out[_D_KIND[grey_kinds[grey["D"]]]] = 1.0
    values: Any = np.zeros(_LAYOUT_SIZE, np.float32)  # Any: numpy's stubs do not declare its buffer
    slots: Any = memoryview(values)  # float32 slots set one by one (a memoryview: no numpy call per slot)
    for slot, value in out.items():
        slots[slot - _LAYOUT_STRETCH] = value
    return values


def _public(state: MerchantsState) -> Block:
    """Slots 0 .. _PUBLIC_SIZE - 1 of every seat's observation: the public table (views.public_view's fields)."""
    revealed = state.trends_revealed()
    players_state = state.players_state
    players = len(players_state)
    if players > _SEATS_CAP:
        raise over_cap("seats", players, _SEATS_CAP)
    values: Any = np.zeros(_PUBLIC_SIZE, np.float32)  # Any: numpy's stubs do not declare its buffer
    slots: Any = memoryview(values)  # float32 slots set one by one (a memoryview: no numpy call per slot)
    phase = state.phase
    round_number = state.round
    solo = state.solo
    slots[_PLAYERS] = state.players
    slots[_ROUND] = round_number
    slots[_PICK] = state.pick
    slots[_PHASE[phase]] = 1.0
    slots[_SOLO] = solo
    slots[_BACK] = state.back_side
    layout_key = (state.layout_token, revealed)
    layout = _layouts.get(layout_key)
    if layout is None:
        layout = _layouts.keep(
            layout_key, _layout(state.layout, revealed, state.c_cards, state.grey, state.d_card, state.data.grey_kinds)
        )
    slots[_LAYOUT_STRETCH : _LAYOUT_STRETCH + _LAYOUT_SIZE] = layout
    slots[_SEATS] = players
    tokens = state.board_tokens
    for p in range(players):
        player = players_state[p]
        token = tokens[p]
        board = _boards.get(token)
        if board is None:
            board = _boards.keep(token, _board(p, player))
        start = _SEAT_ITEMS[p]
        slots[start : start + _SEAT_STRIDE] = board
        bundle = player.bundle
        slots[start + _R_HAND] = len(bundle.tiles) if bundle is not None else 0
        slots[start + _R_REPUTATION] = len(player.reputation)
    slots[_SUPPLY] = len(state.supply)
    slots[_REPUTATION_DECK] = len(state.reputation_deck)
    for tile in state.solo_removed:
        slots[_SOLO_REMOVED[tile]] = 1.0
    if phase != OVER and round_number >= 1 and not solo:
        slots[_PASS["right" if round_number == 2 else "left"]] = 1.0
    return 0, values


def _encode(position: GameState, seat: Seat, out: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding: the public table and that seat's own cards and answers."""
    state = cast(MerchantsState, position)
    players_state = state.players_state
    players = len(players_state)
    if not 0 <= seat < players:
        raise EncodingError(f"{GAME}: no seat {seat} in a {players}-player game")
    token = state.public_token
    block = _publics.get(token)
    if block is None:
        block = _publics.keep(token, _public(state))
    block_taker(out)(block)
    # the seat's own holdings (views.build_view's private part)
    player = players_state[seat]
    out[_SEAT] = 1.0
    out[_SEAT + 1] = seat
    bundle = player.bundle
    if bundle is not None:
        for tile in bundle.tiles:
            out[_HAND[tile]] = 1.0
    for card in player.reputation:
        out[_REPUTATION_HAND[card]] = 1.0
    for card in player.returned:
        out[_RETURNED[card]] = 1.0
    pending_tile = player.pending_tile
    if pending_tile is not None and pending_tile != "":
        out[_PENDING_TILE[pending_tile]] = 1.0
    target = player.pending_target
    if target is not None:
        out[_TARGET] = 1.0
        out[_TARGET_ROW], out[_TARGET_COL] = target[0], target[1]
        out[_TARGET_MODE[target[2]]] = 1.0


encode = naming_vocabulary_errors(GAME, _encode)
