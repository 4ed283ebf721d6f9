"""Fuji 99 observation from the state itself: the slots the view encoding writes for `private_view(seat)`.

Nothing in Fuji 99 is secret (referee/games/fuji99/views.py shows every seat the whole table), so this
writes the table's fields as views.py builds them, reading the state's lists directly instead of building
the view's dicts. Slot numbers come from the view encoding (`ViewEncoding.start`, `stride`, `one_hot`, ...
by field path).
"""

from __future__ import annotations

from referee.engine import Seat
from referee.games.fuji99.data import FujiData
from referee.games.fuji99.phases import CUBES, OVER
from referee.games.fuji99.state import Fuji99State
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import naming_vocabulary_errors, over_cap

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


def _encode(state: Fuji99State, seat: Seat, out: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding (the whole table: Fuji 99 has no secrets)."""
    out[_SEAT] = 1.0
    out[_SEAT + 1] = seat
    players = state.players
    phase = state.phase
    out[_PLAYERS] = players
    out[_ROUND] = state.round
    out[_MAX_ROUNDS] = state.max_rounds
    out[_ACTIVE] = state.active
    out[_PHASE[phase]] = 1.0
    out[_MOVEMENT] = state.m
    if players > _SEATS_CAP:
        raise over_cap("seats", players, _SEATS_CAP)
    out[_SEATS] = players
    hand_slots = _hand_slots(state.data)
    cubes_get = state.cubes.get
    for p in range(players):
        present, s_seat, s_pos, s_turns, s_clear, s_yellow, s_red, s_got20, s_got50, s_hand, s_danger, s_omens = _SEAT_SLOTS[p]
        out[present] = 1.0
        out[s_seat] = p
        out[s_pos] = state.pos[p]
        out[s_turns] = state.turns_taken[p]
        out[s_clear], out[s_yellow], out[s_red] = state.bags[p]
        got = state.got[p]
        out[s_got20] = got[0]
        out[s_got50] = got[1]
        hand = state.hands[p]
        if len(hand) > _HAND_CAP:
            raise over_cap("seats[].hand", len(hand), _HAND_CAP)
        out[s_hand] = len(hand)
        total = 0
        places = hand_slots[p]
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
        omens = state.omens[p]
        if len(omens) > _OMENS_CAP:
            raise over_cap("seats[].omens", len(omens), _OMENS_CAP)
        out[s_omens] = len(omens)
        omen_slots = _OMEN_SLOTS[p]
        for i, (card, active) in enumerate(omens):
            o_present, o_cards, o_active = omen_slots[i]
            out[o_present] = 1.0
            out[o_cards[card]] = 1.0
            out[o_active] = active
    out[_CURRENT[0]], out[_CURRENT[1]], out[_CURRENT[2]] = state.draw
    to_draw, red_area, spent, available, bonus, pagoda, yellow20, yellow50, deck = _TABLE
    out[to_draw] = state.to_draw if phase == CUBES else 0
    out[red_area] = state.red_area
    out[spent] = state.spent
    out[available] = state.available
    out[bonus] = state.move_bonus(state.active)
    out[pagoda] = state.pagoda
    out[yellow20], out[yellow50] = state.yellow_left
    out[deck] = len(state.deck)
    for card in state.discard:
        out[_DISCARD[card]] = 1.0
    for card in state.resolving:
        slot = _RESOLVING[card]
        out[slot] = out.get(slot, 0.0) + 1.0
    if state.drawing is not None:
        out[_DRAWING] = 1.0
        out[_DRAWING + 1] = state.drawing
    placed = state.placed
    if len(placed) > _PLACED_CAP:
        raise over_cap("placed_this_stop", len(placed), _PLACED_CAP)
    out[_PLACED] = len(placed)
    for i, (card, count) in enumerate(placed.items()):
        p_present, p_cards, p_cubes = _PLACED_ITEMS[i]
        out[p_present] = 1.0
        out[p_cards[card]] = 1.0
        out[p_cubes] = count
    out[_CUBES_TO_PLACE] = state.to_place
    if state.winner is not None:
        out[_WINNER] = 1.0
        out[_WINNER + 1] = state.winner
    out[_OVER] = phase == OVER


encode = naming_vocabulary_errors('fuji99', _encode)
