"""Fuji 99 observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

Nothing in Fuji 99 is secret (referee/games/fuji99/views.py shows every seat the whole table), so this
writes the table's fields as views.py builds them, reading the state's lists directly instead of building
the view's dicts. Slot numbers come from the view encoding (`ViewEncoding.start`, `stride`, `one_hot`, ...
by field path).

Every seat sees the same table, so one vector is kept per state (known by a weak reference) and brought up to
date where the state changed since it was last written: scalars compared with the values last written by
identity, the state's lists and dicts (changed in place, through aliases, all over the engine) with copies of
them, in C; a seat's cards are written again only when its hand, the cubes on it or its omens changed. Each
observation hands out a copy of that vector as one block, the seat's own number set over it.
"""

from __future__ import annotations

from typing import Any, Final
from weakref import ref

import numpy as np

from referee.engine import Seat
from referee.games.fuji99.data import FujiData
from referee.games.fuji99.phases import CUBES, OVER
from referee.games.fuji99.state import Fuji99State
from sdk.envs.encodings import game_encoding
from sdk.envs.encoding import EncodingError
from sdk.envs.state_encoders.parts import Block, block_slots, over_cap

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


#: where `_Table.last` keeps each value last written (or `_UNSET`; lists and dicts as copies)
_L_ROUND: Final = 0
_L_ACTIVE: Final = 1
_L_PHASE: Final = 2
_L_M: Final = 3
_L_POS: Final = 4
_L_TURNS: Final = 5
_L_BAGS: Final = 6
_L_GOT: Final = 7
_L_CUBES: Final = 8
_L_DRAW: Final = 9
_L_TO_DRAW: Final = 10
_L_RED: Final = 11
_L_SPENT: Final = 12
_L_AVAILABLE: Final = 13
_L_BONUS: Final = 14
_L_PAGODA: Final = 15
_L_YELLOW: Final = 16
_L_DECK: Final = 17
_L_DISCARD: Final = 18
_L_RESOLVING: Final = 19
_L_DRAWING: Final = 20
_L_PLACED: Final = 21
_L_TO_PLACE: Final = 22
_L_WINNER: Final = 23
_L_OVER: Final = 24
_L_VALUES: Final = 25


class _Unset:
    """No value written yet (every comparison with a state's value differs)."""


_UNSET: Final = _Unset()


class _Table:
    """The table's vector (every slot but the seat's own) as last written for one state, with the values it was
    written from; per seat, the hand, the cubes on it and the omens its cards were written from."""

    def __init__(self, state: Fuji99State) -> None:
        self.state = ref(state)
        values: Any = np.zeros(_E.size, np.float32)  # Any: numpy's stubs do not declare its buffer
        self.values: Any = values
        self.out: Any = memoryview(values)  # float32 slots
        self.last: list[object] = [_UNSET] * _L_VALUES
        players = state.players
        if players > _SEATS_CAP:
            raise over_cap("seats", players, _SEATS_CAP)
        self.cards: list[tuple[list[str], tuple[int | None, ...], list[tuple[str, bool]]] | None] = [None] * players
        out = self.out
        out[_PLAYERS] = players
        out[_MAX_ROUNDS] = state.max_rounds
        out[_SEATS] = players
        for p in range(players):
            out[_SEAT_SLOTS[p][0]] = 1.0
            out[_SEAT_SLOTS[p][1]] = p


#: id(state) -> the table last written for it; emptied at _TABLES_SIZE entries (an environment takes one)
_tables: dict[int, _Table] = {}
_TABLES_SIZE: Final = 64


def _write(state: Fuji99State, table: _Table) -> None:
    """Bring the table's vector up to date with `state` where a value changed."""
    out = table.out
    last = table.last
    players = state.players
    value: object = state.round
    if value is not last[_L_ROUND]:
        out[_ROUND] = state.round
        last[_L_ROUND] = value
    active = state.active
    if active is not last[_L_ACTIVE]:
        out[_ACTIVE] = active
        last[_L_ACTIVE] = active
    phase = state.phase
    if phase is not last[_L_PHASE]:
        before = last[_L_PHASE]
        if isinstance(before, str):
            out[_PHASE[before]] = 0.0
        out[_PHASE[phase]] = 1.0
        last[_L_PHASE] = phase
        out[_OVER] = 1.0 if phase == OVER else 0.0
    value = state.m
    if value is not last[_L_M]:
        out[_MOVEMENT] = state.m
        last[_L_M] = value
    pos = state.pos
    if pos != last[_L_POS]:
        for p in range(players):
            out[_SEAT_SLOTS[p][2]] = pos[p]
        last[_L_POS] = pos.copy()
    turns = state.turns_taken
    if turns != last[_L_TURNS]:
        for p in range(players):
            out[_SEAT_SLOTS[p][3]] = turns[p]
        last[_L_TURNS] = turns.copy()
    bags = state.bags
    if bags != last[_L_BAGS]:
        for p in range(players):
            clear, yellow, red = bags[p]
            slots = _SEAT_SLOTS[p]
            out[slots[4]], out[slots[5]], out[slots[6]] = clear, yellow, red
        last[_L_BAGS] = [bag.copy() for bag in bags]
    got = state.got
    if got != last[_L_GOT]:
        for p in range(players):
            slots = _SEAT_SLOTS[p]
            out[slots[7]] = 1.0 if got[p][0] else 0.0
            out[slots[8]] = 1.0 if got[p][1] else 0.0
        last[_L_GOT] = [marks.copy() for marks in got]
    hands, cubes, omens = state.hands, state.cubes, state.omens
    cubes_changed = cubes != last[_L_CUBES]
    if cubes_changed:
        last[_L_CUBES] = cubes.copy()
    bonus_due = active is not last[_L_BONUS]
    cubes_get = cubes.get
    for p in range(players):
        hand, seat_omens = hands[p], omens[p]
        kept = table.cards[p]
        if kept is not None and not cubes_changed and hand == kept[0] and seat_omens == kept[2]:
            continue
        on_hand = tuple(map(cubes_get, hand))
        if kept is None or hand != kept[0] or on_hand != kept[1] or seat_omens != kept[2]:
            if p == active and (kept is None or hand != kept[0]):
                bonus_due = True
            _write_cards(state, p, out)
            table.cards[p] = (hand.copy(), on_hand, seat_omens.copy())
    draw = state.draw
    if draw != last[_L_DRAW]:
        out[_CURRENT[0]], out[_CURRENT[1]], out[_CURRENT[2]] = draw
        last[_L_DRAW] = draw.copy()
    to_draw_slot, red_area, spent, available, bonus_slot, pagoda, yellow20, yellow50, deck = _TABLE
    value = state.to_draw if phase == CUBES else 0
    if value is not last[_L_TO_DRAW]:
        out[to_draw_slot] = value
        last[_L_TO_DRAW] = value
    value = state.red_area
    if value is not last[_L_RED]:
        out[red_area] = state.red_area
        last[_L_RED] = value
    value = state.spent
    if value is not last[_L_SPENT]:
        out[spent] = state.spent
        last[_L_SPENT] = value
    value = state.available
    if value is not last[_L_AVAILABLE]:
        out[available] = state.available
        last[_L_AVAILABLE] = value
    if bonus_due:  # a persistent card's bonus in the active seat's hand: when that hand or the active seat changed
        out[bonus_slot] = state.move_bonus(active)
        last[_L_BONUS] = active
    value = state.pagoda
    if value is not last[_L_PAGODA]:
        out[pagoda] = state.pagoda
        last[_L_PAGODA] = value
    yellow_left = state.yellow_left
    if yellow_left != last[_L_YELLOW]:
        out[yellow20], out[yellow50] = yellow_left
        last[_L_YELLOW] = yellow_left.copy()
    value = len(state.deck)
    if value != last[_L_DECK]:
        out[deck] = value
        last[_L_DECK] = value
    discard = state.discard
    if discard != last[_L_DISCARD]:
        before = last[_L_DISCARD]
        if isinstance(before, list):
            for card in before:
                out[_DISCARD[card]] = 0.0
        for card in discard:
            out[_DISCARD[card]] = 1.0
        last[_L_DISCARD] = discard.copy()
    resolving = state.resolving
    if resolving != last[_L_RESOLVING]:
        before = last[_L_RESOLVING]
        if isinstance(before, list):
            for card in before:
                out[_RESOLVING[card]] = 0.0
        for card in resolving:
            slot = _RESOLVING[card]
            out[slot] = out[slot] + 1.0
        last[_L_RESOLVING] = resolving.copy()
    drawing = state.drawing
    if drawing is not last[_L_DRAWING]:
        if drawing is None:
            out[_DRAWING] = 0.0
            out[_DRAWING + 1] = 0.0
        else:
            out[_DRAWING] = 1.0
            out[_DRAWING + 1] = drawing
        last[_L_DRAWING] = drawing
    placed = state.placed
    if placed != last[_L_PLACED]:
        _write_placed(out, placed, last[_L_PLACED])
        last[_L_PLACED] = placed.copy()
    value = state.to_place
    if value is not last[_L_TO_PLACE]:
        out[_CUBES_TO_PLACE] = state.to_place
        last[_L_TO_PLACE] = value
    winner = state.winner
    if winner is not last[_L_WINNER]:
        if winner is None:
            out[_WINNER] = 0.0
            out[_WINNER + 1] = 0.0
        else:
            out[_WINNER] = 1.0
            out[_WINNER + 1] = winner
        last[_L_WINNER] = winner


def _write_placed(out: Any, placed: dict[str, int], before: object) -> None:  # noqa: ANN401 - a memoryview
    """The cubes placed this stop, per card: the items written before cleared, then the current ones written."""
    if len(placed) > _PLACED_CAP:
        raise over_cap("placed_this_stop", len(placed), _PLACED_CAP)
    if isinstance(before, dict):
        for i, card in enumerate(before):
            p_present, p_cards, p_cubes = _PLACED_ITEMS[i]
            out[p_present] = 0.0
            out[p_cards[card]] = 0.0
            out[p_cubes] = 0.0
    out[_PLACED] = len(placed)
    for i, (card, count) in enumerate(placed.items()):
        p_present, p_cards, p_cubes = _PLACED_ITEMS[i]
        out[p_present] = 1.0
        out[p_cards[card]] = 1.0
        out[p_cubes] = count


_ZEROS: Final[Any] = memoryview(np.zeros(_SEAT_STRIDE, np.float32))  # type: ignore[arg-type]  # numpy's stubs do not declare its buffer


def _write_cards(state: Fuji99State, p: int, out: Any) -> None:  # noqa: ANN401 - a memoryview of float32
    """Seat `p`'s hand, hand danger and omens: the end of its stretch of the vector (cleared, then written)."""
    start = _SEAT_SLOTS[p][9]
    end = _SEAT_SLOTS[p][0] + _SEAT_STRIDE
    hand = state.hands[p]
    if len(hand) > _HAND_CAP:
        raise over_cap("seats[].hand", len(hand), _HAND_CAP)
    omens = state.omens[p]
    if len(omens) > _OMENS_CAP:
        raise over_cap("seats[].omens", len(omens), _OMENS_CAP)
    out[start:end] = _ZEROS[: end - start]
    s_hand, s_danger, s_omens = _SEAT_SLOTS[p][9:]
    out[s_hand] = len(hand)
    total = 0
    places = _hand_slots(state.data)[p]
    cubes_get = state.cubes.get
    for i, card in enumerate(hand):
        h_present, per_card, h_cubes, h_danger = places[i]
        card_slot, type_slot, printed = per_card[card]
        out[h_present] = 1.0
        out[card_slot] = 1.0
        out[type_slot] = 1.0
        on_card = cubes_get(card, 0)
        out[h_cubes] = on_card
        danger = on_card if printed is None else printed
        out[h_danger] = danger
        total += danger
    out[s_danger] = total
    out[s_omens] = len(omens)
    omen_slots = _OMEN_SLOTS[p]
    for i, (card, active) in enumerate(omens):
        o_present, o_cards, o_active = omen_slots[i]
        out[o_present] = 1.0
        out[o_cards[card]] = 1.0
        out[o_active] = 1.0 if active else 0.0


def encode(state: Fuji99State, seat: Seat, slots: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding (the whole table: Fuji 99 has no secrets): a copy of the table's
    vector, brought up to date, as one block, and the seat's own number over it."""
    key = id(state)
    table = _tables.get(key)
    if table is None or table.state() is not state:
        if len(_tables) >= _TABLES_SIZE:
            _tables.clear()
        table = _tables[key] = _Table(state)
    try:
        _write(state, table)
    except KeyError as error:  # the view's encoding names the field
        del _tables[key]  # half written: the next observation starts afresh
        raise EncodingError(f"fuji99: a value of seat {seat}'s view is outside its vocabulary: {error}") from None
    except BaseException:
        del _tables[key]
        raise
    block: Block = (0, table.values)  # kept: `Slots` blocks are copied into the vector, never handed out
    blocks = getattr(slots, "blocks", None)
    if blocks is not None:
        blocks.append(block)
    else:
        slots.update(block_slots(block))
    slots[_SEAT] = 1.0
    slots[_SEAT + 1] = float(seat)
