"""Fuji 99 observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

Nothing in Fuji 99 is secret (referee/games/fuji99/views.py shows every seat the whole table), so this
writes the table's fields as views.py builds them, reading the state's lists directly instead of building
the view's dicts. Slot numbers come from the view encoding (`ViewEncoding.start`, `stride`, `one_hot`, ...
by field path).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.engine import Seat
from referee.games.fuji99.data import FujiData
from referee.games.fuji99.phases import CUBES, OVER
from referee.games.fuji99.state import Fuji99State
from referee.wire import kept_for
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import Block, block_taker, naming_vocabulary_errors, over_cap

_E = game_encoding("fuji99").view

_SEAT = _E.start("seat")
_PLAYERS, _ROUND, _MAX_ROUNDS, _ACTIVE = (_E.start(p) for p in ("players", "round", "max_rounds", "active"))
_PHASE = _E.one_hot("phase")
_MOVEMENT = _E.start("movement")
_SEATS = _E.start("seats")
_CURRENT = _E.start("current_draw.clear"), _E.start("current_draw.yellow"), _E.start("current_draw.red")
_TABLE = tuple(
    _E.start(p)
    for p in (
        "cubes_to_draw", "red_area", "spent_yellow", "available_yellow", "move_bonus", "pagoda",
        "yellow_on_20", "yellow_on_50", "deck_size",
    )
)
_DISCARD = _E.one_hot("discard")
_RESOLVING = _E.one_hot("resolving_echoes")
_DRAWING = _E.start("drawing_card")
_PLACED = _E.start("placed_this_stop")
_PLACED_CAP = _E.cap("placed_this_stop")
#: per item of placed_this_stop: (presence slot, card -> slot, cubes slot)
_PLACED_ITEMS = tuple(
    (
        _E.start("placed_this_stop[]") + i * _E.stride("placed_this_stop"),
        _E.one_hot("placed_this_stop[].card", shift=i * _E.stride("placed_this_stop")),
        _E.start("placed_this_stop[].cubes") + i * _E.stride("placed_this_stop"),
    )
    for i in range(_PLACED_CAP)
)
_CUBES_TO_PLACE, _WINNER, _OVER = _E.start("cubes_to_place"), _E.start("winner"), _E.start("over")

_SEAT_FIELDS = (
    "seats[]", "seats[].seat", "seats[].position", "seats[].turns_taken", "seats[].bag.clear", "seats[].bag.yellow",
    "seats[].bag.red", "seats[].got20", "seats[].got50", "seats[].hand", "seats[].hand_danger", "seats[].omens",
)
_SEATS_CAP, _HAND_CAP, _OMENS_CAP = _E.cap("seats"), _E.cap("seats[].hand"), _E.cap("seats[].omens")
_SEAT_STRIDE, _HAND_STRIDE, _OMEN_STRIDE = _E.stride("seats"), _E.stride("seats[].hand"), _E.stride("seats[].omens")
#: per seat: its fields' slots in the order of _SEAT_FIELDS
_SEAT_SLOTS = tuple(tuple(_E.start(path) + p * _SEAT_STRIDE for path in _SEAT_FIELDS) for p in range(_SEATS_CAP))
#: per seat, per omen: (presence slot, omen card -> slot, active slot)
_OMEN_SLOTS = tuple(
    tuple(
        (
            _E.start("seats[].omens[]") + p * _SEAT_STRIDE + i * _OMEN_STRIDE,
            _E.one_hot("seats[].omens[].card", shift=p * _SEAT_STRIDE + i * _OMEN_STRIDE),
            _E.start("seats[].omens[].active") + p * _SEAT_STRIDE + i * _OMEN_STRIDE,
        )
        for i in range(_OMENS_CAP)
    )
    for p in range(_SEATS_CAP)
)

#: a card's place in the hand -> (presence slot, card -> (card slot, type slot, printed danger), cubes slot, danger slot)
_HandSlots = tuple[int, dict[str, tuple[int, int, int | None]], int, int]
_hands: dict[int, tuple[FujiData, tuple[tuple[_HandSlots, ...], ...]]] = {}


def _hand_slots(data: FujiData) -> tuple[tuple[_HandSlots, ...], ...]:
    """Per seat and place in the hand, the slots each card writes (built once per component data)."""
    known = _hands.get(id(data))
    if known is not None and known[0] is data:
        return known[1]
    table = []
    for p in range(_SEATS_CAP):
        places = []
        for i in range(_HAND_CAP):
            shift = p * _SEAT_STRIDE + i * _HAND_STRIDE
            cards = _E.one_hot("seats[].hand[].card", shift=shift)
            types = _E.one_hot("seats[].hand[].type", shift=shift)
            per_card = {}
            for card, slot in cards.items():
                kind = data.card_type[card]
                per_card[card] = (slot, types[kind.type], kind.danger)
            places.append(
                (_E.start("seats[].hand[]") + shift, per_card, _E.start("seats[].hand[].cubes") + shift, _E.start("seats[].hand[].danger") + shift)
            )
        table.append(tuple(places))
    slots = tuple(table)
    _hands[id(data)] = (data, slots)
    return slots


class _Seen:
    """Each seat's cards (hand and omens) as the block last handed out for one state, with a copy of what they
    showed then: cards as they were (compared in C with the copy, no key made) are handed out again."""

    __slots__ = ("seats", "blocks")

    def __init__(self, state: Fuji99State) -> None:
        #: per seat: its hand, the cubes on the hand's cards and its omens
        self.seats: list[tuple[list[str], tuple[int | None, ...], list[tuple[str, bool]]] | None] = [None] * state.players
        self.blocks: list[Block | None] = [None] * state.players


#: id(state) -> (the state, the seats' blocks last handed out for it); emptied when full.
_SEEN: dict[int, tuple[Fuji99State, _Seen]] = {}
_SEEN_LIMIT = 256


def _encode(state: Fuji99State, seat: Seat, out: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding (the whole table: Fuji 99 has no secrets); each seat's cards are
    a block of the vector, the rest float slots (few enough for the vector to set them one by one)."""
    put_block = block_taker(out)
    out[_SEAT] = 1.0
    out[_SEAT + 1] = float(seat)
    players = state.players
    phase = state.phase
    out[_PLAYERS] = float(players)
    out[_ROUND] = float(state.round)
    out[_MAX_ROUNDS] = float(state.max_rounds)
    out[_ACTIVE] = float(state.active)
    out[_PHASE[phase]] = 1.0
    out[_MOVEMENT] = float(state.m)
    if players > _SEATS_CAP:
        raise over_cap("seats", players, _SEATS_CAP)
    out[_SEATS] = float(players)
    seen = kept_for(_SEEN, state, _Seen, _SEEN_LIMIT)
    cubes_get = state.cubes.get
    for p in range(players):
        present, s_seat, s_pos, s_turns, s_clear, s_yellow, s_red, s_got20, s_got50 = _SEAT_SLOTS[p][:9]
        out[present] = 1.0
        out[s_seat] = float(p)
        out[s_pos] = float(state.pos[p])
        out[s_turns] = float(state.turns_taken[p])
        clear, yellow, red = state.bags[p]
        out[s_clear], out[s_yellow], out[s_red] = float(clear), float(yellow), float(red)
        got = state.got[p]
        out[s_got20] = float(got[0])
        out[s_got50] = float(got[1])
        # The hand, its danger and the omens (the rest of the seat's stretch) change a few times a game.
        hand = state.hands[p]
        on_hand = tuple(map(cubes_get, hand))
        omens = state.omens[p]
        block = seen.blocks[p]
        if block is None or seen.seats[p] != (hand, on_hand, omens):
            block = seen.blocks[p] = _cards_block(state, p)
            seen.seats[p] = (hand.copy(), on_hand, omens.copy())
        put_block(block)
    out[_CURRENT[0]], out[_CURRENT[1]], out[_CURRENT[2]] = map(float, state.draw)
    to_draw, red_area, spent, available, bonus, pagoda, yellow20, yellow50, deck = _TABLE
    out[to_draw] = float(state.to_draw) if phase == CUBES else 0.0
    out[red_area] = float(state.red_area)
    out[spent] = float(state.spent)
    out[available] = float(state.available)
    out[bonus] = float(state.move_bonus(state.active))
    out[pagoda] = float(state.pagoda)
    out[yellow20], out[yellow50] = map(float, state.yellow_left)
    out[deck] = float(len(state.deck))
    for card in state.discard:
        out[_DISCARD[card]] = 1.0
    for card in state.resolving:
        slot = _RESOLVING[card]
        out[slot] = out.get(slot, 0.0) + 1.0
    if state.drawing is not None:
        out[_DRAWING] = 1.0
        out[_DRAWING + 1] = float(state.drawing)
    placed = state.placed
    if len(placed) > _PLACED_CAP:
        raise over_cap("placed_this_stop", len(placed), _PLACED_CAP)
    out[_PLACED] = float(len(placed))
    for i, (card, count) in enumerate(placed.items()):
        p_present, p_cards, p_cubes = _PLACED_ITEMS[i]
        out[p_present] = 1.0
        out[p_cards[card]] = 1.0
        out[p_cubes] = float(count)
    out[_CUBES_TO_PLACE] = float(state.to_place)
    if state.winner is not None:
        out[_WINNER] = 1.0
        out[_WINNER + 1] = float(state.winner)
    out[_OVER] = 1.0 if phase == OVER else 0.0


def _cards_block(state: Fuji99State, p: int) -> Block:
    """Seat `p`'s hand, hand danger and omens: the end of its stretch of the vector."""
    start = _SEAT_SLOTS[p][9]
    values: Any = np.zeros(_SEAT_SLOTS[p][0] + _SEAT_STRIDE - start, np.float32)  # Any: numpy's stubs do not declare its buffer
    out: Any = memoryview(values)  # float32 slots
    at = -start
    s_hand, s_danger, s_omens = _SEAT_SLOTS[p][9:]
    hand = state.hands[p]
    if len(hand) > _HAND_CAP:
        raise over_cap("seats[].hand", len(hand), _HAND_CAP)
    out[s_hand + at] = float(len(hand))
    total = 0
    places = _hand_slots(state.data)[p]
    cubes_get = state.cubes.get
    for i, card in enumerate(hand):
        h_present, per_card, h_cubes, h_danger = places[i]
        card_slot, type_slot, printed = per_card[card]
        out[h_present + at] = 1.0
        out[card_slot + at] = 1.0
        out[type_slot + at] = 1.0
        on_card = cubes_get(card, 0)
        out[h_cubes + at] = float(on_card)
        danger = on_card if printed is None else printed
        out[h_danger + at] = float(danger)
        total += danger
    out[s_danger + at] = float(total)
    omens = state.omens[p]
    if len(omens) > _OMENS_CAP:
        raise over_cap("seats[].omens", len(omens), _OMENS_CAP)
    out[s_omens + at] = float(len(omens))
    omen_slots = _OMEN_SLOTS[p]
    for i, (card, active) in enumerate(omens):
        o_present, o_cards, o_active = omen_slots[i]
        out[o_present + at] = 1.0
        out[o_cards[card] + at] = 1.0
        out[o_active + at] = 1.0 if active else 0.0
    return start, values


encode = naming_vocabulary_errors('fuji99', _encode)  # type: ignore[arg-type]
