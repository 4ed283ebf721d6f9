"""The Magnificent's typed messages on the wire, and its View written from the state.

`view_bytes` writes the bytes of `View(**build_view(state, seat))` in field-number order. A player's board
and a track change a few times a game: each is written from its part of the dict view (views.py) once and
then found by a tuple of what it shows. Tests compare the two on random games of every variant.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from b99.games import magnificent_pb2 as pb

from referee.engine import Seat
from referee.games.magnificent.data import HEIGHT, TILE_TYPES, WIDTH
from referee.games.magnificent.model import Player, Turn
from referee.games.magnificent.state import DECISION_NAMES, MagnificentState
from referee.games.magnificent.views import (
    final_scores, hat_label, main_tent_order, own_draft, track_view, view_tables,
)
from referee.wire import (
    Blocks,
    GameWire,
    IntField,
    LastKept,
    SharedParts,
    StringField,
    add_pieces,
    blocks_of,
    encode,
    key,
    message_field,
    optional_string_field,
    packed_field,
    shared_part,
    small_packed_field,
    string_field,
    strings_field,
    varint,
    varint_field,
)

SEAT: Final = key(1, 0)
ROUND: Final = key(2, 0)
START_PLAYER: Final = key(3, 0)
TURN_COUNT: Final = key(4, 0)
DECISION: Final = key(5, 2)
DECIDING: Final = key(6, 2)
MAIN_TENT: Final = key(7, 2)
DISPLAY: Final = key(8, 2)
POSTER_DISPLAY: Final = key(9, 2)
POSTER_DECK_SIZE: Final = key(10, 0)
POSTER_DISCARD: Final = key(11, 2)
MASTER_DECK_SIZE: Final = key(12, 0)
TRAINER_DECK_SIZE: Final = key(13, 0)
DRAFT_POOL: Final = key(14, 2)
REMOVED_TRAINERS: Final = key(15, 2)
TRACKS: Final = key(16, 2)
SUPPLY: Final = key(17, 2)
PLAYERS: Final = key(18, 2)
TURN: Final = key(19, 2)
POSTER_IN_HAND: Final = key(20, 2)
SIDE_B: Final = key(21, 0)
GAME_OVER: Final = key(22, 0)
FINAL_SCORES: Final = key(23, 2)
DRAFT_MASTER_CARDS: Final = key(24, 0)
DRAFT_ROUND: Final = key(25, 0)
# DieCount, Pair, TileSupply
COLOUR: Final = key(1, 2)
VALUE: Final = key(2, 0)
COUNT: Final = key(3, 0)
SLOT: Final = key(1, 0)
CARD: Final = key(2, 2)
TRAINER: Final = key(3, 2)
TILE_TYPE: Final = key(1, 2)
TILE_COUNT: Final = key(2, 0)
CELL_X: Final = key(1, 0)
CELL_Y: Final = key(2, 0)
SLOT_CARD: Final = key(1, 2)
SLOT_DIE: Final = key(2, 2)
TILE_ORIENTATION: Final = key(2, 0)
TILE_X: Final = key(3, 0)
TILE_Y: Final = key(4, 0)
# Player
P_SEAT: Final = key(1, 0)
P_BOARD: Final = key(2, 2)
P_POINTS: Final = key(3, 0)
P_COINS: Final = key(4, 0)
P_GEMS: Final = key(5, 2)
P_MARKERS: Final = key(6, 0)
P_SPENT: Final = key(7, 0)
P_MASTERS: Final = key(8, 2)
P_TRAINERS: Final = key(9, 2)
P_TILES: Final = key(10, 2)
P_CAMP: Final = key(11, 2)
P_POSTERS: Final = key(12, 2)
P_TENTS: Final = key(13, 2)
P_COMPLETED: Final = key(14, 2)
P_HATS: Final = key(15, 2)
P_TURNS_TAKEN: Final = key(16, 0)
# TurnInfo
T_SEAT: Final = key(1, 0)
T_DIE: Final = key(2, 2)
T_CARD: Final = key(3, 2)
T_ACTING: Final = key(4, 2)
T_ACTION: Final = key(5, 2)
T_POWER: Final = key(6, 0)
T_BUILD_COLOUR: Final = key(7, 2)
T_WAGON_COLOUR: Final = key(8, 2)
T_MASTER_USED: Final = key(9, 0)
T_TRAINERS_USED: Final = key(10, 2)
T_EXTRA_SMALL: Final = key(11, 0)
T_EXTRA_SHOWS: Final = key(12, 0)
T_POINTS_PER_SHOW: Final = key(13, 0)
T_RESOLVED: Final = key(14, 0)
T_PENDING_TILES: Final = key(15, 2)
T_TILE_TYPE: Final = key(16, 2)
T_ANCHOR: Final = key(17, 2)
T_SHOWS: Final = key(18, 0)
T_CHOSEN: Final = key(19, 2)
T_EXTRA_GEMS_DUE: Final = key(20, 0)
T_TENT: Final = key(21, 2)

#: Per components object: players' boards and tracks already written, by what they show.
_PARTS: dict[int, tuple[Any, Blocks]] = {}


def _remembered(written: Blocks, part_key: tuple[Any, ...], write: Callable[[Any], bytes], part: Any) -> bytes:
    block = written.get(part_key)
    return written.keep(part_key, write(part)) if block is None else block


def _main_tent(main_tent: Mapping[str, int]) -> bytes:
    """View field 7: the dice in the main tent by colour (O, G, P, C), then by key (each die's count written once, the
    order of each set of keys found once)."""
    held = tuple(main_tent)
    order = _MAIN_TENT_ORDERS.get(held)
    if order is None:
        if len(_MAIN_TENT_ORDERS) >= _KEPT_LIMIT:
            _MAIN_TENT_ORDERS.clear()
        order = _MAIN_TENT_ORDERS[held] = sorted(held, key=main_tent_order)
    parts = []
    for die in order:
        count = main_tent[die]
        dice = _DICE.get(die)
        if dice is None:
            dice = _DICE[die] = {}
        block = dice.get(count)
        if block is None:
            block = dice[count] = message_field(
                MAIN_TENT, string_field(COLOUR, die[0]) + varint_field(VALUE, int(die[2])) + varint_field(COUNT, count)
            )
        parts.append(block)
    return b"".join(parts)


#: the main tent's keys as views order them, by the keys as the state's dict holds them (emptied at _KEPT_LIMIT)
_MAIN_TENT_ORDERS: Final[dict[tuple[str, ...], list[str]]] = {}
_KEPT_LIMIT: Final = 4096
#: die key ("O:4") -> count -> its View field 7 entry
_DICE: Final[dict[str, dict[int, bytes]]] = {}


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
    seat_field = _SEAT_FIELDS[seat] if 0 <= seat < len(_SEAT_FIELDS) else SEAT + varint(seat)
    if not state.draft:
        return seat_field + public
    # Fields 26-28, the last ones: the seat's own part of the draft, as views.py decides it.
    return seat_field + public + encode(pb.View, own_draft(state, seat)).SerializeToString()


def view_parts(state: MagnificentState, seat: Seat, shared: SharedParts | None, parts: list[bytes]) -> int:
    """`view_bytes` as pieces appended to `parts` (for the request to join them with its own fields in one go: the
    view is never joined on its own, nor copied behind the seat's field), and their size: the viewer's seat, the parts
    every seat sees as last written for this state (`_public_parts`: a decision's next seat finds them by their
    tokens, so `shared` is not used), then the seat's own part of the draft."""
    seat_field = _SEAT_FIELDS[seat] if 0 <= seat < len(_SEAT_FIELDS) else SEAT + varint(seat)
    size = add_pieces(parts, seat_field, _public_parts(state))
    if state.__dict__["draft"]:
        # Fields 26-28, the last ones: the seat's own part of the draft, as views.py decides it.
        own = encode(pb.View, own_draft(state, seat)).SerializeToString()
        parts.append(own)
        size += len(own)
    return size


#: View field 1 of each seat, written once
_SEAT_FIELDS: Final = tuple([SEAT + varint(seat) for seat in range(8)])


def _public(state: MagnificentState) -> bytes:
    """View fields 2-25: what every seat sees (`_public_parts`, joined)."""
    return b"".join(_public_parts(state))


def _public_parts(state: MagnificentState) -> list[bytes]:
    """View fields 2-25: what every seat sees, as pieces. Each part (the counts, the decision, each part of the market,
    each player's two halves, the turn, the tail) is written again only when what it shows differs from the copy kept
    when it was last written for this state (compared in C, identity first: no key built); most requests find
    all but one or two parts as they were."""
    written: _Written = _WRITTEN.get(state)
    # The state's attributes read from its instance dict: a dict lookup each, not Python's generic attribute look-up.
    fields: dict[str, Any] = state.__dict__
    round_number: int
    start_player: int
    turn_count: int
    pending: tuple[str, int] | None
    players: list[Player]
    turn: Turn | None
    round_number, start_player, turn_count, pending, players, turn = _STATE_FIELDS(fields)
    if round_number != written.round or start_player != written.start_player or turn_count != written.turn_count:
        written.round, written.start_player, written.turn_count = round_number, start_player, turn_count
        written.head = _head(round_number, start_player, turn_count)
    if pending != written.pending:
        # The decision's code and its deciding seats follow from `pending` (and the state's player count) alone.
        known = written.decisions.get(pending)
        if known is None:
            decision = state.decision_code()
            known = written.decisions[pending] = (decision, string_field(DECISION, decision) + packed_field(DECIDING, state.deciding_seats()))
        written.pending = pending
        written.decision, written.pending_block = known
    parts = [written.head, written.pending_block, _market(state, fields, written)]
    kept_players = written.players
    if len(kept_players) != len(players):
        kept_players = written.players = [_PlayerWritten(player) for player in players]
    tokens: list[object] = fields["player_tokens"]
    for index, player in enumerate(players):
        kept = kept_players[index]
        if kept.player is not player:
            kept = kept_players[index] = _PlayerWritten(player)
        token = tokens[index]
        if token is kept.token and index == kept.index:
            kept.dice_changed = False  # the player is as it was when its part was last written (its token says so)
            parts.append(kept.block)
        else:
            parts.append(kept.written(state, index))
            kept.token = token
    if turn is not None:
        parts.append(_turn_part(state, fields, written, turn, tokens[turn.seat]))
    tail = _TAIL_SHOWN(fields)
    if tail != written.tail:
        written.tail = tail
        written.tail_blocks = _tail(*tail)
        written.tail_block = written.tail_blocks[0] + written.tail_blocks[1]
    if fields["final"]:
        # Field 23 sits between fields 22 and 24 (a finished game only).
        tail_blocks = written.tail_blocks
        parts.append(tail_blocks[0] + encode(pb.View, {"final_scores": final_scores(state)}).SerializeToString() + tail_blocks[1])
    else:
        parts.append(written.tail_block)
    return parts


#: (poster in hand, side B, over, draft, draft round): the values of View fields 20-22 and 24-25
_TAIL_SHOWN: Final = operator.itemgetter("poster_in_hand", "side_b", "over", "draft", "draft_round")
#: The state's fields `_public` reads first, from its instance dict in one C call: View fields 2-4, the pending decision,
#: the players and the turn
_STATE_FIELDS: Final = operator.itemgetter("round", "start_player", "turn_count", "pending", "players_state", "turn")
#: What the turn's fields 1-9 show (TurnInfo, besides the power), then its fields 10-21 that hold no list (besides the
#: tent of VD2), and what its power reads besides (its power bonus), in one C call each; then its lists (trainers used,
#: pending tiles, chosen slots)
_TURN_HEAD_SHOWN: Final = operator.attrgetter(
    "seat", "die_colour", "die_value", "card", "acting", "action", "build_colour", "wagon_colour", "master_used", "power_bonus",
)
_TURN_EFFECTS_SHOWN: Final = operator.attrgetter(
    "extra_small", "extra_show", "points_per_show", "resolved", "tile", "anchor", "shows", "extra_gems_due", "tent_space",
)
_TURN_LISTS: Final = operator.attrgetter("trainers_used", "pending_tiles", "chosen")
#: What a player's field 18 shows: fields 2-8 and 16 (board to masters, turns taken: its dice), then fields 9-15
#: (trainers to hats), in one C call
_PLAYER_SHOWN: Final = operator.attrgetter(
    "board", "points", "coins", "gems", "markers", "spent", "masters", "dice", "trainers", "tiles", "posters", "tents",
    "completed", "hats",
)
#: How many of `_PLAYER_SHOWN`'s fields fields 1-8 and 16 show; where it holds each of fields 9-14 after them
_PLAYER_HEAD_FIELDS = 8
_PLAYER_TRAINERS, _PLAYER_TILES, _PLAYER_POSTERS, _PLAYER_TENTS, _PLAYER_COMPLETED = 8, 9, 10, 11, 12


def _copied(shown: tuple[Any, ...]) -> tuple[Any, ...]:
    """`shown` with each list or dict copied: the copy compares by contents where the state's own containers, shown
    again, would be the same objects mutated since."""
    return tuple([item.copy() if type(item) is list or type(item) is dict else item for item in shown])


class _Written:
    """What was last written for one state, part by part, with copies of what each part showed then."""

    def __init__(self, state: MagnificentState) -> None:
        self.round = self.start_player = self.turn_count = -1
        #: View fields 2-4
        self.head = b""
        #: ("", -1) before the first request: no state's pending decision
        self.pending: tuple[str, int] | None = ("", -1)
        self.decision = ""
        #: View fields 5-6
        self.pending_block = b""
        #: pending decision -> its code and View fields 5-6 (a game has a few dozen)
        self.decisions: dict[tuple[str, int] | None, tuple[str, bytes]] = {}
        #: each part of the market as last written (View field 7, 8, 9-15, 16, 17) and the change token it was
        #: written from (the state's, read by `_market`; None before any)
        self.tent_token: object = None
        self.main_tent_block = b""
        self.display_token: object = None
        self.display_block = b""
        #: the poster display, the poster deck's size, the poster discard, the master and trainer decks' sizes, the
        #: draft pool, the removed trainers: the posters' and the decks' tokens
        self.poster_token: object = None
        self.deck_token: object = None
        self.middle_block = b""
        self.track_token: object = None
        self.tracks_block = b""
        self.supply_token: object = None
        self.supply_block = b""
        #: View fields 7-17, the blocks above joined
        self.market = b""
        self.players: list[_PlayerWritten] = []
        #: what the turn showed (`_TURN_HEAD_SHOWN`, `_TURN_EFFECTS_SHOWN`, `_TURN_LISTS` copied), its power, the tent
        #: of VD2, and its field 19
        self.turn_head_shown: tuple[Any, ...] = ()
        self.turn_effects_shown: tuple[Any, ...] = ()
        self.turn_lists: tuple[Any, ...] = ()
        self.power = 0
        self.tent: str | None = None
        self.turn_block = b""
        #: the change tokens the turn's part was last written with: the turn's, its player's, the tracks' (VD2 only)
        self.turn_tokens: tuple[object, object, object] = (None, None, None)
        #: fields 1-9 and 10-21 of the turn's TurnInfo, and each of their parts as last written
        self.head_parts: list[bytes] = [b""] * 9
        self.effects_parts: list[bytes] = [b""] * 12
        self.turn_head = b""
        self.turn_effects = b""
        self.tail: tuple[Any, ...] = ()
        self.tail_blocks = (b"", b"")
        #: View fields 20-22 and 24-25 joined (no final scores)
        self.tail_block = b""


class _PlayerWritten:
    """One player's View field 18 as last written for a state, with a copy of what it showed then."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.index = -1
        #: `_PLAYER_SHOWN` as last written, copied (a changed entry replaced by a copy of the new one)
        self.copies: list[Any] = []
        #: fields 1-7 (seat to spent markers), 8 (masters), 9 to 15 (trainers, tiles and camp, posters, tents, completed,
        #: hats), 16 (turns taken), each as last written
        self.blocks: list[bytes] = [b""] * 9
        #: the whole field 18
        self.block = b""
        #: whether the last request found the player's dice changed (the turn's power reads them)
        self.dice_changed = True
        #: the player's change token when its part was last written (the state's `player_tokens`)
        self.token: object = None

    def written(self, state: MagnificentState, index: int) -> bytes:
        """The player's field 18, each of its parts written again where it differs from its copy (its change token
        said it changed: nothing is compared as a whole first)."""
        player = self.player
        shown = _PLAYER_SHOWN(player)
        blocks = self.blocks
        copies = self.copies
        first = not copies or index != self.index
        if first:
            copies = self.copies = list(_copied(shown))
            self.index = index
        changed = first
        board, points, coins, gems, markers, spent, masters, dice = shown[:8]
        if first or board != copies[0] or points != copies[1] or coins != copies[2] or gems != copies[3] or markers != copies[4] or spent != copies[5]:
            blocks[0] = b"".join(
                [
                    _P_SEAT.of(index), _P_BOARD.of(board), _P_POINTS.of(points), _P_COINS.of(coins),
                    small_packed_field(P_GEMS, gems), _P_MARKERS.of(markers), _P_SPENT.of(spent),
                ]
            )
            copies[0], copies[1], copies[2], copies[3], copies[4], copies[5] = board, points, coins, gems.copy(), markers, spent
            changed = True
        self.dice_changed = first or dice != copies[7]
        if self.dice_changed or masters != copies[6]:
            blocks[1] = _masters(masters, dice)
            blocks[8] = _P_TURNS_TAKEN.of(len(dice))
            copies[6], copies[7] = masters.copy(), dice.copy()
            changed = True
        for part in range(_PLAYER_HEAD_FIELDS, len(shown)):
            value = shown[part]
            if first or value != copies[part]:
                blocks[part - _PLAYER_HEAD_FIELDS + 2] = _belonging(state, player, part, value)
                copies[part] = value.copy()
                changed = True
        if changed:
            self.block = message_field(PLAYERS, b"".join(blocks))
        return self.block


def _turn_part(state: MagnificentState, fields: dict[str, Any], written: _Written, turn: Turn, player_token: object) -> bytes:
    """View field 19, its fields 1-9 and 10-21 each written again when what they show differs from what was written.

    Nothing is compared while the turn's change token, its player's and the decision (VD2 shows a track's tent, the
    tracks' token then) are those it was last written with. The power (`state.power()`) reads only the turn (its
    die, card, colour and power bonus, all in `_TURN_HEAD_SHOWN`) and the dice of the turn's player: it is asked
    again only when one of them changed since the last request."""
    tokens = (fields["turn_token"], player_token, fields["track_token"] if written.decision == "VD2" else None)
    if tokens == written.turn_tokens:  # compared item by item: identity first (tokens compare by identity alone)
        return written.turn_block
    written.turn_tokens = tokens
    head = _TURN_HEAD_SHOWN(turn)
    effects = _TURN_EFFECTS_SHOWN(turn)
    lists = _TURN_LISTS(turn)
    tent: str | None = None
    if written.decision == "VD2":
        colour, space = turn.tent_space
        tent = state.track_tents[colour][space] or ""
    head_same = head == written.turn_head_shown and not written.players[turn.seat].dice_changed
    effects_same = effects == written.turn_effects_shown and lists == written.turn_lists and tent == written.tent
    if head_same and effects_same:
        return written.turn_block
    if not head_same:
        power = _power(state.players_state[turn.seat].dice, head)
        if head != written.turn_head_shown or power != written.power:
            written.turn_head = _turn_head(head, power, written.turn_head_shown, written.power, written.head_parts)
            written.turn_head_shown = head
            written.power = power
    if not effects_same:
        trainers_used, pending_tiles, chosen = lists
        written.turn_effects = _turn_effects(
            effects, lists, tent, written.turn_effects_shown, written.turn_lists, written.tent, written.effects_parts
        )
        written.turn_effects_shown = effects
        written.turn_lists = (trainers_used.copy(), pending_tiles.copy(), chosen.copy())
        written.tent = tent
    written.turn_block = message_field(TURN, written.turn_head + written.turn_effects)
    return written.turn_block


def _power(dice: dict[str, tuple[str, int]], head: tuple[Any, ...]) -> int:
    """This turn's power, as MagnificentState.power counts it (§4.2), from what `_TURN_HEAD_SHOWN` read and the dice of
    the turn's player: compiled with the writer, where the engine's method runs as Python (tests compare the bytes
    with the view's, which calls it)."""
    die_value: int = head[2]
    card: str = head[3]
    acting: str = head[4]
    bonus: int = head[9]
    if not acting:
        return 0
    power = die_value + bonus
    for held, die in dice.items():
        if held != card and die[0] == acting:
            power += die[1]
    return power


def _head(round_number: int, start_player: int, turn_count: int) -> bytes:
    """View fields 2-4."""
    return varint_field(ROUND, round_number) + varint_field(START_PLAYER, start_player) + varint_field(TURN_COUNT, turn_count)


def _tail(poster_in_hand: str, side_b: bool, over: bool, draft: bool, draft_round: int) -> tuple[bytes, bytes]:
    """View fields 20-22, and 24-25 (what comes after the final scores)."""
    return (
        string_field(POSTER_IN_HAND, poster_in_hand) + varint_field(SIDE_B, side_b) + varint_field(GAME_OVER, over),
        varint_field(DRAFT_MASTER_CARDS, draft) + (varint_field(DRAFT_ROUND, draft_round) if draft else b""),
    )


#: per state, what was last written for it (the last request's state found first); emptied at 256 states
_WRITTEN: Final = LastKept(_Written, 256)





def _market(state: MagnificentState, fields: dict[str, Any], written: _Written) -> bytes:
    """View fields 7-17: the main tent, the display, posters, decks, the draft pool, tracks and the supply; each
    group written again only when its change token (the state's `tent_token`, `display_token`, ...) is not the one
    it was last written with. `fields`: the state's instance dict (its attributes read as dict items)."""
    changed = False
    token = fields["tent_token"]
    if token is not written.tent_token:
        changed = True
        written.tent_token = token
        written.main_tent_block = _main_tent(fields["main_tent"])
    token = fields["display_token"]
    if token is not written.display_token:
        changed = True
        written.display_token = token
        display: list[list[str | None]] = fields["display"]
        written.display_block = _remembered(blocks_of(_PARTS, state.c), ("display", *map(tuple, display)), _display, display)
    posters = fields["poster_token"]
    decks = fields["deck_token"]
    if posters is not written.poster_token or decks is not written.deck_token:
        changed = True
        written.poster_token = posters
        written.deck_token = decks
        written.middle_block = b"".join(
            [
                strings_field(POSTER_DISPLAY, [poster or "" for poster in state.poster_display]),
                varint_field(POSTER_DECK_SIZE, len(state.poster_deck)),
                strings_field(POSTER_DISCARD, state.poster_discard),
                varint_field(MASTER_DECK_SIZE, len(state.master_deck)),
                varint_field(TRAINER_DECK_SIZE, len(state.trainer_deck)),
                strings_field(DRAFT_POOL, state.draft_pool),
                strings_field(REMOVED_TRAINERS, state.removed_trainers),
            ]
        )
    token = fields["track_token"]
    if token is not written.track_token:
        changed = True
        written.track_token = token
        written.tracks_block = _tracks(state)
    token = fields["supply_token"]
    if token is not written.supply_token:
        changed = True
        written.supply_token = token
        supply: dict[str, int] = fields["supply"]
        written.supply_block = _remembered(blocks_of(_PARTS, state.c), ("supply", *map(supply.__getitem__, TILE_TYPES)), _supply, supply)
    if changed:
        written.market = b"".join(
            [written.main_tent_block, written.display_block, written.middle_block, written.tracks_block, written.supply_block]
        )
    return written.market


def _tracks(state: MagnificentState) -> bytes:
    """View field 16: each colour's track, found by what it shows (written by hand: Track's colour, wagon, spaces)."""
    tables = view_tables(state)
    blocks = blocks_of(_PARTS, state.c)
    wagons = state.wagons
    parts = []
    for colour, tents in state.track_tents.items():
        wagon = wagons[colour]
        part_key = (colour, wagon, tuple(tents))
        block = blocks.get(part_key)
        if block is None:
            spaces: list[str] = track_view(state, tables, colour)["spaces"]
            body = string_field(TRACK_COLOUR, colour) + varint_field(TRACK_WAGON, wagon) + strings_field(TRACK_SPACES, spaces)
            block = blocks.keep(part_key, message_field(TRACKS, body))
        parts.append(block)
    return b"".join(parts)


# Track
TRACK_COLOUR: Final = key(1, 2)
TRACK_WAGON: Final = key(2, 0)
TRACK_SPACES: Final = key(3, 2)


def _masters(masters: list[str], dice: dict[str, tuple[str, int]]) -> bytes:
    """Player field 8: the master cards, each with the die on it (or none)."""
    parts = []
    for card in masters:
        die = dice.get(card)
        master_key = (card, die)
        block = _MASTERS.get(master_key)
        if block is None:
            if die is None:
                block = message_field(P_MASTERS, string_field(SLOT_CARD, card))
            else:
                die_body = string_field(COLOUR, die[0]) + varint_field(VALUE, die[1])
                block = message_field(P_MASTERS, string_field(SLOT_CARD, card) + message_field(SLOT_DIE, die_body))
            _MASTERS.keep(master_key, block)
        parts.append(block)
    return b"".join(parts)


#: Player field 8, one master card with the die on it (or none), already written, by the card and its die.
_MASTERS: Final = Blocks(4096)
_P_SEAT: Final = IntField(P_SEAT)
_P_POINTS: Final = IntField(P_POINTS)
_P_COINS: Final = IntField(P_COINS)
_P_MARKERS: Final = IntField(P_MARKERS)
_P_SPENT: Final = IntField(P_SPENT)
_P_BOARD: Final = StringField(P_BOARD)
_P_TURNS_TAKEN: Final = IntField(P_TURNS_TAKEN)


def _belonging(state: MagnificentState, player: Player, part: int, shown: Any) -> bytes:  # noqa: ANN401 - one of its lists
    """One of a player's fields 9-15 from what `_PLAYER_SHOWN` read at `part`: its trainers, tiles (and the camp's
    rows they draw), posters, tents, completed posters or hats."""
    if part == _PLAYER_TRAINERS:
        return strings_field(P_TRAINERS, shown)
    if part == _PLAYER_TILES:
        tiles = tuple(shown)
        blocks = blocks_of(_CAMPS, state.c)
        block = blocks.get(tiles)
        if block is None:
            block = blocks.keep(tiles, _tiles_and_camp(state, player))
        return block
    if part == _PLAYER_POSTERS:
        return strings_field(P_POSTERS, [poster or "" for poster in shown])
    if part == _PLAYER_TENTS:
        return strings_field(P_TENTS, [tent or "" for tent in shown])
    if part == _PLAYER_COMPLETED:
        return strings_field(P_COMPLETED, shown)
    return strings_field(P_HATS, [hat_label(hat) for hat in shown])


def _tiles_and_camp(state: MagnificentState, player: Player) -> bytes:
    """Player fields 10 and 11: the tiles placed and the camp's rows they draw."""
    placed = [
        message_field(P_TILES, string_field(TILE_TYPE, tile_type) + varint_field(TILE_ORIENTATION, k) + varint_field(TILE_X, x) + varint_field(TILE_Y, y))
        for tile_type, k, x, y in player.tiles
    ]
    return b"".join(placed) + strings_field(P_CAMP, _camp_rows(state, player.tiles))


def _camp_rows(state: MagnificentState, tiles: list[tuple[str, int, int, int]]) -> list[str]:
    """Player field 11: the camp's rows the tiles draw (as views.camp_rows draws them; compiled with the writer)."""
    grid = [["."] * WIDTH for _ in range(HEIGHT)]
    tile_types = state.c.tile_types
    for tile_type, k, x, y in tiles:
        cells: tuple[tuple[int, int], ...] = tile_types[tile_type].orientations[k]
        ref_x, ref_y = cells[0]
        char = tile_type[0]
        for cx, cy in cells:
            grid[y + cy - ref_y][x + cx - ref_x] = char
    return ["".join(row) for row in grid]


#: Per components object: Player fields 10-11 already written, by the tiles placed.
_CAMPS: dict[int, tuple[Any, Blocks]] = {}


def _turn_head(head: tuple[Any, ...], power: int, old: tuple[Any, ...], old_power: int, parts: list[bytes]) -> bytes:
    """TurnInfo fields 1-9: the turn's seat, die, card, colour, action and power, from what `_TURN_HEAD_SHOWN` read
    (`head`); each field written again where what it shows differs from `old` (what was read when `parts` were last
    written; empty the first time)."""
    first = not old
    seat: int = head[0]
    die_colour: str = head[1]
    die_value: int = head[2]
    card: str = head[3]
    acting: str = head[4]
    action: str = head[5]
    build_colour: str = head[6]
    wagon_colour: str = head[7]
    if first or seat != old[0]:
        parts[0] = _T_SEAT.of(seat)
    if first or die_colour != old[1] or die_value != old[2]:
        parts[1] = message_field(T_DIE, _COLOUR.of(die_colour) + _VALUE.of(die_value)) if die_colour else b""
    if first or card != old[3]:
        parts[2] = _T_CARD.of(card)
    if first or acting != old[4] or action != old[5] or build_colour != old[6] or wagon_colour != old[7]:
        parts[3] = _T_ACTING.of(acting)
        parts[4] = _T_ACTION.of(action)
        parts[6] = _T_BUILD_COLOUR.of(build_colour or (acting if action == "BUILD" else ""))
        parts[7] = _T_WAGON_COLOUR.of(wagon_colour or (acting if action == "TRAVEL" else ""))
    if first or power != old_power:
        parts[5] = _T_POWER.of(power)
    if first or head[8] != old[8]:
        parts[8] = _T_MASTER_USED.of(head[8])
    return b"".join(parts)


_T_SEAT: Final = IntField(T_SEAT)
_VALUE: Final = IntField(VALUE)
_T_POWER: Final = IntField(T_POWER)
_T_MASTER_USED: Final = IntField(T_MASTER_USED)
_COLOUR: Final = StringField(COLOUR)
_T_CARD: Final = StringField(T_CARD)
_T_ACTING: Final = StringField(T_ACTING)
_T_ACTION: Final = StringField(T_ACTION)
_T_BUILD_COLOUR: Final = StringField(T_BUILD_COLOUR)
_T_WAGON_COLOUR: Final = StringField(T_WAGON_COLOUR)


def _turn_effects(
    effects: tuple[Any, ...], lists: tuple[Any, ...], tent: str | None, old: tuple[Any, ...], old_lists: tuple[Any, ...],
    old_tent: str | None, parts: list[bytes],
) -> bytes:
    """TurnInfo fields 10-21: the turn's effects so far, from what `_TURN_EFFECTS_SHOWN` and `_TURN_LISTS` read and the
    tent of VD2; each field written again where it differs from `old`, `old_lists` and `old_tent` (what `parts` were
    last written from; `old` empty the first time)."""
    first = not old
    trainers_used: list[str] = lists[0]
    pending_tiles: list[str] = lists[1]
    chosen: list[int] = lists[2]
    if first or trainers_used != old_lists[0]:
        parts[0] = _strings(_T_TRAINERS_USED, trainers_used)
    if first or effects[0] != old[0]:
        parts[1] = _T_EXTRA_SMALL.of(effects[0])
    if first or effects[1] != old[1]:
        parts[2] = _T_EXTRA_SHOWS.of(effects[1])
    if first or effects[2] != old[2]:
        parts[3] = _T_POINTS_PER_SHOW.of(effects[2])
    if first or effects[3] != old[3]:
        parts[4] = _T_RESOLVED.of(effects[3])
    if first or pending_tiles != old_lists[1]:
        parts[5] = _strings(_T_PENDING_TILES, pending_tiles)
    if first or effects[4] != old[4]:
        parts[6] = _T_TILE_TYPE.of(effects[4])
    if first or effects[5] != old[5]:
        x, y = effects[5]
        parts[7] = message_field(T_ANCHOR, _CELL_X.of(x) + _CELL_Y.of(y)) if x >= 0 else b""
    if first or effects[6] != old[6]:
        parts[8] = _T_SHOWS.of(effects[6])
    if first or chosen != old_lists[2]:
        parts[9] = packed_field(T_CHOSEN, [slot + 1 for slot in chosen]) if chosen else b""
    if first or effects[7] != old[7]:
        parts[10] = _T_EXTRA_GEMS_DUE.of(effects[7])
    if first or tent != old_tent:
        parts[11] = optional_string_field(T_TENT, tent)
    return b"".join(parts)


def _strings(field: StringField, texts: list[str]) -> bytes:
    """A repeated string field (`strings_field`), each element from `field`'s table."""
    if not texts:
        return b""
    return b"".join([field.of(text) if text else field.key + b"\x00" for text in texts])


_T_EXTRA_SMALL: Final = IntField(T_EXTRA_SMALL)
_T_EXTRA_SHOWS: Final = IntField(T_EXTRA_SHOWS)
_T_POINTS_PER_SHOW: Final = IntField(T_POINTS_PER_SHOW)
_T_RESOLVED: Final = IntField(T_RESOLVED)
_T_SHOWS: Final = IntField(T_SHOWS)
_T_EXTRA_GEMS_DUE: Final = IntField(T_EXTRA_GEMS_DUE)
_CELL_X: Final = IntField(CELL_X)
_CELL_Y: Final = IntField(CELL_Y)
_T_TRAINERS_USED: Final = StringField(T_TRAINERS_USED)
_T_PENDING_TILES: Final = StringField(T_PENDING_TILES)
_T_TILE_TYPE: Final = StringField(T_TILE_TYPE)


def decision_of(state: MagnificentState, seat: Seat) -> str:
    """The decision of a seat offered options: its pending decision's name (the engine's `decision_name` for a
    deciding seat, without its interpreted call and its deciding-seats check)."""
    pending = state.pending
    return DECISION_NAMES[pending[0]] if pending is not None else ""


WIRE = GameWire(
    view=pb.View, option=pb.OptionPayload, event=pb.Event, view_bytes=view_bytes, decision_of=decision_of, view_parts=view_parts
)
