"""The Magnificent's observations from the state: the vector `game_encoding("magnificent").view` gives a seat's view.

Everything but deck orders is public (spec §5) and the draft's hands are the seat's own, so a seat's
vector is the table's, its seat number and, with the draft variant, its hand, picks and removed card.
One vector is kept per state (found by a weak reference) with the change tokens of the state's parts it was
written from (referee/games/magnificent/state.py: a fresh token replaces a part's wherever the rules change it):
each part whose token changed is written again in place (a player's fields compared with copies of those last
written, only the differing ones written again), and `observation_vector(state, seat)` hands out one copy with
the seat's own slots set (`encode` hands the same copy to `Slots` as one block). A state edited outside the
rules must have its tokens renewed (`MagnificentState.renew_tokens`) before it is encoded again.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Final
from weakref import ref

import numpy as np

from referee.engine import Seat
from referee.games.magnificent import draft
from referee.games.magnificent.data import TILE_TYPES
from referee.games.magnificent.model import Player, Turn, position_label
from referee.games.magnificent.state import SIMULTANEOUS, MagnificentState
from sdk.envs.encoding import EncodingError
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import Memory, block_taker, check_cap

GAME: Final = "magnificent"
_E: Final = game_encoding(GAME).view


# ----- the table's own fields -------------------------------------------------------------------
SEAT: Final = _E.start("seat")
ROUND: Final = _E.start("round")
START_PLAYER: Final = _E.start("start_player")
TURN_COUNT: Final = _E.start("turn_count")
DECISION: Final = _E.one_hot("decision")
DECIDING: Final = _E.start("deciding")
DECIDING_CAP: Final = _E.cap("deciding")
POSTER_DISPLAY: Final = _E.start("poster_display")
POSTER_DISPLAY_CAP: Final = _E.cap("poster_display")
POSTER_INDEX: Final = _E.indexed("poster_display[]")
POSTER_DECK_SIZE: Final = _E.start("poster_deck_size")
MASTER_DECK_SIZE: Final = _E.start("master_deck_size")
TRAINER_DECK_SIZE: Final = _E.start("trainer_deck_size")
POSTER_DISCARD: Final = _E.one_hot("poster_discard")
DRAFT_POOL: Final = _E.one_hot("draft_pool")
REMOVED_TRAINERS: Final = _E.one_hot("removed_trainers")
SUPPLY: Final = _E.start("supply")
SUPPLY_ITEM: Final = _E.start("supply[]")
SUPPLY_STRIDE: Final = _E.stride("supply")
SUPPLY_TYPE: Final = _E.one_hot("supply[].tile_type", "supply[]")
SUPPLY_COUNT: Final = _E.offset("supply[].count", "supply[]")
POSTER_IN_HAND: Final = _E.one_hot("poster_in_hand")
SIDE_B: Final = _E.start("side_b")
GAME_OVER: Final = _E.start("game_over")
FINAL_SCORES: Final = _E.start("final_scores")
FINAL_SCORES_NODE: Final = _E.node("final_scores")
DRAFT_MASTER_CARDS: Final = _E.start("draft_master_cards")
DRAFT_ROUND: Final = _E.start("draft_round")
DRAFT_HAND: Final = _E.one_hot("draft_hand")
DRAFT_PICKS: Final = _E.one_hot("draft_picks")
DRAFT_REMOVED: Final = _E.one_hot("draft_removed")

MAIN_TENT: Final = _E.start("main_tent")
MAIN_TENT_ITEM: Final = _E.start("main_tent[]")
MAIN_TENT_STRIDE: Final = _E.stride("main_tent")
MAIN_TENT_CAP: Final = _E.cap("main_tent")
MAIN_TENT_SIZE: Final = _E.node("main_tent").size
_MT_COLOUR: Final = _E.one_hot("main_tent[].colour", "main_tent[]")
_MT_VALUE: Final = _E.offset("main_tent[].value", "main_tent[]")
_MT_COUNT: Final = _E.offset("main_tent[].count", "main_tent[]")

DISPLAY: Final = _E.start("display")
DISPLAY_ITEM: Final = _E.start("display[]")
DISPLAY_STRIDE: Final = _E.stride("display")
DISPLAY_CAP: Final = _E.cap("display")
DISPLAY_SIZE: Final = _E.node("display").size
_D_SLOT: Final = _E.offset("display[].slot", "display[]")
_D_CARD: Final = _E.offset("display[].card", "display[]")
_D_TRAINER: Final = _E.offset("display[].trainer", "display[]")
_D_CARDS: Final = _E.indexed("display[].card")
_D_TRAINERS: Final = _E.indexed("display[].trainer")

TRACKS: Final = _E.start("tracks")
TRACKS_ITEM: Final = _E.start("tracks[]")
TRACKS_STRIDE: Final = _E.stride("tracks")
TRACKS_CAP: Final = _E.cap("tracks")
TRACKS_SIZE: Final = _E.node("tracks").size
_T_COLOUR: Final = _E.one_hot("tracks[].colour", "tracks[]")
_T_WAGON: Final = _E.offset("tracks[].wagon", "tracks[]")
_T_SPACES: Final = _E.offset("tracks[].spaces", "tracks[]")
_T_SPACES_FIRST: Final = _E.offset("tracks[].spaces[]", "tracks[]")
_T_SPACES_CAP: Final = _E.cap("tracks[].spaces")
_T_SPACE: Final = _E.indexed("tracks[].spaces[]")

PLAYERS: Final = _E.start("players")
PLAYERS_ITEM: Final = _E.start("players[]")
PLAYERS_STRIDE: Final = _E.stride("players")
PLAYERS_CAP: Final = _E.cap("players")


def _p(name: str) -> int:
    return _E.offset(f"players[].{name}", "players[]")


_P_SEAT: Final = _p("seat")
_P_POINTS: Final = _p("points")
_P_COINS: Final = _p("coins")
_P_MARKERS: Final = _p("markers")
_P_SPENT: Final = _p("spent_markers")
_P_TURNS: Final = _p("turns_taken")
_P_BOARD: Final = _E.one_hot("players[].board", "players[]")
_P_GEMS: Final = _p("gems")
_P_GEMS_CAP: Final = _E.cap("players[].gems")
_P_MASTERS: Final = _p("masters")
_P_MASTERS_FIRST: Final = _p("masters[]")
_P_MASTERS_STRIDE: Final = _E.stride("players[].masters")
_P_MASTERS_CAP: Final = _E.cap("players[].masters")
_M_CARD: Final = _E.offset("players[].masters[].card", "players[].masters[]")
_M_CARDS: Final = _E.indexed("players[].masters[].card")
_M_DIE: Final = _E.offset("players[].masters[].die", "players[].masters[]")
_M_DIE_COLOUR: Final = _E.one_hot("players[].masters[].die.colour", "players[].masters[]")
_M_DIE_VALUE: Final = _E.offset("players[].masters[].die.value", "players[].masters[]")
_P_TRAINERS: Final = _E.one_hot("players[].trainers", "players[]")
_P_TILES: Final = _p("tiles")
_P_TILES_FIRST: Final = _p("tiles[]")
_P_TILES_STRIDE: Final = _E.stride("players[].tiles")
_P_TILES_CAP: Final = _E.cap("players[].tiles")
_TL_TYPE: Final = _E.one_hot("players[].tiles[].tile_type", "players[].tiles[]")
_TL_ORIENTATION: Final = _E.offset("players[].tiles[].orientation", "players[].tiles[]")
_TL_X: Final = _E.offset("players[].tiles[].x", "players[].tiles[]")
_TL_Y: Final = _E.offset("players[].tiles[].y", "players[].tiles[]")
_P_CAMP: Final = _p("camp")
CAMP_SIZE: Final = _P_CAMP + _E.node("players[].camp").size - _P_TILES  # the tiles list and the camp, one after the other
_CAMP_GRID: Final = _E.spec.grids["players[].camp"]
_CAMP_ROWS: Final = _CAMP_GRID[0]
_CAMP_COLS: Final = _CAMP_GRID[1]
_CAMP_CHARS: Final = _CAMP_GRID[2]
_P_POSTERS: Final = _p("posters")
_P_POSTERS_FIRST: Final = _p("posters[]")
_P_POSTERS_CAP: Final = _E.cap("players[].posters")
_P_POSTER: Final = _E.indexed("players[].posters[]")
_P_TENTS: Final = _p("tents")
_P_TENTS_FIRST: Final = _p("tents[]")
_P_TENTS_CAP: Final = _E.cap("players[].tents")
_P_TENT: Final = _E.indexed("players[].tents[]")
_P_COMPLETED: Final = _E.one_hot("players[].completed", "players[]")
_P_HATS: Final = _p("hats")
_P_HATS_FIRST: Final = _p("hats[]")
_P_HATS_STRIDE: Final = _E.stride("players[].hats")
_P_HATS_CAP: Final = _E.cap("players[].hats")
_P_HAT: Final = _E.slots("players[].hats[]")
#: stretches of a player's part (from its first slot) written again when what they show changes
_P_BOARD_FROM: Final = min(_P_BOARD.values())
_P_BOARD_TO: Final = max(_P_BOARD.values()) + 1
_P_TRAINERS_FROM: Final = min(_P_TRAINERS.values())
_P_TRAINERS_TO: Final = max(_P_TRAINERS.values()) + 1
_P_COMPLETED_FROM: Final = min(_P_COMPLETED.values())
_P_COMPLETED_TO: Final = max(_P_COMPLETED.values()) + 1
_P_MASTERS_TO: Final = _P_MASTERS_FIRST + _P_MASTERS_CAP * _P_MASTERS_STRIDE
_P_HATS_TO: Final = _P_HATS_FIRST + _P_HATS_CAP * _P_HATS_STRIDE


def _t(name: str) -> int:
    return _E.start(f"turn.{name}")


TURN: Final = _E.start("turn")
_TU_SEAT: Final = _t("seat")
_TU_POWER: Final = _t("power")
_TU_MASTER_USED: Final = _t("master_used")
_TU_EXTRA_SMALL: Final = _t("extra_small_tiles")
_TU_EXTRA_SHOWS: Final = _t("extra_shows")
_TU_POINTS_PER_SHOW: Final = _t("points_per_show")
_TU_RESOLVED: Final = _t("resolved")
_TU_SHOWS: Final = _t("shows")
_TU_EXTRA_GEMS: Final = _t("extra_gems_due")
_TU_DIE: Final = _t("die")
_TU_DIE_COLOUR: Final = _E.one_hot("turn.die.colour")
_TU_DIE_VALUE: Final = _t("die.value")
_TU_CARD: Final = _E.one_hot("turn.card")
_TU_ACTING: Final = _E.one_hot("turn.acting_colour")
_TU_ACTION: Final = _E.one_hot("turn.action")
_TU_BUILD: Final = _E.one_hot("turn.build_colour")
_TU_WAGON: Final = _E.one_hot("turn.wagon_colour")
_TU_TRAINERS: Final = _E.one_hot("turn.trainers_used")
_TU_PENDING: Final = _E.one_hot("turn.pending_tiles")
_TU_TILE: Final = _E.one_hot("turn.tile_type")
_TU_ANCHOR: Final = _t("anchor")
_TU_ANCHOR_X: Final = _t("anchor.x")
_TU_ANCHOR_Y: Final = _t("anchor.y")
_TU_CHOSEN: Final = _t("chosen_slots")
_TU_CHOSEN_CAP: Final = _E.cap("turn.chosen_slots")
_TU_TENT: Final = _E.one_hot("turn.tent")

_camps: Final = Memory()
_label: dict[int, str] = {}


def _hat_label(position: int) -> str:
    label = _label.get(position)
    if label is None:
        label = _label[position] = position_label(position)
    return label


def _main_tent_order(key: str) -> tuple[int, str]:
    """Dice in the main tent by colour (O, G, P, C), then by key (as views list them)."""
    return ("OGPC".index(key[0]), key)


#: stretches (first slot, end) of the vector written again as a whole where what they show changed
_DECIDING_FROM: Final = _E.start("deciding")
_DECIDING_TO: Final = _E.start("main_tent")
_MAIN_TENT_TO: Final = DISPLAY
_DISPLAY_TO: Final = POSTER_DISPLAY
_POSTER_DISPLAY_TO: Final = POSTER_DECK_SIZE
_DISCARD_FROM: Final = _E.start("poster_discard")
_DISCARD_TO: Final = _E.start("master_deck_size")
_POOL_FROM: Final = _E.start("draft_pool")
_POOL_TO: Final = _E.start("removed_trainers")
_REMOVED_FROM: Final = _E.start("removed_trainers")
_REMOVED_TO: Final = _E.start("tracks")
_TURN_TO: Final = _E.start("poster_in_hand")
_IN_HAND_FROM: Final = _E.start("poster_in_hand")
_IN_HAND_TO: Final = _E.start("side_b")
_FINAL_TO: Final = DRAFT_MASTER_CARDS
#: the seat's own part of the draft: its hand, its picks, the card it removed (the vector's last fields)
_OWN_DRAFT_FROM: Final = _E.start("draft_hand")
_OWN_DRAFT_TO: Final = _E.size
#: zeros, over any stretch being written again
_ZEROS: Final[Any] = memoryview(np.zeros(max(PLAYERS_STRIDE, TRACKS_SIZE, _TURN_TO - TURN, _OWN_DRAFT_TO - _OWN_DRAFT_FROM), np.float32))  # type: ignore[arg-type]

#: the main tent's keys as views order them, by the keys as the state's dict holds them (emptied at _SEEN_LIMIT)
_MAIN_TENT_ORDERS: Final[dict[tuple[str, ...], list[str]]] = {}
_SEEN_LIMIT: Final = 256
#: what a player's part shows, as the player holds it (a tuple of its fields, its lists and dicts as they are)
_PLAYER_SHOWS: Final = attrgetter(
    "board", "points", "coins", "gems", "markers", "spent", "masters", "dice", "trainers", "tiles", "posters", "tents",
    "completed", "hats",
)


#: decisions every seat takes at once
_SIMULTANEOUS: Final = SIMULTANEOUS


class _Unset:
    """Nothing written yet: no token or value of a state is this."""


_UNSET: Final = _Unset()


class _Kept:
    """The vector kept for one state (known by a weak reference: keeping finished games alive would cost the engine
    more than the vector saves), with the tokens and values of the state it was last written from. What the state's
    config fixes (its players, variants, components) is written once."""

    def __init__(self, state: MagnificentState) -> None:
        self.state = ref(state)
        values: Any = np.zeros(_E.size, np.float32)  # Any: numpy's stubs do not declare its buffer
        self.values: Any = values
        self.out: Any = memoryview(values)  # float32 slots
        self.components: object = state.c
        players = len(state.players_state)
        check_cap(GAME, "players", players, PLAYERS_CAP)
        #: each player's part of the vector (a memoryview of it), its token and copies of what it showed
        self.parts: list[Any] = [self.out[PLAYERS_ITEM + s * PLAYERS_STRIDE : PLAYERS_ITEM + (s + 1) * PLAYERS_STRIDE] for s in range(players)]
        self.player_tokens: list[object] = [_UNSET] * players
        self.shown: list[list[Any] | None] = [None] * players
        self.round = self.start_player = self.turn_count = -1
        self.pending: object = _UNSET
        #: the deciding seats written: -3 none yet, -2 none, -1 every seat, else the one seat
        self.deciding = -3
        self.decision = ""
        self.tent: object = _UNSET
        self.display: object = _UNSET
        self.posters: object = _UNSET
        self.decks: object = _UNSET
        self.tracks: object = _UNSET
        #: each track's wagon and a copy of its tents, as last written
        self.tracks_shown: dict[str, tuple[int, list[str | None]]] = {}
        #: the main tent's keys as its dict held them, in the view's order, and each one's count, as last written
        self.tent_keys: tuple[str, ...] = ()
        self.tent_order: list[str] = []
        self.tent_counts: list[int] = []
        self.supply: object = _UNSET
        #: what the turn's part was written from: the turn's token, its player's, whether the decision was VD2 (its
        #: tent shown) and the tracks' token then; `turn_written`: whether a turn is shown
        self.turn: object = _UNSET
        self.turn_player: object = _UNSET
        self.turn_vd2 = False
        self.turn_tracks: object = _UNSET
        self.turn_written = False
        #: the values the turn's part shows, as last written (`_update_turn`)
        self.turn_shown = _TurnWritten()
        self.over = False
        self.final: object = _UNSET
        self.draft: object = _UNSET
        #: the seat the vector shows (its seat slot), and the seat whose own part of the draft it holds with the
        #: draft's token then
        self.seat = -1
        self.own_seat = -1
        self.own_draft: object = _UNSET
        out = self.out
        out[SEAT] = 1.0
        out[PLAYERS] = players
        if state.side_b:
            out[SIDE_B] = 1.0
        if state.draft:
            out[DRAFT_MASTER_CARDS] = 1.0


def _update(state: MagnificentState, kept: _Kept) -> None:
    """Bring `kept`'s vector up to date with `state`: each part whose token (or value) differs written again.

    The state's fields are read from its `__dict__` (one dict lookup each from compiled code, where an attribute
    costs a generic look-up)."""
    fields: dict[str, Any] = state.__dict__
    out = kept.out
    number: int = fields["round"]
    if number != kept.round:
        out[ROUND] = number
        kept.round = number
    number = fields["start_player"]
    if number != kept.start_player:
        out[START_PLAYER] = number
        kept.start_player = number
    number = fields["turn_count"]
    if number != kept.turn_count:
        out[TURN_COUNT] = number
        kept.turn_count = number
    pending = fields["pending"]
    if pending is not kept.pending:
        decision: str = pending[0] if pending is not None else ""
        if decision != kept.decision:
            if kept.decision:
                out[DECISION[kept.decision]] = 0.0
            if decision:
                out[DECISION[decision]] = 1.0
            kept.decision = decision
        # the deciding seats (MagnificentState.deciding_seats): every seat at once, one seat, or none
        deciding: int = -2 if pending is None else -1 if decision in _SIMULTANEOUS else pending[1]
        if deciding != kept.deciding:
            seats = () if deciding == -2 else range(len(kept.parts)) if deciding == -1 else (deciding,)
            check_cap(GAME, "deciding", len(seats), DECIDING_CAP)
            out[_DECIDING_FROM:_DECIDING_TO] = _ZEROS[: _DECIDING_TO - _DECIDING_FROM]
            out[DECIDING] = len(seats)
            position = DECIDING + 1
            for s in seats:
                out[position] = s
                position += 1
            kept.deciding = deciding
        kept.pending = pending
    token = fields["tent_token"]
    if token is not kept.tent:
        _update_main_tent(fields["main_tent"], out, kept)
        kept.tent = token
    token = fields["display_token"]
    if token is not kept.display:
        out[DISPLAY:_DISPLAY_TO] = _ZEROS[: _DISPLAY_TO - DISPLAY]
        _write_display(fields["display"], out, DISPLAY)
        kept.display = token
    token = fields["poster_token"]
    if token is not kept.posters:
        _write_posters(fields, out)
        kept.posters = token
    token = fields["deck_token"]
    if token is not kept.decks:
        out[MASTER_DECK_SIZE] = len(fields["master_deck"])
        out[TRAINER_DECK_SIZE] = len(fields["trainer_deck"])
        out[_POOL_FROM:_POOL_TO] = _ZEROS[: _POOL_TO - _POOL_FROM]
        _counts_at(fields["draft_pool"], DRAFT_POOL, out, 0)
        out[_REMOVED_FROM:_REMOVED_TO] = _ZEROS[: _REMOVED_TO - _REMOVED_FROM]
        _counts_at(fields["removed_trainers"], REMOVED_TRAINERS, out, 0)
        kept.decks = token
    tracks_token = fields["track_token"]
    if tracks_token is not kept.tracks:
        _update_tracks(state, out, kept.tracks_shown)
        kept.tracks = tracks_token
    token = fields["supply_token"]
    if token is not kept.supply:
        _write_supply(fields["supply"], out)
        kept.supply = token
    players: list[Player] = fields["players_state"]
    tokens: list[object] = fields["player_tokens"]
    kept_tokens = kept.player_tokens
    seat = 0
    for player in players:
        token = tokens[seat]
        if token is not kept_tokens[seat]:
            _update_player(state, seat, player, kept)
            kept_tokens[seat] = token
        seat += 1
    turn: Turn | None = fields["turn"]
    if turn is None:
        if kept.turn_written:
            out[TURN:_TURN_TO] = _ZEROS[: _TURN_TO - TURN]
            kept.turn_shown = _TurnWritten()
            kept.turn_written = False
            kept.turn = _UNSET
    else:
        token = fields["turn_token"]
        player_token = tokens[turn.seat]
        vd2 = kept.decision == "VD2"
        if (
            token is not kept.turn or player_token is not kept.turn_player or vd2 != kept.turn_vd2
            or (vd2 and tracks_token is not kept.turn_tracks)
        ):
            _update_turn(state, turn, kept.decision, out, kept.turn_shown)
            kept.turn, kept.turn_player, kept.turn_vd2, kept.turn_tracks = token, player_token, vd2, tracks_token
            kept.turn_written = True
    over: bool = fields["over"]
    if over != kept.over:
        out[GAME_OVER] = 1.0 if over else 0.0
        kept.over = over
    final = fields["final"]
    if final is not kept.final:
        _write_final(state, out)
        kept.final = final
    if fields["draft"]:
        token = fields["draft_token"]
        if token is not kept.draft:
            out[DRAFT_ROUND] = fields["draft_round"]
            kept.draft = token


def _write_posters(fields: dict[str, Any], out: Any) -> None:  # noqa: ANN401 - slots
    """The poster display, the deck's size, the discard and the poster in hand (the state's fields as a dict)."""
    posters: list[str | None] = fields["poster_display"]
    check_cap(GAME, "poster_display", len(posters), POSTER_DISPLAY_CAP)
    out[POSTER_DISPLAY:_POSTER_DISPLAY_TO] = _ZEROS[: _POSTER_DISPLAY_TO - POSTER_DISPLAY]
    out[POSTER_DISPLAY] = len(posters)
    position = POSTER_DISPLAY + 1
    for poster in posters:
        if poster:
            out[position] = POSTER_INDEX[poster]
        position += 1
    out[POSTER_DECK_SIZE] = len(fields["poster_deck"])
    out[_DISCARD_FROM:_DISCARD_TO] = _ZEROS[: _DISCARD_TO - _DISCARD_FROM]
    _counts_at(fields["poster_discard"], POSTER_DISCARD, out, 0)
    out[_IN_HAND_FROM:_IN_HAND_TO] = _ZEROS[: _IN_HAND_TO - _IN_HAND_FROM]
    in_hand: str = fields["poster_in_hand"]
    if in_hand:
        out[POSTER_IN_HAND[in_hand]] = 1.0


def _write_final(state: MagnificentState, out: Any) -> None:  # noqa: ANN401 - slots
    """The final scores (none before the game's end)."""
    out[FINAL_SCORES:_FINAL_TO] = _ZEROS[: _FINAL_TO - FINAL_SCORES]
    if not state.final:
        return
    slots: dict[int, float] = {}
    FINAL_SCORES_NODE.write(
        [{"seat": s, **{name: e[name] for name in ("track", "masters", "coins", "full_areas", "areas", "total")}}
         for s, e in enumerate(state.final)],
        slots,
        FINAL_SCORES,
    )
    for slot, value in slots.items():
        out[slot] = value


def _update_player(state: MagnificentState, seat: int, player: Player, kept: _Kept) -> None:
    """The seat's part of `kept`'s vector brought up to date: each field that differs from the copy of what was last
    written there written again, its copy replaced (the whole part the first time)."""
    out = kept.parts[seat]
    shown = _PLAYER_SHOWS(player)
    before = kept.shown[seat]
    if before is None:
        _write_player(seat, player, out, 0)
        _write_camp_part(state, seat, player, out)
        kept.shown[seat] = [value.copy() if isinstance(value, (list, dict)) else value for value in shown]
        return
    board: str = shown[0]
    if board != before[0]:
        out[_P_BOARD_FROM:_P_BOARD_TO] = _ZEROS[: _P_BOARD_TO - _P_BOARD_FROM]
        if board:
            out[_P_BOARD[board]] = 1.0
        before[0] = board
    value: Any = shown[1]
    if value != before[1]:
        out[_P_POINTS] = value
        before[1] = value
    value = shown[2]
    if value != before[2]:
        out[_P_COINS] = value
        before[2] = value
    value = shown[3]
    if value != before[3]:
        out[_P_GEMS : _P_GEMS + 1 + _P_GEMS_CAP] = _ZEROS[: 1 + _P_GEMS_CAP]
        _write_gems(player, out, 0)
        before[3] = value.copy()
    value = shown[4]
    if value != before[4]:
        out[_P_MARKERS] = value
        before[4] = value
    value = shown[5]
    if value != before[5]:
        out[_P_SPENT] = value
        before[5] = value
    dice: dict[str, Any] = shown[7]
    if shown[6] != before[6]:
        out[_P_MASTERS:_P_MASTERS_TO] = _ZEROS[: _P_MASTERS_TO - _P_MASTERS]
        _write_masters(player, out, 0)
        out[_P_TURNS] = len(dice)
        before[6] = shown[6].copy()
        before[7] = dice.copy()
    elif dice != before[7]:  # the same cards: only the dice on them written again where they changed
        _dice_moved(shown[6], before[7], dice, out)
        out[_P_TURNS] = len(dice)
        before[7] = dice.copy()
    value = shown[8]
    if value != before[8]:
        out[_P_TRAINERS_FROM:_P_TRAINERS_TO] = _ZEROS[: _P_TRAINERS_TO - _P_TRAINERS_FROM]
        _counts_at(value, _P_TRAINERS, out, 0)
        before[8] = value.copy()
    value = shown[9]
    if value != before[9]:
        placed: list[Any] = before[9]
        if len(value) > len(placed) and value[: len(placed)] == placed:  # tiles added (a build): those alone written
            _tiles_added(state, value, len(placed), out)
        else:
            _write_camp_part(state, seat, player, out)
        before[9] = value.copy()
    value = shown[10]
    if value != before[10]:
        out[_P_POSTERS : _P_POSTERS + 1 + _P_POSTERS_CAP] = _ZEROS[: 1 + _P_POSTERS_CAP]
        _ordered_indexed(value, _P_POSTERS, _P_POSTERS_CAP, _P_POSTER, "players[].posters", 0, out)
        before[10] = value.copy()
    value = shown[11]
    if value != before[11]:
        out[_P_TENTS : _P_TENTS + 1 + _P_TENTS_CAP] = _ZEROS[: 1 + _P_TENTS_CAP]
        _ordered_indexed(value, _P_TENTS, _P_TENTS_CAP, _P_TENT, "players[].tents", 0, out)
        before[11] = value.copy()
    value = shown[12]
    if value != before[12]:
        out[_P_COMPLETED_FROM:_P_COMPLETED_TO] = _ZEROS[: _P_COMPLETED_TO - _P_COMPLETED_FROM]
        _counts_at(value, _P_COMPLETED, out, 0)
        before[12] = value.copy()
    value = shown[13]
    if value != before[13]:
        out[_P_HATS:_P_HATS_TO] = _ZEROS[: _P_HATS_TO - _P_HATS]
        _write_hats(player, out, 0)
        before[13] = value.copy()


def _dice_moved(masters: list[str], old: dict[str, Any], new: dict[str, Any], out: Any) -> None:  # noqa: ANN401 - slots
    """The die on each of a player's master cards (as `_write_masters` writes it) where it differs from `old`'s."""
    item = _P_MASTERS_FIRST
    for card in masters:
        die = new.get(card)
        was = old.get(card)
        if die != was:
            if was is not None:
                out[item + _M_DIE_COLOUR[was[0]]] = 0.0
            if die is None:
                out[item + _M_DIE] = 0.0
                out[item + _M_DIE_VALUE] = 0.0
            else:
                out[item + _M_DIE] = 1.0
                out[item + _M_DIE_COLOUR[die[0]]] = 1.0
                out[item + _M_DIE_VALUE] = die[1]
        item += _P_MASTERS_STRIDE


def _write_own_draft(state: MagnificentState, seat: Seat, out: Any) -> None:  # noqa: ANN401 - slots
    """The seat's own part of the draft: the hand it holds now, its picks, the card it removed."""
    out[_OWN_DRAFT_FROM:_OWN_DRAFT_TO] = _ZEROS[: _OWN_DRAFT_TO - _OWN_DRAFT_FROM]
    if state.draft_round < 4:
        _counts_at(state.draft_hands[draft.held_hand(state, seat)], DRAFT_HAND, out, 0)
    _counts_at(state.draft_picks[seat], DRAFT_PICKS, out, 0)
    removed = draft.removed_by(state, seat)
    if removed:
        out[DRAFT_REMOVED[removed]] = 1.0


#: each state's kept vector by the state's id (checked by its weak reference); emptied at _SEEN_SIZE entries
_seen: Final[dict[int, _Kept]] = {}
_SEEN_SIZE: Final = 64
#: the kept vector handed out last (found by identity before `_seen`'s lookup by the state's id)
_last: Final[list[_Kept | None]] = [None]


def _kept(state: MagnificentState, seat: Seat) -> _Kept:
    """The state's kept vector, brought up to date with it and holding `seat`'s own slots."""
    kept = _last[0]
    if kept is None or kept.state() is not state:
        kept = _seen.get(id(state))
        if kept is None or kept.state() is not state or kept.components is not state.c:
            if len(_seen) >= _SEEN_SIZE:
                _seen.clear()
            kept = _seen[id(state)] = _Kept(state)
        _last[0] = kept
    try:
        _update(state, kept)
        if seat != kept.seat:
            kept.out[SEAT + 1] = seat
            kept.seat = seat
        if state.draft and (seat != kept.own_seat or state.draft_token is not kept.own_draft):
            _write_own_draft(state, seat, kept.out)
            kept.own_seat, kept.own_draft = seat, state.draft_token
    except KeyError as error:  # the view's encoding names the field
        _forget(state)  # half written: the next observation starts afresh
        raise EncodingError(f"{GAME}: a value of seat {seat}'s view is outside its vocabulary: {error}") from None
    except BaseException:
        _forget(state)
        raise
    return kept


def _forget(state: MagnificentState) -> None:
    """Drop the state's kept vector (a write failed half way)."""
    _seen.pop(id(state), None)
    _last[0] = None


def encode(state: MagnificentState, seat: Seat, slots: dict[int, float]) -> None:
    """Write the slots of `seat`'s view encoding: the state's kept vector (brought up to date, holding the seat's own
    slots) as one block; `Slots` copies its blocks, so the kept vector is handed as it is."""
    block_taker(slots)((0, _kept(state, seat).values))


def observation_vector(state: MagnificentState, seat: Seat) -> np.ndarray:
    """`seat`'s observation vector, new: a copy of the state's kept vector (brought up to date where the state's
    tokens changed) with the seat's own slots (`Table.encode` calls it where the encoder's module has one)."""
    vector: np.ndarray = _kept(state, seat).values.copy()
    return vector


def _update_tracks(state: MagnificentState, out: Any, shown: dict[str, tuple[int, list[str | None]]]) -> None:  # noqa: ANN401
    """The tracks: each one whose wagon or tents differ from those last written (`shown`, updated) written again."""
    track_tents = state.track_tents
    wagons = state.wagons
    check_cap(GAME, "tracks", len(track_tents), TRACKS_CAP)
    out[TRACKS] = len(track_tents)
    at = TRACKS_ITEM
    for colour, tents in track_tents.items():
        wagon = wagons[colour]
        before = shown.get(colour)
        if before is None or before[0] != wagon or before[1] != tents:
            out[at : at + TRACKS_STRIDE] = _ZEROS[:TRACKS_STRIDE]
            _write_track(state, colour, out, at)
            shown[colour] = (wagon, tents.copy())
        at += TRACKS_STRIDE


def _update_main_tent(main_tent: dict[str, int], out: Any, kept: _Kept) -> None:  # noqa: ANN401 - slots
    """The main tent: where it holds the same dice as last written (in the same order), the counts that differ;
    else all of it written again."""
    held = tuple(main_tent)
    if held == kept.tent_keys:
        counts = kept.tent_counts
        at = MAIN_TENT_ITEM + _MT_COUNT
        position = 0
        for key in kept.tent_order:
            count = main_tent[key]
            if count != counts[position]:
                out[at] = count
                counts[position] = count
            at += MAIN_TENT_STRIDE
            position += 1
        return
    out[MAIN_TENT:_MAIN_TENT_TO] = _ZEROS[: _MAIN_TENT_TO - MAIN_TENT]
    order = _write_main_tent(main_tent, out, MAIN_TENT)
    kept.tent_keys = held
    kept.tent_order = order
    kept.tent_counts = [main_tent[key] for key in order]


def _write_supply(supply: dict[str, int], out: Any) -> None:  # noqa: ANN401 - slots
    """The supply (a count per tile type)."""
    out[SUPPLY] = len(TILE_TYPES)
    at = SUPPLY_ITEM
    for tile_type in TILE_TYPES:
        out[at] = 1.0
        out[at + SUPPLY_TYPE[tile_type]] = 1.0
        out[at + SUPPLY_COUNT] = supply[tile_type]
        at += SUPPLY_STRIDE


def _write_camp_part(state: MagnificentState, seat: int, player: Player, part: Any) -> None:  # noqa: ANN401
    """A player's tiles and camp into its part (found by the tiles placed: they change when it builds)."""
    camp_key = (seat, tuple(player.tiles), id(state.c))
    camp = _camps.get(camp_key) or _camps.block(
        camp_key, PLAYERS_ITEM + seat * PLAYERS_STRIDE + _P_TILES, CAMP_SIZE,
        lambda slots: _write_camp(state, player, slots, -_P_TILES),
    )
    part[_P_TILES : _P_TILES + CAMP_SIZE] = camp[1]


def _counts_at(values: Any, slots: dict[str, int], out: Any, at: int) -> None:  # noqa: ANN401
    """A count per vocabulary value ('' counts nothing), into the slots `out` from `at` on."""
    for value in values:
        if value:
            out[at + slots[value]] += 1.0


def _write_main_tent(main_tent: dict[str, int], out: Any, at: int) -> list[str]:  # noqa: ANN401 - slots
    """The main tent's list, its count slot at `at` of `out`; its keys in the order written."""
    check_cap(GAME, "main_tent", len(main_tent), MAIN_TENT_CAP)
    out[at] = float(len(main_tent))
    at += MAIN_TENT_ITEM - MAIN_TENT
    held = tuple(main_tent)
    order = _MAIN_TENT_ORDERS.get(held)
    if order is None:
        if len(_MAIN_TENT_ORDERS) >= _SEEN_LIMIT:
            _MAIN_TENT_ORDERS.clear()
        order = _MAIN_TENT_ORDERS[held] = sorted(held, key=_main_tent_order)
    for key in order:
        out[at] = 1.0
        out[at + _MT_COLOUR[key[0]]] = 1.0
        out[at + _MT_VALUE] = float(int(key[2]))
        out[at + _MT_COUNT] = float(main_tent[key])
        at += MAIN_TENT_STRIDE
    return order


def _write_display(display: list[list[str | None]], out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The display's list, its count slot at `at` of `out`."""
    check_cap(GAME, "display", len(display), DISPLAY_CAP)
    out[at] = float(len(display))
    at += DISPLAY_ITEM - DISPLAY
    for index, (card, trainer) in enumerate(display):
        out[at] = 1.0
        out[at + _D_SLOT] = float(index + 1)
        if card:
            out[at + _D_CARD] = _D_CARDS[card]
        if trainer:
            out[at + _D_TRAINER] = _D_TRAINERS[trainer]
        at += DISPLAY_STRIDE


def _write_track(state: MagnificentState, colour: str, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """One colour's track, its presence slot at `at` of `out` (zeros there)."""
    tents = state.track_tents[colour]
    gems = state.c.track_spaces[colour]
    check_cap(GAME, "tracks[].spaces", len(gems), _T_SPACES_CAP)
    out[at] = 1.0
    out[at + _T_COLOUR[colour]] = 1.0
    out[at + _T_WAGON] = state.wagons[colour]
    out[at + _T_SPACES] = len(gems)
    for index, gem in enumerate(gems):
        space = f"gem:{gem}" if gem is not None else (f"tent:{tents[index]}" if tents[index] else "poster")
        out[at + _T_SPACES_FIRST + index] = _T_SPACE[space]


def _write_player(seat: int, player: Player, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """A player's part but for its tiles and camp (`_write_camp`), from slot `at` of `out`."""
    out[at] = 1.0
    out[at + _P_SEAT] = float(seat)
    if player.board:
        out[at + _P_BOARD[player.board]] = 1.0
    out[at + _P_POINTS] = float(player.points)
    out[at + _P_COINS] = float(player.coins)
    _write_gems(player, out, at)
    out[at + _P_MARKERS] = float(player.markers)
    out[at + _P_SPENT] = float(player.spent)
    _write_masters(player, out, at)
    _counts_at(player.trainers, _P_TRAINERS, out, at)
    _ordered_indexed(player.posters, _P_POSTERS, _P_POSTERS_CAP, _P_POSTER, "players[].posters", at, out)
    _ordered_indexed(player.tents, _P_TENTS, _P_TENTS_CAP, _P_TENT, "players[].tents", at, out)
    _counts_at(player.completed, _P_COMPLETED, out, at)
    _write_hats(player, out, at)
    out[at + _P_TURNS] = float(len(player.dice))


def _write_gems(player: Player, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """A player's gems (a count per colour), from slot `at` of `out` (zeros there)."""
    check_cap(GAME, "players[].gems", len(player.gems), _P_GEMS_CAP)
    out[at + _P_GEMS] = float(len(player.gems))
    for position, gems in enumerate(player.gems):
        out[at + _P_GEMS + 1 + position] = float(gems)


def _write_masters(player: Player, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """A player's master cards and the dice on them, from slot `at` of `out` (zeros there)."""
    check_cap(GAME, "players[].masters", len(player.masters), _P_MASTERS_CAP)
    out[at + _P_MASTERS] = float(len(player.masters))
    item = at + _P_MASTERS_FIRST
    for card in player.masters:
        out[item] = 1.0
        out[item + _M_CARD] = _M_CARDS[card]
        die = player.dice.get(card)
        if die is not None:
            out[item + _M_DIE] = 1.0
            out[item + _M_DIE_COLOUR[die[0]]] = 1.0
            out[item + _M_DIE_VALUE] = float(die[1])
        item += _P_MASTERS_STRIDE


def _write_hats(player: Player, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """A player's hats (where each stands), from slot `at` of `out` (zeros there)."""
    check_cap(GAME, "players[].hats", len(player.hats), _P_HATS_CAP)
    out[at + _P_HATS] = float(len(player.hats))
    item = at + _P_HATS_FIRST
    for hat in player.hats:
        label = _hat_label(hat)
        if label:
            out[item + _P_HAT[label]] = 1.0
        item += _P_HATS_STRIDE


def _write_camp(state: MagnificentState, player: Player, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """A player's tiles and camp (one stretch of its part: the tiles list, then the camp's grid), the player's
    part starting at slot `at` of `out`."""
    check_cap(GAME, "players[].tiles", len(player.tiles), _P_TILES_CAP)
    out[at + _P_TILES] = float(len(player.tiles))
    item = at + _P_TILES_FIRST
    cells: dict[int, str] = {}
    tile_types = state.c.tile_types
    for tile_type, k, x, y in player.tiles:
        out[item] = 1.0
        out[item + _TL_TYPE[tile_type]] = 1.0
        out[item + _TL_ORIENTATION] = float(k)
        out[item + _TL_X] = float(x)
        out[item + _TL_Y] = float(y)
        item += _P_TILES_STRIDE
        shape = tile_types[tile_type].orientations[k]
        ref_x, ref_y = shape[0]
        for cx, cy in shape:
            cells[(y + cy - ref_y) * _CAMP_COLS + (x + cx - ref_x)] = tile_type[0]
    width = len(_CAMP_CHARS)
    for cell, char in cells.items():
        out[at + _P_CAMP + cell * width + _CAMP_CHARS.index(char)] = 1.0


def _tiles_added(state: MagnificentState, tiles: list[tuple[str, int, int, int]], first: int, out: Any) -> None:  # noqa: ANN401
    """The tiles of a player's part from `tiles[first]` on, added to those written before (as `_write_camp` writes
    them: tiles never overlap, so each adds its own squares to the camp), and the tiles' count."""
    check_cap(GAME, "players[].tiles", len(tiles), _P_TILES_CAP)
    out[_P_TILES] = len(tiles)
    item = _P_TILES_FIRST + first * _P_TILES_STRIDE
    tile_types = state.c.tile_types
    width = len(_CAMP_CHARS)
    for tile_type, k, x, y in tiles[first:]:
        out[item] = 1.0
        out[item + _TL_TYPE[tile_type]] = 1.0
        out[item + _TL_ORIENTATION] = k
        out[item + _TL_X] = x
        out[item + _TL_Y] = y
        item += _P_TILES_STRIDE
        shape = tile_types[tile_type].orientations[k]
        ref_x, ref_y = shape[0]
        char = _CAMP_CHARS.index(tile_type[0])
        for cx, cy in shape:
            out[_P_CAMP + ((y + cy - ref_y) * _CAMP_COLS + (x + cx - ref_x)) * width + char] = 1.0


def _ordered_indexed(values: list[str | None], count: int, cap: int, index: dict[str, float], path: str, at: int,
                     out: Any) -> None:  # noqa: ANN401 - slots
    """A list of ids shown position by position, each as 1 + its index (None: nothing at that position)."""
    check_cap(GAME, path, len(values), cap)
    out[at + count] = float(len(values))
    for position, value in enumerate(values):
        if value:
            out[at + count + 1 + position] = index[value]


#: the turn's fields the View shows (and the power's bonus), read in one call
_TURN_SHOWS: Final = attrgetter(
    "seat", "die_colour", "die_value", "card", "acting", "action", "power_bonus", "build_colour", "wagon_colour",
    "master_used", "trainers_used", "extra_small", "extra_show", "points_per_show", "resolved", "pending_tiles", "tile",
    "anchor", "shows", "chosen", "extra_gems_due", "tent_space",
)

#: what _TURN_SHOWS reads, by type (model.Turn's fields; flags as any object, read for their truth, and the anchor
#: and tent space as any pair, so that a position read from a file with 0/1 flags or lists for pairs is encoded too)
_TurnShown = tuple[
    int, str, int, str, str, str, int, str, str, object, list[str], int, int, int, object, list[str], str, Any, int,
    list[int], int, Any,
]


def _power(state: MagnificentState, seat: int, card: str, acting: str, die_value: int, bonus: int) -> int:
    """This turn's power, as MagnificentState.power counts it (§4.2): here compiled with the encoder, where the
    engine's method runs as Python (the vectors are checked against the view's, which calls it)."""
    if not acting:
        return 0
    power = die_value + bonus
    for held, die in state.players_state[seat].dice.items():
        if held != card and die[0] == acting:
            power += die[1]
    return power


class _TurnWritten:
    """What the turn's part of a kept vector shows, as last written (as the view shows it): compared field by field
    with the turn's (typed: the compiled module compares them natively). Its first values are an empty turn's (all
    its slots zero)."""

    def __init__(self) -> None:
        self.seat = -1
        self.die_colour = ""
        self.die_value = 0
        self.card = ""
        self.acting = ""
        self.action = ""
        self.power = 0
        self.build = ""
        self.wagon = ""
        self.master_used = False
        self.trainers: list[str] = []
        self.extra_small = 0
        self.extra_show = 0
        self.points_per_show = 0
        self.resolved = False
        self.pending: list[str] = []
        self.tile = ""
        self.anchor_x = -1
        self.anchor_y = -1
        self.shows = 0
        self.chosen: list[int] = []
        self.extra_gems = 0
        self.tent = ""


def _one_hot_moved(out: Any, slots: dict[str, int], old: str, new: str) -> None:  # noqa: ANN401 - slots
    """A one-hot field from `old` to `new` ("" for none)."""
    if old:
        out[slots[old]] = 0.0
    if new:
        out[slots[new]] = 1.0


def _counts_moved(out: Any, slots: dict[str, int], old: list[str], new: list[str]) -> None:  # noqa: ANN401 - slots
    """Counts per vocabulary value from those of `old` to those of `new`."""
    for value in old:
        if value:
            out[slots[value]] = 0.0
    for value in new:
        if value:
            out[slots[value]] += 1.0


def _update_turn(state: MagnificentState, turn: Turn, decision: str, out: Any, last: _TurnWritten) -> None:  # noqa: ANN401
    """The turn's part brought up to date: each value that differs from the one last written (`last`, updated)
    written again. `last` is a new `_TurnWritten` where the part is all zeros."""
    shown: _TurnShown = _TURN_SHOWS(turn)  # typed: the compiled module reads each field as what it is
    (seat, die_colour, die_value, card, acting, action, bonus, build_colour, wagon_colour, master_used, trainers_used,
     extra_small, extra_show, points_per_show, resolved, pending_tiles, tile, anchor, shows, chosen, extra_gems_due,
     tent_space) = shown
    if seat != last.seat:
        out[TURN] = 1.0
        out[_TU_SEAT] = seat
        last.seat = seat
    old_colour = last.die_colour
    if die_colour != old_colour or die_value != last.die_value:
        if old_colour:
            out[_TU_DIE_COLOUR[old_colour]] = 0.0
        if die_colour:
            out[_TU_DIE] = 1.0
            out[_TU_DIE_COLOUR[die_colour]] = 1.0
            out[_TU_DIE_VALUE] = die_value
        else:
            out[_TU_DIE] = 0.0
            out[_TU_DIE_VALUE] = 0.0
        last.die_colour = die_colour
        last.die_value = die_value
    if card != last.card:
        _one_hot_moved(out, _TU_CARD, last.card, card)
        last.card = card
    if acting != last.acting:
        _one_hot_moved(out, _TU_ACTING, last.acting, acting)
        last.acting = acting
    if action != last.action:
        _one_hot_moved(out, _TU_ACTION, last.action, action)
        last.action = action
    power = _power(state, seat, card, acting, die_value, bonus)
    if power != last.power:
        out[_TU_POWER] = power
        last.power = power
    build = build_colour or (acting if action == "BUILD" else "")
    if build != last.build:
        _one_hot_moved(out, _TU_BUILD, last.build, build)
        last.build = build
    wagon = wagon_colour or (acting if action == "TRAVEL" else "")
    if wagon != last.wagon:
        _one_hot_moved(out, _TU_WAGON, last.wagon, wagon)
        last.wagon = wagon
    used = bool(master_used)
    if used != last.master_used:
        out[_TU_MASTER_USED] = 1.0 if used else 0.0
        last.master_used = used
    if trainers_used != last.trainers:
        _counts_moved(out, _TU_TRAINERS, last.trainers, trainers_used)
        last.trainers = trainers_used.copy()
    if extra_small != last.extra_small:
        out[_TU_EXTRA_SMALL] = extra_small
        last.extra_small = extra_small
    if extra_show != last.extra_show:
        out[_TU_EXTRA_SHOWS] = extra_show
        last.extra_show = extra_show
    if points_per_show != last.points_per_show:
        out[_TU_POINTS_PER_SHOW] = points_per_show
        last.points_per_show = points_per_show
    done = bool(resolved)
    if done != last.resolved:
        out[_TU_RESOLVED] = 1.0 if done else 0.0
        last.resolved = done
    if pending_tiles != last.pending:
        _counts_moved(out, _TU_PENDING, last.pending, pending_tiles)
        last.pending = pending_tiles.copy()
    if tile != last.tile:
        _one_hot_moved(out, _TU_TILE, last.tile, tile)
        last.tile = tile
    x: int = anchor[0]
    y: int = anchor[1]
    if x != last.anchor_x or y != last.anchor_y:
        if x >= 0:
            out[_TU_ANCHOR] = 1.0
            out[_TU_ANCHOR_X] = x
            out[_TU_ANCHOR_Y] = y
        else:
            out[_TU_ANCHOR] = 0.0
            out[_TU_ANCHOR_X] = 0.0
            out[_TU_ANCHOR_Y] = 0.0
        last.anchor_x = x
        last.anchor_y = y
    if shows != last.shows:
        out[_TU_SHOWS] = shows
        last.shows = shows
    if chosen != last.chosen:
        check_cap(GAME, "turn.chosen_slots", len(chosen), _TU_CHOSEN_CAP)
        out[_TU_CHOSEN : _TU_CHOSEN + 1 + _TU_CHOSEN_CAP] = _ZEROS[: 1 + _TU_CHOSEN_CAP]
        if chosen:
            out[_TU_CHOSEN] = len(chosen)
            for position, slot in enumerate(chosen):
                out[_TU_CHOSEN + 1 + position] = slot + 1
        last.chosen = chosen.copy()
    if extra_gems_due != last.extra_gems:
        out[_TU_EXTRA_GEMS] = extra_gems_due
        last.extra_gems = extra_gems_due
    tent = ""
    if decision == "VD2":
        colour, index = tent_space
        tent = state.track_tents[colour][index] or ""
    if tent != last.tent:
        _one_hot_moved(out, _TU_TENT, last.tent, tent)
        last.tent = tent
