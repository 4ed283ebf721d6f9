"""Merchants of B99's typed messages (proto/b99/games/merchants.proto), and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` in field-number order: the public fields
(1-14), then the seat's own (15-20: its hand, reputation cards and pending answers). The public fields are
written once per position for every seat (kept by `MerchantsState.public_token`, which the state replaces at
every decision and chance outcome); a seat's public board and the layout change a few times a game: each is
written once and then found by the token the state replaces wherever that part changes (`board_tokens`,
`layout_token`), so a view costs no key built from the part's contents; a seat's hand and reputation cards and
a shop's tiles are kept while they are unchanged. Tests compare the bytes with the dict views on random games of
every variant, in copies and determinized worlds too.

Most of the game's events are written by `event_wire.write_event` (the draft's and the rounds' kinds), as the
shared writer's `GameWire.write_event`, which keeps their fields in its runs as any other's.
"""

from __future__ import annotations

from typing import Final, cast

from b99.games import merchants_pb2 as pb

from referee.engine import GameState, Seat
from referee.games.merchants.event_wire import write_event
from referee.games.merchants.state import OVER, Chip, MerchantsState
from referee.wire import (
    SMALL_VARINTS,
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

#: public token -> View fields 1-14 (what every seat sees alike); the last one written is also kept apart (`_LAST`)
_PUBLICS: Final[dict[int, bytes]] = {}
_PUBLICS_KEPT: Final = 64
#: board token -> what a seat's public board shows (`_Board`)
_BOARDS: Final[dict[int, _Board]] = {}
_BOARDS_KEPT: Final = 512
#: layout token * 2 + trend cards revealed -> View fields 7-9 (the layout rows, the D card)
_LAYOUTS: Final[dict[int, bytes]] = {}
#: id(chip) -> (the chip, its Player field 6): a used chip never changes (kept, so that its id is never another's)
_CHIPS: Final[dict[int, tuple[Chip, bytes]]] = {}
#: id((tile, rotation) placed in a shop) -> that pair with its row, column and Player field 3 (`_Placed`): the pair a
#: shop holds is made where the tile is placed and never changed (kept, so that its id is never another's)
_PLACED: Final[dict[int, _Placed]] = {}
#: phase -> (players, round, pick, solo, back side as one number: `_head_number`) -> View fields 1-6 (a few dozen a game)
_HEADS: Final[dict[str, dict[int, bytes]]] = {}
#: View field 15 (the viewing seat) of each seat
_SEAT_FIELDS: Final = tuple(SEAT + varint(seat) for seat in range(16))
#: Player fields 7 (hand size) and 8 (reputation cards held) by value
_HAND_SIZES: Final = tuple(varint_field(P_HAND_SIZE, size) for size in range(128))
_REPUTATION_COUNTS: Final = tuple(varint_field(P_REPUTATION_COUNT, count) for count in range(128))
#: a tile or card id -> its element of View field 16 (hand), 17 (reputation hand), 18 (returned reputation), 19 (the
#: pending tile); a discarded tile or unused chip -> its element of Player field 4 or 5
_HAND: Final[dict[str, bytes]] = {}
_REPUTATION: Final[dict[str, bytes]] = {}
_RETURNED: Final[dict[str, bytes]] = {}
_PENDING_TILES: Final[dict[str, bytes]] = {}
_DISCARDS: Final[dict[str, bytes]] = {}
_UNUSED: Final[dict[str, bytes]] = {}
#: (row, col, mode) -> View field 20 (the pending target)
_TARGETS: Final[dict[object, bytes]] = {}


class _Board:
    """A seat's public board as written for one board token: its Player fields 1-6 and 9 (all of
    views._public_player but the hand size and reputation count), and its whole View field 10 as last written
    with the hand size and reputation count it was written with (they change without the board)."""

    def __init__(self, fields: bytes, final: bytes) -> None:
        self.fields = fields
        self.final = final
        self.hand = -1
        self.reputation = -1
        self.whole = b""


class _Texts:
    """A list of ids (a seat's hand, its reputation cards) as last written for one seat: a copy of the list and
    its elements joined; written again only when the list differs."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.written = b""
        self.empty = True


class _Last:
    """The public fields last written, by the public token they were written for (most requests of a decision are
    for the state the request before was for)."""

    def __init__(self) -> None:
        self.token = -1
        self.public = b""


_LAST: Final = _Last()
#: each seat's hand and reputation cards as last written (`_Texts`), by seat
_HANDS: Final = [_Texts() for _ in range(16)]
_REPUTATIONS: Final = [_Texts() for _ in range(16)]
#: the tiles a solo game removed (View field 13) as last written
_REMOVED: Final = _Texts()


def view_bytes(position: GameState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): the public fields,
    written once per position for all seats (`shared` is not needed), then the seat's own."""
    state = cast(MerchantsState, position)
    token: int = state.public_token
    last = _LAST
    if last.token == token:
        public = last.public
    else:
        found = _PUBLICS.get(token)
        if found is None:
            if len(_PUBLICS) >= _PUBLICS_KEPT:
                _PUBLICS.clear()
            found = _PUBLICS[token] = _public(state)
        public = found
        last.token = token
        last.public = found
    player = state.players_state[seat]
    parts = [public, _SEAT_FIELDS[seat] if 0 <= seat < 16 else SEAT + varint(seat)]
    bundle = player.bundle
    if bundle is not None:
        tiles = bundle.tiles
        if tiles:
            parts.append(_sorted_elements(_HANDS, seat, tiles, _HAND, HAND))
    reputation = player.reputation
    if reputation:
        parts.append(_sorted_elements(_REPUTATIONS, seat, reputation, _REPUTATION, REPUTATION_HAND))
    returned = player.returned
    if returned:
        for card in returned:
            element = _RETURNED.get(card)
            parts.append(_element(_RETURNED, RETURNED, card) if element is None else element)
    pending_tile = player.pending_tile
    if pending_tile is not None:
        element = _PENDING_TILES.get(pending_tile)
        parts.append(_element(_PENDING_TILES, PENDING_TILE, pending_tile) if element is None else element)
    target: object = player.pending_target  # read as it is kept (typed, compiled code would make a new tuple)
    if target is not None:
        written = _TARGETS.get(target)
        if written is None:
            row, col, mode = cast(tuple[int, int, str], target)
            if len(_TARGETS) >= 4096:
                _TARGETS.clear()
            written = _TARGETS[target] = message_field(
                PENDING_TARGET, varint_field(TARGET_ROW, row) + varint_field(TARGET_COL, col) + string_field(TARGET_MODE, mode)
            )
        parts.append(written)
    return b"".join(parts)


def _sorted_elements(memory: list[_Texts], seat: Seat, texts: list[str], elements: dict[str, bytes], field_key: bytes) -> bytes:
    """`texts`, sorted, as the elements of a repeated string field: written again only when they differ from the
    list last written for `seat` (`memory`)."""
    if not 0 <= seat < 16:
        return b"".join([_element(elements, field_key, text) for text in sorted(texts)])
    kept = memory[seat]
    if kept.empty or kept.texts != texts:
        parts = []
        for text in sorted(texts):
            element = elements.get(text)
            parts.append(_element(elements, field_key, text) if element is None else element)
        kept.texts = list(texts)
        kept.written = b"".join(parts)
        kept.empty = False
    return kept.written


def _element(elements: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    """`text` as an element of a repeated string field (or an optional string field), kept in `elements` (ids: a
    few hundred at most)."""
    encoded = text.encode()
    if len(elements) >= 4096:
        elements.clear()
    element = elements[text] = field_key + varint(len(encoded)) + encoded
    return element


def _public(state: MerchantsState) -> bytes:
    """View fields 1-14: what every seat (and a spectator) sees."""
    round_number = state.round
    phase = state.phase
    solo = state.solo
    revealed = state.trends_revealed()
    layout_token: int = state.layout_token
    layout_key = layout_token * 2 + (1 if revealed else 0)
    layout = _LAYOUTS.get(layout_key)
    if layout is None:
        if len(_LAYOUTS) >= 512:
            _LAYOUTS.clear()
        layout = _LAYOUTS[layout_key] = _layout(state, revealed)
    players_count = state.players
    pick = state.pick
    back_side = state.back_side
    heads = _HEADS.get(phase)
    if heads is None:
        heads = _HEADS[phase] = {}
    head_key = _head_number(players_count, round_number, pick, solo, back_side)
    head = heads.get(head_key) if head_key >= 0 else None
    if head is None:
        head = b"".join([
            varint_field(PLAYERS, players_count),
            varint_field(ROUND, round_number),
            varint_field(PICK, pick),
            string_field(PHASE, phase),
            varint_field(SOLO, solo),
            varint_field(BACK, back_side),
        ])
        if head_key >= 0:
            if len(heads) >= 1024:
                heads.clear()
            heads[head_key] = head
    parts = [head, layout]
    boards = _BOARDS
    tokens = state.board_tokens
    players = state.players_state
    for index in range(len(players)):
        player = players[index]
        token: int = tokens[index]
        board = boards.get(token)
        if board is None:
            if len(boards) >= _BOARDS_KEPT:
                boards.clear()
            board = boards[token] = _board(state, index)
        bundle = player.bundle
        hand = len(bundle.tiles) if bundle is not None else 0
        reputation = len(player.reputation)
        if board.hand != hand or board.reputation != reputation:
            body = b"".join([
                board.fields,
                _HAND_SIZES[hand] if hand < 128 else varint_field(P_HAND_SIZE, hand),
                _REPUTATION_COUNTS[reputation] if reputation < 128 else varint_field(P_REPUTATION_COUNT, reputation),
                board.final,
            ])
            size = len(body)
            board.whole = SEATS + (SMALL_VARINTS[size] if size < 1024 else varint(size)) + body
            board.hand = hand
            board.reputation = reputation
        parts.append(board.whole)
    parts.append(varint_field(SUPPLY_SIZE, len(state.supply)))
    parts.append(varint_field(REPUTATION_DECK_SIZE, len(state.reputation_deck)))
    solo_removed = state.solo_removed
    if solo_removed:
        removed = _REMOVED
        if removed.empty or removed.texts != solo_removed:  # grows by a hand a pick: written again only then
            removed.texts = list(solo_removed)
            removed.written = strings_field(SOLO_REMOVED, solo_removed)
            removed.empty = False
        parts.append(removed.written)
    if phase != OVER and round_number >= 1 and not solo:
        parts.append(PASS_RIGHT if round_number == 2 else PASS_LEFT)
    return b"".join(parts)


def _head_number(players: int, round_number: int, pick: int, solo: bool, back_side: bool) -> int:
    """View fields 1-6 but the phase as one number (-1 where a value is out of the usual range: not kept)."""
    if not (0 <= players < 64 and 0 <= round_number < 64 and 0 <= pick < 64):
        return -1
    return players | round_number << 6 | pick << 12 | (1 << 18 if solo else 0) | (1 << 19 if back_side else 0)


def _layout(state: MerchantsState, revealed: bool) -> bytes:
    """View fields 7-9: the layout rows (with the C cards once revealed) and the D card with its kind."""
    block = encode(pb.View, {"layout": state.layout_rows(with_hidden=revealed)}).SerializeToString()
    if revealed and state.d_card is not None:
        block += optional_string_field(D_CARD, state.d_card) + optional_string_field(D_KIND, state.data.grey_kinds[state.grey["D"]])
    return block


#: a shop spans at most this many rows and columns (shop.MAX_SIDE): its cells are put in order in a grid this size
_SIDE: Final = 4
#: a shop's squares lie within this many rows and columns of its first tile's (0, 0): _SQUARES by _SQUARES of them
_REACH: Final = _SIDE - 1
_SQUARES: Final = 2 * _REACH + 1


class _Shop:
    """A seat's shop as last written, square by square: the (tile, rotation) pair at each square (kept, so that its
    id is never another's) and its Player field 3. A board is written again at each placement, all its tiles
    but one unchanged."""

    def __init__(self) -> None:
        self.pairs: list[object] = [None] * (_SQUARES * _SQUARES)
        self.fields: list[bytes] = [b""] * (_SQUARES * _SQUARES)


#: each seat's shop as last written (`_Shop`), by seat
_SHOPS: Final = [_Shop() for _ in range(16)]


def _board(state: MerchantsState, seat: Seat) -> _Board:
    """Seat `seat`'s Player fields 1-6 (seat, score, shop by square, discards, unused chips, chips) and 9 (its
    final record)."""
    player = state.players_state[seat]
    # The pairs (tile, rotation) read as the shop keeps them (typed, compiled code would make new tuples).
    shop = cast(dict[tuple[int, int], object], player.shop)
    parts = [varint_field(P_SEAT, seat), varint_field(P_SCORE, player.score)]
    top = left = 1 << 20
    bottom = right = -(1 << 20)
    for row, col in shop:
        top = min(top, row)
        bottom = max(bottom, row)
        left = min(left, col)
        right = max(right, col)
    if bottom - top < _SIDE and right - left < _SIDE:
        # Each cell's field put at its square of the grid, read row by row: the shop by (row, col) without a sort.
        grid = [b""] * (_SIDE * _SIDE)
        kept = _SHOPS[seat] if 0 <= seat < 16 else None
        for cell, placed in shop.items():
            row, col = cell
            if kept is not None and -_REACH <= row <= _REACH and -_REACH <= col <= _REACH:
                # This seat's square as last written: the same pair there is the same field (no lookup by id).
                square = (row + _REACH) * _SQUARES + col + _REACH
                if kept.pairs[square] is placed:
                    field = kept.fields[square]
                else:
                    field = _placed(placed, row, col)
                    kept.pairs[square] = placed
                    kept.fields[square] = field
            else:
                field = _placed(placed, row, col)
            grid[(row - top) * _SIDE + col - left] = field
        parts.extend(grid)
    else:  # a shop set from outside the rules
        for cell in sorted(shop):
            row, col = cell
            parts.append(_placed(shop[cell], row, col))
    for text in player.discards:
        element = _DISCARDS.get(text)
        parts.append(_element(_DISCARDS, P_DISCARDS, text) if element is None else element)
    for text in player.unused_chips:
        element = _UNUSED.get(text)
        parts.append(_element(_UNUSED, P_UNUSED, text) if element is None else element)
    for chip in player.chips:
        known = _CHIPS.get(id(chip))
        if known is None or known[0] is not chip:
            if len(_CHIPS) >= 4096:
                _CHIPS.clear()
            known = _CHIPS[id(chip)] = (chip, _chip(chip))
        parts.append(known[1])
    final = player.final
    tail = b"" if final is None else message_field(P_FINAL, encode(pb.FinalScore, final).SerializeToString())
    return _Board(b"".join(parts), tail)


class _Placed:
    """A shop's (tile, rotation) pair at a square, with its Player field 3."""

    def __init__(self, pair: object, row: int, col: int, field: bytes) -> None:
        self.pair = pair
        self.row = row
        self.col = col
        self.field = field


def _placed(placed: object, row: int, col: int) -> bytes:
    """A shop's tile (`placed`: its (tile, rotation)) at (row, col) as a Player field 3, kept by the pair's identity."""
    known = _PLACED.get(id(placed))
    if known is not None and known.pair is placed and known.row == row and known.col == col:
        return known.field
    tile, rotation = cast(tuple[str, int], placed)
    written = message_field(
        P_SHOP,
        string_field(TILE_ID, tile) + varint_field(TILE_ROW, row) + varint_field(TILE_COL, col) + varint_field(TILE_ROTATION, rotation),
    )
    if len(_PLACED) >= 20_000:
        _PLACED.clear()
    _PLACED[id(placed)] = _Placed(placed, row, col, written)
    return written


def _chip(chip: Chip) -> bytes:
    """A used dungeon chip as a Player field 6."""
    return message_field(
        P_CHIPS,
        varint_field(CHIP_ROUND, chip.round)
        + string_field(CHIP_DUNGEON, chip.dungeon)
        + varint_field(CHIP_THUMB, 1 if chip.thumb else 0)
        + varint_field(CHIP_POINTS, chip.points),
    )


def decision_of(position: GameState, seat: Seat) -> str:
    """The decision a seat that is offered options takes: every seat decides at once, and the decision is the phase
    (what `MerchantsState.decision_name` says), read without the engine's method call."""
    return cast(MerchantsState, position).phase


WIRE = GameWire(
    view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes, decision_of=decision_of,
    write_event=write_event,
)
