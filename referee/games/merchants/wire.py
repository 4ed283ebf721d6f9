"""Merchants of B99's typed messages (proto/b99/games/merchants.proto), and its View written from the state.

`view_parts` writes the bytes of `View(**build_view(state, seat))` in field-number order, as pieces a request
joins with its own (`view_bytes` joins them alone): the public fields (1-14), then the seat's own (15-20: its
hand, reputation cards and pending answers). The public fields are written once per position for every seat
(kept by `MerchantsState.public_token`, which the state replaces at every decision and chance outcome); a seat's
public board and the layout change a few times a game: each is written once and then found by the token the
state replaces wherever that part changes (`board_tokens`, `layout_token`), so a view costs no key built from
the part's contents (a few boards per seat's place, in a ring). A new board that the engine records as grown from
the one last written at that seat's place by a placement or a round scored is written from it (the tile's field
put in at its offset, or the new score and chips, with slices of the board last written); any other is written from
the state, reusing what it still shows as last written for that seat (its shop's cells in the dict's order: a
placement adds one at the end, or replaces a pair, and only that tile's field is written; its discards and chips,
grown by their new elements) and joined once; a seat's hand, reputation cards and returned cards are kept (and joined as one piece) while they are
unchanged. Tests compare the bytes with the dict views on random games of every variant, in copies and determinized
worlds too.

This module is compiled with the engine (referee/compiled.py: the Merchants of B99 group), so that it reads the
state's fields directly; what it calls of the shared writers (referee/wire.py, another group) runs only where a
part is written for the first time, never per request: the varints and fields it writes per request are its own
(`_varint`, the tables below).

Most of the game's events are written by `event_wire.write_event` (the draft's and the rounds' kinds), as the
shared writer's `GameWire.write_event`, which keeps their fields in its runs as any other's.
"""

from __future__ import annotations

from typing import Final, cast

from b99.games import merchants_pb2 as pb

from referee.engine import GameState, Seat
from referee.games.merchants.data import DUNGEONS
from referee.games.merchants.event_wire import write_event
from referee.games.merchants.state import OVER, Chip, MerchantsState, PlayerState
from referee.wire import (
    SMALL_VARINTS,
    GameWire,
    SharedParts,
    encode,
    key,
    message_field,
    optional_string_field,
    string_field,
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
# LayoutRow (a row of View field 7)
ROW_DUNGEON: Final = key(1, 2)
ROW_A_CARD: Final = key(2, 2)
ROW_A_FACE: Final = key(3, 2)
ROW_B_CARD: Final = key(4, 2)
ROW_B_FACE: Final = key(5, 2)
ROW_C_CARD: Final = key(6, 2)
ROW_C_KIND: Final = key(7, 2)
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

#: the phase of a game over (the engine's, held here: a constant of this module is read without a lookup)
_OVER: Final = OVER
#: varints of 0..1023 (referee.wire's, held here: a constant of this module is read without a lookup)
_SMALL: Final[tuple[bytes, ...]] = tuple(SMALL_VARINTS)


def _varint(value: int) -> bytes:
    """`value` as a varint (referee.wire's `varint`, called only for values outside 0..1023)."""
    if 0 <= value < 1024:
        return _SMALL[value]
    return varint(value)


def _message(field_key: bytes, body: bytes) -> bytes:
    """A message field (referee.wire's `message_field`, here: a call into another compile group is a Python call)."""
    size = len(body)
    return field_key + (_SMALL[size] if size < 1024 else varint(size)) + body


def _string(field_key: bytes, text: str) -> bytes:
    """A proto3 string field, nothing when empty (referee.wire's `string_field`, here for the same reason)."""
    if not text:
        return b""
    encoded = text.encode()
    size = len(encoded)
    return field_key + (_SMALL[size] if size < 1024 else varint(size)) + encoded


def _optional_string(field_key: bytes, text: str | None) -> bytes:
    """An `optional` string field, written whenever set (referee.wire's `optional_string_field`, here too)."""
    if text is None:
        return b""
    encoded = text.encode()
    size = len(encoded)
    return field_key + (_SMALL[size] if size < 1024 else varint(size)) + encoded


def _int(field_key: bytes, value: int) -> bytes:
    """A proto3 integer field, nothing for 0 (referee.wire's `varint_field`, here too)."""
    if not value:
        return b""
    return field_key + _varint(value)


def _small_fields(field_key: bytes) -> tuple[bytes, ...]:
    """An integer field of `field_key` holding 0..1023, by value."""
    return tuple(varint_field(field_key, value) for value in range(1024))


#: the public tokens of the last few positions viewed and their View fields 1-14 (what every seat sees alike), the
#: last one written replaced first; the last one viewed is also kept apart (`_LAST`)
_PUBLICS_KEPT: Final = 8
_PUBLIC_TOKENS: Final = [-1] * _PUBLICS_KEPT
_PUBLIC_BYTES: Final = [b""] * _PUBLICS_KEPT
#: how many boards a seat's place keeps by token (`_SeatBoard`)
_BOARDS_KEPT: Final = 4
#: layout token * 2 + trend cards revealed -> View fields 7-9 (the layout rows, the D card)
_LAYOUTS: Final[dict[int, bytes]] = {}
#: phase -> (players, round, pick, solo, back side as one number: `_head_number`) -> View fields 1-6 (a few dozen a game)
_HEADS: Final[dict[str, dict[int, bytes]]] = {}
#: View field 15 (the viewing seat) of each seat, and Player field 1 (a board's seat)
_SEAT_FIELDS: Final = tuple(SEAT + varint(seat) for seat in range(16))
_PLAYER_SEATS: Final = _small_fields(P_SEAT)
#: Player fields 2 (score), 7 (hand size) and 8 (reputation cards held), View fields 11 and 12, by value
_SCORES: Final = _small_fields(P_SCORE)
_HAND_SIZES: Final = _small_fields(P_HAND_SIZE)
_REPUTATION_COUNTS: Final = _small_fields(P_REPUTATION_COUNT)
_SUPPLY_SIZES: Final = _small_fields(SUPPLY_SIZE)
_DECK_SIZES: Final = _small_fields(REPUTATION_DECK_SIZE)
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
#: a shop's squares lie within this many rows and columns of its first tile's (0, 0) (shop.MAX_SIDE - 1): _SQUARES by
#: _SQUARES of them, kept square by square for each seat (`_Shop`)
_REACH: Final = 3
_SQUARES: Final = 2 * _REACH + 1


class _Board:
    """A seat's public board as written for one board token: its whole View field 10 (`whole`, written with the hand
    size and reputation count it holds: they change without the board), where its Player fields 1-6 lie in it
    (`start`, `front`: written again around them when those counts change) and its field 9 (`final`). Bytes only:
    nothing for the garbage collector to go through."""

    def __init__(self, whole: bytes, start: int, front: int, final: bytes, hand: int, reputation: int) -> None:
        self.whole = whole
        self.start = start
        self.front = front
        self.final = final
        self.hand = hand
        self.reputation = reputation


class _Texts:
    """A list of ids (a seat's hand, its reputation cards, its discards; a solo game's removed tiles) as last
    written: a copy of the list and its elements joined; written again only when the list differs."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.written = b""
        self.empty = True


class _Shop:
    """A seat's shop as last written: its cells and (tile, rotation) pairs in the dict's order (kept, so that their
    identity is never another's; compared by identity) with each one's square, and the Player fields 3 of the squares
    it holds in (row, col) order (`fields`, beside their squares in `order`). A board is written again at each
    placement: the shop gained a cell at the end of its order (or a pair replaced at a cell kept), and only that
    tile's field is written and put in its place; anything else (a cell gone, moved, another dict) writes it anew."""

    def __init__(self) -> None:
        self.cells: list[object] = []
        self.pairs: list[object] = []
        self.squares: list[int] = []
        self.order: list[int] = []
        self.fields: list[bytes] = []
        #: the fields' size
        self.size = 0


class _SeatBoard:
    """The boards last shown at a seat's place: the last one (`token`, `board`) and a ring of the last few written
    (a token is never another seat's: an older position, a copy or another game viewed in turn finds its board)."""

    def __init__(self) -> None:
        self.token = -1
        self.board = _Board(b"", 0, 0, b"", -1, -1)
        self.tokens: list[int] = [-1] * _BOARDS_KEPT
        #: each its own object: the oldest is written over in place (no object made and freed a board)
        self.boards: list[_Board] = [_Board(b"", 0, 0, b"", -1, -1) for _ in range(_BOARDS_KEPT)]
        #: where the next board written goes in the ring
        self.next = 0
        #: the board last written here (`written`, for the board token `written_token`; -1 when its shop is not kept)
        #: and where its shop's fields start in its Player fields (`shop_at`): a placement grows it (`_grown_board`)
        self.written = self.board
        self.written_token = -1
        self.shop_at = 0


class _Last:
    """The public fields last written, by the public token they were written for (most requests of a decision are
    for the state the request before was for)."""

    def __init__(self) -> None:
        self.token = -1
        self.public = b""
        #: where in _PUBLIC_TOKENS the last public fields written are
        self.slot = -1
        #: the layout key (`_public`) and View fields 7-9 last written
        self.layout_key = -1
        self.layout = b""
        #: the list of players last seen (kept: compared by identity) and its state's player count
        self.players_state: object = None
        self.players = 0
        #: View fields 11, 12 and 14 as last written (`_tail`), with the sizes and the pass direction they hold
        self.tail = b""
        #: the boards last joined (View fields 10, each seat's `_Board.whole`, kept: compared by identity) and their join
        self.boards: list[bytes] = []
        self.boards_joined = b""
        self.supply = -1
        self.deck = -1
        self.passing = b""


_LAST: Final = _Last()
#: the board last shown at each seat's place, by seat (found before the boards kept by token)
_SEAT_BOARDS: Final = [_SeatBoard() for _ in range(16)]
#: each seat's hand and reputation cards as last written (`_Texts`), by seat
_HANDS: Final = [_Texts() for _ in range(16)]
_REPUTATIONS: Final = [_Texts() for _ in range(16)]
#: each seat's returned reputation cards as last written, by seat
_SEAT_RETURNED: Final = [_Texts() for _ in range(16)]
#: each seat's shop as last written, by seat
_SHOPS: Final = [_Shop() for _ in range(16)]
#: the tiles a solo game removed (View field 13) as last written
_REMOVED: Final = _Texts()


def view_bytes(position: GameState, seat: Seat, shared: SharedParts | None = None) -> bytes:
    """`seat`'s serialized View (the bytes of its dict view through the View message): `view_parts` joined."""
    parts: list[bytes] = []
    view_parts(position, seat, shared, parts)
    return b"".join(parts)


def view_parts(position: GameState, seat: Seat, shared: SharedParts | None, parts: list[bytes]) -> int:
    """`seat`'s View as pieces appended to `parts` (`view_bytes` is their join): the public fields, written once
    per position for all seats (`shared` is not needed), then the seat's own; returns their size."""
    state = cast(MerchantsState, position)
    token = state.public_token
    last = _LAST
    if last.token == token:
        public = last.public
    else:
        tokens = _PUBLIC_TOKENS
        slot = -1
        for index in range(_PUBLICS_KEPT):
            if tokens[index] == token:
                slot = index
                break
        if slot >= 0:
            public = _PUBLIC_BYTES[slot]
        else:
            public = _public(state)
            slot = last.slot + 1 if last.slot + 1 < _PUBLICS_KEPT else 0
            tokens[slot] = token
            _PUBLIC_BYTES[slot] = public
            last.slot = slot
        last.token = token
        last.public = public
    player = state.players_state[seat]
    parts.append(public)
    size = len(public)
    bundle = player.bundle
    tiles = bundle.tiles if bundle is not None else _NO_TILES
    reputation = player.reputation
    returned = player.returned
    if tiles and 0 <= seat < 16:
        # View fields 15 and 16 as one piece, with 17 (the reputation cards) and 18 (the cards returned) where the seat
        # holds some: up to three pieces fewer in the request's join
        written = _seat_and_hand(seat, tiles)
        if reputation or returned:
            cards = _sorted_elements(_REPUTATIONS, seat, reputation, _REPUTATION, REPUTATION_HAND) if reputation else b""
            back = _kept_elements(_SEAT_RETURNED, seat, returned, _RETURNED, RETURNED) if returned else b""
            both = _SEAT_PIECES[seat]
            if both.first is not written or both.second is not cards or both.third is not back:
                both.first = written
                both.second = cards
                both.third = back
                both.joined = b"".join([written, cards, back])
            written = both.joined
        parts.append(written)
        size += len(written)
    else:
        seat_field = _SEAT_FIELDS[seat] if 0 <= seat < 16 else SEAT + varint(seat)
        parts.append(seat_field)
        size += len(seat_field)
        if tiles:
            written = _sorted_elements(_HANDS, seat, tiles, _HAND, HAND)
            parts.append(written)
            size += len(written)
        if reputation:
            written = _sorted_elements(_REPUTATIONS, seat, reputation, _REPUTATION, REPUTATION_HAND)
            parts.append(written)
            size += len(written)
        if returned:
            written = _kept_elements(_SEAT_RETURNED, seat, returned, _RETURNED, RETURNED)
            parts.append(written)
            size += len(written)
    pending_tile = player.pending_tile
    if pending_tile is not None:
        element = _PENDING_TILES.get(pending_tile)
        if element is None:
            element = _element(_PENDING_TILES, PENDING_TILE, pending_tile)
        parts.append(element)
        size += len(element)
    target: object = player.pending_target  # read as it is kept (typed, compiled code would make a new tuple)
    if target is not None:
        row, col, mode = cast(tuple[int, int, str], target)
        if -_REACH <= row <= _REACH and -_REACH <= col <= _REACH and (mode == "place" or mode == "replace"):
            # found by square and mode (no tuple hashed: the target is a new tuple at each placement)
            index = ((row + _REACH) * _SQUARES + col + _REACH) * 2 + (1 if mode == "replace" else 0)
            target_field = _TARGET_FIELDS[index]
            if not len(target_field):
                target_field = _TARGET_FIELDS[index] = _target_field(row, col, mode)
        else:
            found = _TARGETS.get(target)
            if found is None:
                if len(_TARGETS) >= 4096:
                    _TARGETS.clear()
                found = _TARGETS[target] = _target_field(row, col, mode)
            target_field = found
        parts.append(target_field)
        size += len(target_field)
    return size


def _target_field(row: int, col: int, mode: str) -> bytes:
    """View field 20 (the pending target)."""
    return _message(PENDING_TARGET, _int(TARGET_ROW, row) + _int(TARGET_COL, col) + _string(TARGET_MODE, mode))


#: View field 20 of a target within a shop's reach, by square * 2 + (1 for "replace", 0 for "place"); empty until met
_TARGET_FIELDS: Final = [b""] * (_SQUARES * _SQUARES * 2)

#: a seat's hand when it holds none
_NO_TILES: Final[list[str]] = []


class _Pair:
    """Three pieces of a seat's view as last joined (`first` + `second` + `third`, kept: compared by identity)."""

    def __init__(self) -> None:
        self.first = b""
        self.second = b""
        self.third = b""
        self.joined = b""


#: by seat: its fields 15-16 (`_seat_and_hand`), 17 (reputation cards) and 18 (cards returned) as last joined
_SEAT_PIECES: Final = [_Pair() for _ in range(16)]


def _seat_and_hand(seat: Seat, tiles: list[str]) -> bytes:
    """View field 15 (`seat`, 0-15) and its field 16 (its hand, `tiles` sorted) as one piece: written again only when
    the hand differs from the one last written for the seat (`_HANDS`)."""
    kept = _HANDS[seat]
    if kept.empty or kept.texts != tiles:
        copy = kept.texts  # kept in place: no new list for the garbage collector to follow
        copy.clear()
        copy.extend(tiles)
        kept.written = _SEAT_FIELDS[seat] + _elements(sorted(tiles), _HAND, HAND)
        kept.empty = False
    return kept.written


def _sorted_elements(memory: list[_Texts], seat: Seat, texts: list[str], elements: dict[str, bytes], field_key: bytes) -> bytes:
    """`texts`, sorted, as the elements of a repeated string field: written again only when they differ from the
    list last written for `seat` (`memory`)."""
    if not 0 <= seat < 16:
        return b"".join([_element(elements, field_key, text) for text in sorted(texts)])
    kept = memory[seat]
    if kept.empty or kept.texts != texts:
        copy = kept.texts  # kept in place: no new list for the garbage collector to follow
        copy.clear()
        copy.extend(texts)
        kept.written = _elements(sorted(texts), elements, field_key)
        kept.empty = False
    return kept.written


def _elements(texts: list[str], elements: dict[str, bytes], field_key: bytes) -> bytes:
    """`texts` in their order as the elements of a repeated string field (each element kept in `elements`)."""
    parts = []
    for text in texts:
        element = elements.get(text)
        if element is None:
            element = _element(elements, field_key, text)
        parts.append(element)
    return b"".join(parts)


def _kept_elements(memory: list[_Texts], seat: Seat, texts: list[str], elements: dict[str, bytes], field_key: bytes) -> bytes:
    """`texts` in their order as the elements of a repeated string field: written again only when they differ from
    the list last written for `seat` (`memory`)."""
    if not 0 <= seat < 16:
        return _elements(texts, elements, field_key)
    kept = memory[seat]
    if kept.empty or kept.texts != texts:
        copy = kept.texts  # kept in place: no new list for the garbage collector to follow
        copy.clear()
        copy.extend(texts)
        kept.written = _elements(texts, elements, field_key)
        kept.empty = False
    return kept.written


def _element(elements: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    """`text` as an element of a repeated string field (or an optional string field), kept in `elements` (ids: a
    few hundred at most)."""
    if len(elements) >= 4096:
        elements.clear()
    element = elements[text] = _optional_string(field_key, text)
    return element


def _public(state: MerchantsState) -> bytes:
    """View fields 1-14: what every seat (and a spectator) sees."""
    round_number = state.round
    phase = state.phase
    solo = state.solo
    revealed = state.trends_revealed()
    layout_key = state.layout_token * 2 + (1 if revealed else 0)
    last = _LAST
    if last.layout_key == layout_key:
        layout = last.layout
    else:
        found = _LAYOUTS.get(layout_key)
        if found is None:
            if len(_LAYOUTS) >= 512:
                _LAYOUTS.clear()
            found = _LAYOUTS[layout_key] = _layout(state, revealed)
        layout = found
        last.layout_key = layout_key
        last.layout = found
    players = state.players_state
    if last.players_state is players:
        players_count = last.players
    else:
        # a property of the engine's base class (a generic read of its config): read once per list of players (a
        # state's own from its start; a copy makes its own)
        players_count = state.players
        last.players_state = players
        last.players = players_count
    pick = state.pick
    back_side = state.back_side
    heads = _HEADS.get(phase)
    if heads is None:
        heads = _HEADS[phase] = {}
    head_key = _head_number(players_count, round_number, pick, solo, back_side)
    head = heads.get(head_key) if head_key >= 0 else None
    if head is None:
        head = b"".join([
            _int(PLAYERS, players_count),
            _int(ROUND, round_number),
            _int(PICK, pick),
            _string(PHASE, phase),
            _int(SOLO, solo),
            _int(BACK, back_side),
        ])
        if head_key >= 0:
            if len(heads) >= 1024:
                heads.clear()
            heads[head_key] = head
    # View fields 10 (the boards) as one piece while every board is the one last joined (most decisions place none)
    tokens = state.board_tokens
    count = len(players)
    pieces = last.boards
    changed = len(pieces) != count
    if changed:
        pieces.clear()
        for _ in range(count):
            pieces.append(b"")
    for index in range(count):
        player = players[index]
        token = tokens[index]
        bundle = player.bundle
        hand = len(bundle.tiles) if bundle is not None else 0
        reputation = len(player.reputation)
        seat_board = _SEAT_BOARDS[index] if index < 16 else _SeatBoard()
        if seat_board.token == token:
            board = seat_board.board
        else:
            board = _find_board(state, seat_board, index, player, token, hand, reputation)
            seat_board.token = token
            seat_board.board = board
        if board.hand != hand or board.reputation != reputation:
            _rewrite_counts(board, hand, reputation)
        whole = board.whole
        if pieces[index] is not whole:
            pieces[index] = whole  # held here: compared by identity
            changed = True
    if changed:
        last.boards_joined = b"".join(pieces)
    boards = last.boards_joined
    supply = len(state.supply)
    deck = len(state.reputation_deck)
    passing = b""
    if phase != _OVER and round_number >= 1 and not solo:
        passing = PASS_RIGHT if round_number == 2 else PASS_LEFT
    solo_removed = state.solo_removed
    if solo_removed:
        parts = [head, layout, boards]
        parts.append(_SUPPLY_SIZES[supply] if supply < 1024 else varint_field(SUPPLY_SIZE, supply))
        parts.append(_DECK_SIZES[deck] if deck < 1024 else varint_field(REPUTATION_DECK_SIZE, deck))
        removed = _REMOVED
        if removed.empty or removed.texts != solo_removed:
            _grow_elements(removed, solo_removed, _SOLO_REMOVED, SOLO_REMOVED)
        parts.append(removed.written)
        if passing:
            parts.append(passing)
        return b"".join(parts)
    # fields 11, 12 and 14 as one piece while they hold the same (the supply and the deck change at deals)
    if last.supply != supply or last.deck != deck or last.passing is not passing:
        last.tail = b"".join([
            _SUPPLY_SIZES[supply] if supply < 1024 else varint_field(SUPPLY_SIZE, supply),
            _DECK_SIZES[deck] if deck < 1024 else varint_field(REPUTATION_DECK_SIZE, deck),
            passing,
        ])
        last.supply = supply
        last.deck = deck
        last.passing = passing
    return b"%b%b%b%b" % (head, layout, boards, last.tail)


#: a tile id -> its element of View field 13 (the tiles a solo game removed)
_SOLO_REMOVED: Final[dict[str, bytes]] = {}


def _grow_elements(kept: _Texts, texts: list[str], elements: dict[str, bytes], field_key: bytes) -> None:
    """`kept` written again for `texts`, a repeated string field (`kept.written`): only the new elements where the list
    last written is their start (a solo game's removed tiles grow by a hand a pick, a seat's discards by a replaced
    tile), else all of them."""
    kept_texts = kept.texts
    count = len(kept_texts)
    start = not kept.empty and count < len(texts)
    index = 0
    while start and index < count:
        if kept_texts[index] != texts[index]:
            start = False
        index += 1
    if start:
        added = texts[count:]
        kept.written = kept.written + _elements(added, elements, field_key)
        kept_texts.extend(added)
    else:
        kept_texts.clear()
        kept_texts.extend(texts)
        kept.written = _elements(texts, elements, field_key)
        kept.empty = False


def _head_number(players: int, round_number: int, pick: int, solo: bool, back_side: bool) -> int:
    """View fields 1-6 but the phase as one number (-1 where a value is out of the usual range: not kept)."""
    if not (0 <= players < 64 and 0 <= round_number < 64 and 0 <= pick < 64):
        return -1
    return players | round_number << 6 | pick << 12 | (1 << 18 if solo else 0) | (1 << 19 if back_side else 0)


def _layout(state: MerchantsState, revealed: bool) -> bytes:
    """View fields 7-9: the layout rows (with the C cards once revealed: `MerchantsState.layout_rows`, read from
    the state's fields) and the D card with its kind."""
    parts = []
    layout = state.layout
    c_cards = state.c_cards
    grey = state.grey
    for dungeon in _DUNGEONS:
        a_side = layout.get((dungeon, "A"))
        b_side = layout.get((dungeon, "B"))
        if a_side is None or b_side is None:
            continue
        a_card, a_face = a_side
        b_card, b_face = b_side
        c_card: str | None = None
        c_kind: str | None = None
        if revealed and dungeon in c_cards and dungeon in grey:
            c_card = c_cards[dungeon]
            c_kind = state.data.grey_kinds[grey[dungeon]]
        # a row's fields from each text's field kept by key (a layout is random: its rows are seldom seen again whole)
        pieces = [
            _text_field(_ROW_TEXTS[0], ROW_DUNGEON, dungeon),
            _text_field(_ROW_TEXTS[1], ROW_A_CARD, a_card),
            _text_field(_ROW_TEXTS[2], ROW_A_FACE, a_face),
            _text_field(_ROW_TEXTS[3], ROW_B_CARD, b_card),
            _text_field(_ROW_TEXTS[4], ROW_B_FACE, b_face),
        ]
        if c_card is not None:
            pieces.append(_optional_text_field(_ROW_TEXTS[5], ROW_C_CARD, c_card))
        if c_kind is not None:
            pieces.append(_optional_text_field(_ROW_TEXTS[6], ROW_C_KIND, c_kind))
        size = 0
        for piece in pieces:
            size += len(piece)
        pieces.insert(0, _LAYOUT_HEADS[size] if size < 1024 else LAYOUT + varint(size))
        parts.append(b"".join(pieces))
    if revealed and state.d_card is not None:
        parts.append(_optional_string(D_CARD, state.d_card))
        parts.append(_optional_string(D_KIND, state.data.grey_kinds[grey["D"]]))
    return b"".join(parts)


#: the dungeons, in the layout's order
_DUNGEONS: Final = tuple(DUNGEONS)
#: by LayoutRow field (1-7, from 0): a text -> its field
_ROW_TEXTS: Final[list[dict[str, bytes]]] = [{} for _ in range(7)]
#: View field 7's key and length, by length
_LAYOUT_HEADS: Final = tuple(LAYOUT + varint(size) for size in range(1024))


def _text_field(fields: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    """A proto3 string field of `text` (`_string`), kept in `fields`."""
    field = fields.get(text)
    if field is None:
        if len(fields) >= 4096:
            fields.clear()
        field = fields[text] = _string(field_key, text)
    return field


def _optional_text_field(fields: dict[str, bytes], field_key: bytes, text: str) -> bytes:
    """An `optional` string field of `text` (`_optional_string`), kept in `fields` (`_element`)."""
    field = fields.get(text)
    if field is None:
        field = _element(fields, field_key, text)
    return field


def _find_board(
    state: MerchantsState, seat_board: _SeatBoard, seat: Seat, player: PlayerState, token: int, hand: int, reputation: int
) -> _Board:
    """The board of `token` at a seat's place: one kept in its ring, else written (and kept there): grown from the
    board last written here where the engine records that a placement or a round scored made it from that one
    (`MerchantsState.grown_from`), else written from the state."""
    tokens = seat_board.tokens
    for index in range(_BOARDS_KEPT):
        if tokens[index] == token:
            return seat_board.boards[index]
    slot = seat_board.next
    board = seat_board.boards[slot]  # the oldest: never the board last written (the ring holds more than one)
    written = seat_board.written_token
    seat_board.written_token = -1  # until a board is written in full below (what is kept may change on the way)
    grown = False
    if 0 <= seat < len(state.grown_from) and seat < 16:
        parent = state.grown_from[seat]
        if isinstance(parent, int) and parent == written:
            cell = state.grown_cells[seat]
            if isinstance(cell, int):
                # a round scored: the record names the token it made
                if cell == token:
                    grown = _scored_board(seat_board, seat, player, hand, reputation, board)
            elif state.grown_at == state.public_token:
                grown = _grown_board(seat_board, seat, player, cell, hand, reputation, board)
    if grown:
        seat_board.written_token = token
    else:
        shop_at = _board(seat, player, hand, reputation, board)
        if shop_at >= 0:
            seat_board.shop_at = shop_at
            seat_board.written_token = token
    seat_board.written = board
    tokens[slot] = token
    seat_board.next = slot + 1 if slot + 1 < _BOARDS_KEPT else 0
    return board


def _grown_board(
    seat_board: _SeatBoard, seat: Seat, player: PlayerState, cell: object, hand: int, reputation: int, board: _Board
) -> bool:
    """`board` written as the board last written at the seat's place (`seat_board.written`, whose shop and discards
    `_SHOPS` and `_RESTS` keep) with the tile the engine placed at `cell` (a new square, or a tile replaced and
    discarded): its field put in at its offset, and the discarded tile's after the discards, in one join of slices
    of the board last written (no pass over the shop, no list compared). False (nothing changed) where the shop is
    not the one it grew from by that cell."""
    row, col = cast(tuple[int, int], cell)  # `cell` itself stays the shop's key object (kept: compared by identity)
    if not (-_REACH <= row <= _REACH and -_REACH <= col <= _REACH):
        return False
    shop = cast(dict[object, object], player.shop)
    placed = shop.get(cell)
    if placed is None:
        return False
    kept = _SHOPS[seat]
    square = (row + _REACH) * _SQUARES + col + _REACH
    order = kept.order
    fields = kept.fields
    count = len(order)
    # the square's place in (row, col) order, and the offset of its field in the shop's fields
    at = 0
    offset = 0
    while at < count and order[at] < square:
        offset += len(fields[at])
        at += 1
    replacing = at < count and order[at] == square
    if len(shop) != len(kept.cells) + (0 if replacing else 1):
        return False
    field = _placed(placed, row, col)
    last = seat_board.written
    whole = last.whole
    start = last.start
    front_end = start + last.front
    split = start + seat_board.shop_at + offset
    counts = _counts(hand, reputation)
    final = last.final
    if replacing:
        rest = _RESTS[seat]
        kept_discards = rest.discards
        discards = player.discards
        if len(discards) != len(kept_discards.texts) + 1:
            return False
        old = discards[len(discards) - 1]
        element = _DISCARDS.get(old)
        if element is None:
            element = _element(_DISCARDS, P_DISCARDS, old)
        old_field = fields[at]
        discards_end = start + seat_board.shop_at + kept.size + len(kept_discards.written)
        front = last.front + len(field) - len(old_field) + len(element)
        size = front + len(counts) + len(final)
        board_head = _BOARD_HEADS[size] if size < 1024 else SEATS + varint(size)
        board.whole = b"%b%b%b%b%b%b%b%b" % (
            board_head, whole[start:split], field, whole[split + len(old_field):discards_end], element,
            whole[discards_end:front_end], counts, final,
        )
        # the shop and discards kept as the board now shows them
        squares = kept.squares
        index = 0
        while squares[index] != square:
            index += 1
        kept.pairs[index] = placed
        kept.size += len(field) - len(old_field)
        fields[at] = field
        kept_discards.texts.append(old)
        kept_discards.written = kept_discards.written + element
        kept_discards.empty = False
        rest.size += len(element)
    else:
        front = last.front + len(field)
        size = front + len(counts) + len(final)
        board_head = _BOARD_HEADS[size] if size < 1024 else SEATS + varint(size)
        board.whole = b"%b%b%b%b%b%b" % (board_head, whole[start:split], field, whole[split:front_end], counts, final)
        order.insert(at, square)
        fields.insert(at, field)
        kept.size += len(field)
        kept.cells.append(cell)
        kept.pairs.append(placed)
        kept.squares.append(square)
    board.start = len(board_head)
    board.front = front
    board.final = final
    board.hand = hand
    board.reputation = reputation
    return True


def _scored_board(seat_board: _SeatBoard, seat: Seat, player: PlayerState, hand: int, reputation: int, board: _Board) -> bool:
    """`board` written as the board last written at the seat's place after a round scored (the engine's record): its
    new score, its shop and discards as one slice of the board last written, its chips as `_rest` brings them up to
    date (a chip used: one grown by it, the unused ones written again). False where the shop or discards changed."""
    kept = _SHOPS[seat]
    rest = _RESTS[seat]
    if len(player.shop) != len(kept.cells):
        return False
    discards = rest.discards.written
    last = seat_board.written
    start = last.start
    shop_start = start + seat_board.shop_at
    shop_end = shop_start + kept.size + len(discards)
    _rest(seat, player)
    if rest.discards.written is not discards:
        return False
    score = player.score
    seat_field = _PLAYER_SEATS[seat]
    score_field = _SCORES[score] if 0 <= score < 1024 else varint_field(P_SCORE, score)
    counts = _counts(hand, reputation)
    final = last.final
    unused = rest.unused_written
    chips = rest.chips_written
    front = len(seat_field) + len(score_field) + shop_end - shop_start + len(unused) + len(chips)
    size = front + len(counts) + len(final)
    board_head = _BOARD_HEADS[size] if size < 1024 else SEATS + varint(size)
    board.whole = b"".join([
        board_head, seat_field, score_field, last.whole[shop_start:shop_end], unused, chips, counts, final,
    ])
    board.start = len(board_head)
    board.front = front
    board.final = final
    board.hand = hand
    board.reputation = reputation
    seat_board.shop_at = len(seat_field) + len(score_field)
    return True


def _counts(hand: int, reputation: int) -> bytes:
    """Player fields 7 and 8 (the hand size, the reputation cards held)."""
    if hand < _FEW and reputation < _FEW:
        return _FEW_COUNTS[hand * _FEW + reputation]
    return (_HAND_SIZES[hand] if hand < 1024 else varint_field(P_HAND_SIZE, hand)) + (
        _REPUTATION_COUNTS[reputation] if reputation < 1024 else varint_field(P_REPUTATION_COUNT, reputation)
    )


#: Player fields 7 and 8 of a hand and a reputation count below _FEW, by hand * _FEW + count
_FEW: Final = 16
_FEW_COUNTS: Final = tuple(
    varint_field(P_HAND_SIZE, hand) + varint_field(P_REPUTATION_COUNT, count) for hand in range(_FEW) for count in range(_FEW)
)


def _rewrite_counts(board: _Board, hand: int, reputation: int) -> None:
    """A board's View field 10 written again around its Player fields 1-6 for another hand size or reputation count."""
    counts = _counts(hand, reputation)
    final = board.final
    start = board.start
    front = board.whole[start:start + board.front]
    size = len(front) + len(counts) + len(final)
    board_head = _BOARD_HEADS[size] if size < 1024 else SEATS + varint(size)
    board.whole = b"".join([board_head, front, counts, final])
    board.start = len(board_head)
    board.hand = hand
    board.reputation = reputation


def _board(seat: Seat, player: PlayerState, hand: int, reputation: int, board: _Board) -> int:
    """Seat `seat`'s View field 10 (its Player fields 1-9) with `hand` and `reputation` as its fields 7 and 8, written
    into `board`: each part as last written for the seat where it is unchanged, joined once. Returns where the shop's
    fields start in its Player fields, or -1 where its shop is not kept (written apart)."""
    score = player.score
    seat_field = _PLAYER_SEATS[seat] if 0 <= seat < 1024 else varint_field(P_SEAT, seat)
    score_field = _SCORES[score] if 0 <= score < 1024 else varint_field(P_SCORE, score)
    shop = _SHOPS[seat] if 0 <= seat < 16 else _Shop()
    fields = _shop_fields(shop, player.shop)
    shop_size = shop.size if shop.cells or not fields else sum([len(field) for field in fields])
    rest = _rest(seat, player)
    final = player.final
    tail = b"" if final is None else message_field(P_FINAL, encode(pb.FinalScore, final).SerializeToString())
    counts = _counts(hand, reputation)
    front = len(seat_field) + len(score_field) + shop_size + rest.size
    size = front + len(counts) + len(tail)
    board_head = _BOARD_HEADS[size] if size < 1024 else SEATS + varint(size)
    pieces = [board_head, seat_field, score_field]
    pieces.extend(fields)
    if rest.size:
        written = rest.discards.written
        if len(written):
            pieces.append(written)
        written = rest.unused_written
        if len(written):
            pieces.append(written)
        written = rest.chips_written
        if len(written):
            pieces.append(written)
    if len(counts):
        pieces.append(counts)
    if len(tail):
        pieces.append(tail)
    board.whole = b"".join(pieces)
    board.start = len(board_head)
    board.front = front
    board.final = tail
    board.hand = hand
    board.reputation = reputation
    return len(seat_field) + len(score_field) if shop.cells or not fields else -1


#: View field 10's key and length, by length
_BOARD_HEADS: Final = tuple(SEATS + varint(size) for size in range(1024))


class _Rest:
    """A seat's Player fields 4 (discards), 5 (unused chips) and 6 (used chips) as last written, each beside a copy of
    its list."""

    def __init__(self) -> None:
        self.discards = _Texts()
        self.unused: list[str] = []
        self.chips: list[Chip] = []
        self.unused_written = b""
        self.chips_written = b""
        #: the three written blocks' size
        self.size = 0


#: by seat: its Player fields 4-6 as last written
_RESTS: Final = [_Rest() for _ in range(16)]


def _rest(seat: Seat, player: PlayerState) -> _Rest:
    """A seat's Player fields 4-6 (`_Rest`): each as last written for the seat while its list is unchanged, the
    discards grown by their new elements where the list last written is their start (a replaced tile is discarded)."""
    kept = _RESTS[seat] if 0 <= seat < 16 else _Rest()
    discards = player.discards
    unused = player.unused_chips
    chips = player.chips
    kept_discards = kept.discards
    if len(kept_discards.texts) != len(discards) or (len(discards) and kept_discards.texts != discards):
        _grow_elements(kept_discards, discards, _DISCARDS, P_DISCARDS)
    if len(kept.unused) != len(unused) or (len(unused) and kept.unused != unused):
        kept.unused.clear()
        kept.unused.extend(unused)
        kept.unused_written = _elements(unused, _UNUSED, P_UNUSED)
    kept_chips = kept.chips
    if len(kept_chips) != len(chips) or (len(chips) and kept_chips != chips):
        count = len(kept_chips)
        if count + 1 == len(chips) and kept_chips == chips[:count]:
            chip = chips[count]  # a round scored: its chip added
            kept.chips_written = kept.chips_written + _chip(chip)
            kept_chips.append(chip)
        else:
            kept_chips.clear()
            kept_chips.extend(chips)
            kept.chips_written = b"".join([_chip(chip) for chip in chips])
    kept.size = len(kept.discards.written) + len(kept.unused_written) + len(kept.chips_written)
    return kept


def _shop_fields(kept: _Shop, shop_dict: dict[tuple[int, int], tuple[str, int]]) -> list[bytes]:
    """A shop's Player fields 3 in (row, col) order (`kept.fields`; `kept.size` their size): what `kept` holds where the
    shop is the one it was last written from, grown by cells added at the end of its order or with pairs replaced at
    cells kept, else written anew. One pass over the shop, comparing by identity."""
    # The cells and pairs read as the shop keeps them (typed, compiled code would make new tuples).
    shop = cast(dict[object, object], shop_dict)
    if len(shop) < len(kept.cells) or not _shop_pass(kept, shop):
        # not the shop last written (a cell gone or moved, another game's): written anew, in the same pass
        _forget(kept)
        if not _shop_pass(kept, shop):
            _forget(kept)
            return _shop_apart(shop_dict)
    return kept.fields


def _forget(kept: _Shop) -> None:
    """Nothing kept of a seat's shop."""
    kept.cells.clear()
    kept.pairs.clear()
    kept.squares.clear()
    kept.order.clear()
    kept.fields.clear()
    kept.size = 0


def _shop_pass(kept: _Shop, shop: dict[object, object]) -> bool:
    """`kept` brought to `shop` where its cells are the kept ones in the kept order followed by new ones within reach
    (False otherwise, `kept` then half updated: to be forgotten)."""
    cells = kept.cells
    pairs = kept.pairs
    count = len(cells)
    index = 0
    for cell, placed in shop.items():
        if index < count:
            if cells[index] is not cell:
                return False
            if pairs[index] is not placed:
                # a pair replaced at a cell kept: its field written again in its place
                square = kept.squares[index]
                row, col = cast(tuple[int, int], cell)
                order = kept.order
                at = 0
                while order[at] != square:
                    at += 1
                field = _placed(placed, row, col)
                kept.size += len(field) - len(kept.fields[at])
                kept.fields[at] = field
                pairs[index] = placed
        else:
            # a cell added at the end of the shop's order: its field put in its place
            row, col = cast(tuple[int, int], cell)
            if not (-_REACH <= row <= _REACH and -_REACH <= col <= _REACH):
                return False
            square = (row + _REACH) * _SQUARES + col + _REACH
            order = kept.order
            at = len(order)
            while at > 0 and order[at - 1] > square:
                at -= 1
            field = _placed(placed, row, col)
            order.insert(at, square)
            kept.fields.insert(at, field)
            kept.size += len(field)
            cells.append(cell)
            pairs.append(placed)
            kept.squares.append(square)
        index += 1
    return True


def _shop_apart(shop: dict[tuple[int, int], tuple[str, int]]) -> list[bytes]:
    """A shop set from outside the rules (a cell out of reach of the first tile's): its fields in (row, col) order,
    nothing kept."""
    return [_placed(shop[cell], cell[0], cell[1]) for cell in sorted(shop)]


def _placed(placed: object, row: int, col: int) -> bytes:
    """A shop's tile (`placed`: its (tile, rotation)) at (row, col) as a Player field 3 (a tile is placed once a
    game: its field is written when the seat's shop first shows it, from the tile's id field and the square's)."""
    tile, rotation = cast(tuple[str, int], placed)
    tile_field = _TILE_IDS.get(tile)
    if tile_field is None:
        if len(_TILE_IDS) >= 4096:
            _TILE_IDS.clear()
        tile_field = _TILE_IDS[tile] = _string(TILE_ID, tile)
    if -_REACH <= row <= _REACH and -_REACH <= col <= _REACH and 0 <= rotation < 360 and rotation % 90 == 0:
        tail = _PLACES[((row + _REACH) * _SQUARES + col + _REACH) * 4 + rotation // 90]
    else:
        tail = varint_field(TILE_ROW, row) + varint_field(TILE_COL, col) + varint_field(TILE_ROTATION, rotation)
    size = len(tile_field) + len(tail)
    return b"%b%b%b" % (_SHOP_HEADS[size] if size < 1024 else P_SHOP + varint(size), tile_field, tail)


#: a tile id -> its PlacedTile field 1
_TILE_IDS: Final[dict[str, bytes]] = {}
#: PlacedTile fields 2-4 (row, col, rotation) of a tile at a square within reach, by square * 4 + rotation / 90
_PLACES: Final = tuple(
    varint_field(TILE_ROW, row) + varint_field(TILE_COL, col) + varint_field(TILE_ROTATION, rotation)
    for row in range(-_REACH, _REACH + 1)
    for col in range(-_REACH, _REACH + 1)
    for rotation in (0, 90, 180, 270)
)
#: Player field 3's key and length, by length
_SHOP_HEADS: Final = tuple(P_SHOP + varint(size) for size in range(1024))


def _chip(chip: Chip) -> bytes:
    """A used dungeon chip as a Player field 6."""
    return _message(
        P_CHIPS,
        _int(CHIP_ROUND, chip.round)
        + _string(CHIP_DUNGEON, chip.dungeon)
        + _int(CHIP_THUMB, 1 if chip.thumb else 0)
        + _int(CHIP_POINTS, chip.points),
    )


def decision_of(position: GameState, seat: Seat) -> str:
    """The decision a seat that is offered options takes: every seat decides at once, and the decision is the phase
    (what `MerchantsState.decision_name` says), read without the engine's method call."""
    return cast(MerchantsState, position).phase


WIRE = GameWire(
    view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes, decision_of=decision_of,
    write_event=write_event, view_parts=view_parts,
)
