"""Merchants of B99's typed messages (proto/b99/games/merchants.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` in field-number order: the public fields
(1-14), then the seat's own (15-20: its hand, reputation cards and pending answers). The public fields are
written once per position for every seat (kept by `MerchantsState.public_token`, which the state replaces at
every decision and chance outcome); a seat's public board and the layout change a few times a game: each is
written once and then found by the token the state replaces wherever that part changes (`board_tokens`,
`layout_token`), so a view costs no key built from the part's contents. Tests compare the bytes with the
dict views on random games of every variant, in copies and determinized worlds too.
"""

from __future__ import annotations

from typing import Final, cast

from b99.games import merchants_pb2 as pb

from referee.engine import GameState, Seat
from referee.games.merchants.state import OVER, Chip, MerchantsState
from referee.wire import (
    SMALL_VARINTS,
    Blocks,
    GameWire,
    SharedParts,
    encode,
    key,
    message_field,
    optional_string_field,
    string_field,
    strings_field,
    varint,
    varint_field,
)

PLAYERS: Final = key(1, 0)
ROUND: Final = key(2, 0)
PICK: Final = key(3, 0)
PHASE: Final = key(4, 2)
SOLO: Final = key(5, 0)
BACK: Final = key(6, 0)
LAYOUT: Final = key(7, 2)
D_CARD: Final = key(8, 2)
D_KIND: Final = key(9, 2)
SEATS: Final = key(10, 2)
SUPPLY_SIZE: Final = key(11, 0)
REPUTATION_DECK_SIZE: Final = key(12, 0)
SOLO_REMOVED: Final = key(13, 2)
PASS_DIRECTION: Final = key(14, 2)
SEAT: Final = key(15, 0)
HAND: Final = key(16, 2)
REPUTATION_HAND: Final = key(17, 2)
RETURNED: Final = key(18, 2)
PENDING_TILE: Final = key(19, 2)
PENDING_TARGET: Final = key(20, 2)
TARGET_ROW: Final = key(1, 0)
TARGET_COL: Final = key(2, 0)
TARGET_MODE: Final = key(3, 2)
PASS_LEFT: Final = string_field(PASS_DIRECTION, "left")
PASS_RIGHT: Final = string_field(PASS_DIRECTION, "right")
# Player (a seat's public board) and the messages it holds
P_SEAT: Final = key(1, 0)
P_SCORE: Final = key(2, 0)
P_SHOP: Final = key(3, 2)
P_DISCARDS: Final = key(4, 2)
P_UNUSED: Final = key(5, 2)
P_CHIPS: Final = key(6, 2)
P_HAND_SIZE: Final = key(7, 0)
P_REPUTATION_COUNT: Final = key(8, 0)
P_FINAL: Final = key(9, 2)
TILE_ID: Final = key(1, 2)
TILE_ROW: Final = key(2, 0)
TILE_COL: Final = key(3, 0)
TILE_ROTATION: Final = key(4, 0)
CHIP_ROUND: Final = key(1, 0)
CHIP_DUNGEON: Final = key(2, 2)
CHIP_THUMB: Final = key(3, 0)
CHIP_POINTS: Final = key(4, 0)

#: public token -> View fields 1-14 (what every seat sees alike)
_PUBLICS: Final = Blocks(64)
#: board token -> (the seat's Player fields 1-6, its field 9): what a seat's public board shows
_BOARDS: Final = Blocks()
#: (layout token, trend cards revealed) -> View fields 7-9 (the layout rows, the D card)
_LAYOUTS: Final = Blocks()
#: id(chip) -> (the chip, its Player field 6): a used chip never changes (kept, so that its id is never another's)
_CHIPS: Final[dict[int, tuple[Chip, bytes]]] = {}
#: (row, col, tile, rotation) -> a shop's placed tile as a Player field 3 (a few thousand exist)
_PLACED: Final[dict[tuple[int, int, str, int], bytes]] = {}
#: (players, round, pick, phase, solo, back side) -> View fields 1-6 (a few dozen a game)
_HEADS: Final[dict[tuple[int, int, int, str, bool, bool], bytes]] = {}
#: View field 15 (the viewing seat) of each seat
_SEAT_FIELDS: Final = tuple(SEAT + varint(seat) for seat in range(16))
#: a tile or card id -> its element of View field 16 (hand), 17 (reputation hand), 18 (returned reputation)
_HAND: Final[dict[str, bytes]] = {}
_REPUTATION: Final[dict[str, bytes]] = {}
_RETURNED: Final[dict[str, bytes]] = {}


def view_bytes(position: GameState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the public fields,
    written once per position for all seats (`shared` is not needed), then the seat's own."""
    state = cast(MerchantsState, position)
    token = state.public_token
    public = _PUBLICS.get(token)
    if public is None:
        public = _PUBLICS.keep(token, _public(state))
    player = state.players_state[seat]
    parts = [public, _SEAT_FIELDS[seat]]
    bundle = player.bundle
    if bundle is not None:
        _elements(parts, _HAND, HAND, sorted(bundle.tiles))
    reputation = player.reputation
    if reputation:
        _elements(parts, _REPUTATION, REPUTATION_HAND, sorted(reputation))
    returned = player.returned
    if returned:
        _elements(parts, _RETURNED, RETURNED, returned)
    if player.pending_tile is not None:
        parts.append(optional_string_field(PENDING_TILE, player.pending_tile))
    target = player.pending_target
    if target is not None:
        row, col, mode = target
        parts.append(message_field(PENDING_TARGET, varint_field(TARGET_ROW, row) + varint_field(TARGET_COL, col) + string_field(TARGET_MODE, mode)))
    return b"".join(parts)


def _elements(parts: list[bytes], elements: dict[str, bytes], field_key: bytes, texts: list[str]) -> None:
    """Append each of `texts` as an element of a repeated string field (`_element`) to `parts`."""
    for text in texts:
        element = elements.get(text)
        parts.append(_element(elements, field_key, text) if element is None else element)


def _element(elements: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    """`text` as an element of a repeated string field, kept in `elements` (ids: a few hundred at most)."""
    encoded = text.encode()
    element = elements[text] = field_key + varint(len(encoded)) + encoded
    return element


def _public(state: MerchantsState) -> bytes:
    """View fields 1-14: what every seat (and a spectator) sees."""
    round_number = state.round
    phase = state.phase
    solo = state.solo
    revealed = state.trends_revealed()
    layout_key = (state.layout_token, revealed)
    layout = _LAYOUTS.get(layout_key)
    if layout is None:
        layout = _LAYOUTS.keep(layout_key, _layout(state, revealed))
    head_key = (state.players, round_number, state.pick, phase, solo, state.back_side)
    head = _HEADS.get(head_key)
    if head is None:
        if len(_HEADS) >= 1024:
            _HEADS.clear()
        head = _HEADS[head_key] = b"".join([
            varint_field(PLAYERS, state.players),
            varint_field(ROUND, round_number),
            varint_field(PICK, state.pick),
            string_field(PHASE, phase),
            varint_field(SOLO, solo),
            varint_field(BACK, state.back_side),
        ])
    parts = [head, layout]
    boards = _BOARDS
    tokens = state.board_tokens
    for index, player in enumerate(state.players_state):
        token = tokens[index]
        board: tuple[bytes, bytes] | None = boards.get(token)  # typed: compiled, its bytes are joined directly
        if board is None:
            board = boards.keep(token, _board(state, index))
        bundle = player.bundle
        fields, final = board
        body = (
            fields
            + varint_field(P_HAND_SIZE, len(bundle.tiles) if bundle is not None else 0)
            + varint_field(P_REPUTATION_COUNT, len(player.reputation))
            + final
        )
        size = len(body)
        parts.append(SEATS + (SMALL_VARINTS[size] if size < 1024 else varint(size)) + body)
    parts.append(varint_field(SUPPLY_SIZE, len(state.supply)))
    parts.append(varint_field(REPUTATION_DECK_SIZE, len(state.reputation_deck)))
    if state.solo_removed:
        parts.append(strings_field(SOLO_REMOVED, state.solo_removed))
    if phase != OVER and round_number >= 1 and not solo:
        parts.append(PASS_RIGHT if round_number == 2 else PASS_LEFT)
    return b"".join(parts)


def _layout(state: MerchantsState, revealed: bool) -> bytes:
    """View fields 7-9: the layout rows (with the C cards once revealed) and the D card with its kind."""
    block = encode(pb.View, {"layout": state.layout_rows(with_hidden=revealed)}).SerializeToString()
    if revealed and state.d_card is not None:
        block += optional_string_field(D_CARD, state.d_card) + optional_string_field(D_KIND, state.data.grey_kinds[state.grey["D"]])
    return block


def _board(state: MerchantsState, seat: Seat) -> tuple[bytes, bytes]:
    """Seat `seat`'s Player fields 1-6 (seat, score, shop by square, discards, unused chips, chips) and 9 (its
    final record): all of views._public_player but the hand size and reputation count."""
    player = state.players_state[seat]
    shop = player.shop
    parts = [varint_field(P_SEAT, seat), varint_field(P_SCORE, player.score)]
    for cell in sorted(shop):
        tile, rotation = shop[cell]
        row, col = cell
        placed_key = (row, col, tile, rotation)
        placed = _PLACED.get(placed_key)
        if placed is None:
            if len(_PLACED) >= 20_000:
                _PLACED.clear()
            placed = _PLACED[placed_key] = message_field(
                P_SHOP,
                string_field(TILE_ID, tile) + varint_field(TILE_ROW, row) + varint_field(TILE_COL, col) + varint_field(TILE_ROTATION, rotation),
            )
        parts.append(placed)
    parts.append(strings_field(P_DISCARDS, player.discards))
    parts.append(strings_field(P_UNUSED, player.unused_chips))
    for chip in player.chips:
        known = _CHIPS.get(id(chip))
        if known is None or known[0] is not chip:
            if len(_CHIPS) >= 4096:
                _CHIPS.clear()
            known = _CHIPS[id(chip)] = (chip, _chip(chip))
        parts.append(known[1])
    final = player.final
    tail = b"" if final is None else message_field(P_FINAL, encode(pb.FinalScore, final).SerializeToString())
    return b"".join(parts), tail


def _chip(chip: Chip) -> bytes:
    """A used dungeon chip as a Player field 6."""
    return message_field(
        P_CHIPS,
        varint_field(CHIP_ROUND, chip.round)
        + string_field(CHIP_DUNGEON, chip.dungeon)
        + varint_field(CHIP_THUMB, 1 if chip.thumb else 0)
        + varint_field(CHIP_POINTS, chip.points),
    )


WIRE = GameWire(view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes)
