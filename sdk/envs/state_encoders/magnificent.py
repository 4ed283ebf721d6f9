"""The Magnificent's observations from the state: the vector `game_encoding("magnificent").view` gives a seat's view.

Everything but deck orders is public (spec §5) and the draft's hands are the seat's own, so a seat's
vector is the table's, its seat number and, with the draft variant, its hand, picks and removed card.
Each player's part, the main tent, the display and the tracks are blocks of the vector remembered by
the exact state they come from (only the acting player's part changes in a turn).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Final

import numpy as np

from referee.engine import Seat
from referee.games.magnificent import draft
from referee.games.magnificent.data import TILE_TYPES
from referee.games.magnificent.model import Player, Turn, position_label
from referee.games.magnificent.state import MagnificentState
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import Block, Memory, block_taker, check_cap, naming_vocabulary_errors

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
_tracks: Final = Memory()
_label: dict[int, str] = {}


def _hat_label(position: int) -> str:
    label = _label.get(position)
    if label is None:
        label = _label[position] = position_label(position)
    return label


def _main_tent_order(key: str) -> tuple[int, str]:
    """Dice in the main tent by colour (O, G, P, C), then by key (as views list them)."""
    return ("OGPC".index(key[0]), key)


def _encode(state: MagnificentState, seat: Seat, out: dict[int, float]) -> None:
    """The seat's observation slots (see the module's docstring); zeros are left out."""
    put_block = block_taker(out)
    out[SEAT] = 1.0
    out[SEAT + 1] = float(seat)
    out[ROUND] = float(state.round)
    out[START_PLAYER] = float(state.start_player)
    out[TURN_COUNT] = float(state.turn_count)
    pending = state.pending
    decision = pending[0] if pending else ""  # MagnificentState.decision_code, without the call
    if decision:
        out[DECISION[decision]] = 1.0
    deciding = state.deciding_seats()
    check_cap(GAME, "deciding", len(deciding), DECIDING_CAP)
    out[DECIDING] = float(len(deciding))
    for position, s in enumerate(deciding):
        out[DECIDING + 1 + position] = float(s)
    shown = _MARKET_SHOWS(state)
    decks = (len(state.poster_deck), len(state.master_deck), len(state.trainer_deck))
    market = _MARKETS.get(id(state))
    if market is None or market[0] is not state or market[1] != shown or market[2] != decks:
        market = _keep_market(state, shown, decks, market)
    put_block(market[3])
    players = state.players_state
    check_cap(GAME, "players", len(players), PLAYERS_CAP)
    out[PLAYERS] = float(len(players))
    components = state.c
    kept_players = _kept_players
    s = 0
    for player in players:
        shown = _PLAYER_SHOWS(player)
        kept = kept_players[s]
        if kept is None or kept[0] is not components or kept[1] != shown:
            kept = kept_players[s] = _player_part(state, s, player, shown, kept)
        put_block(kept[2])
        s += 1
    turn = state.turn
    if turn is not None:
        _write_turn(state, turn, decision, out)
    if state.poster_in_hand:
        out[POSTER_IN_HAND[state.poster_in_hand]] = 1.0
    if state.side_b:
        out[SIDE_B] = 1.0
    if state.over:
        out[GAME_OVER] = 1.0
    if state.final:
        FINAL_SCORES_NODE.write(
            [{"seat": s, **{name: e[name] for name in ("track", "masters", "coins", "full_areas", "areas", "total")}}
             for s, e in enumerate(state.final)],
            out,
            FINAL_SCORES,
        )
    if state.draft:
        out[DRAFT_MASTER_CARDS] = 1.0
        out[DRAFT_ROUND] = float(state.draft_round)
        if state.draft_round < 4:
            _counts(state.draft_hands[draft.held_hand(state, seat)], DRAFT_HAND, out)
        _counts(state.draft_picks[seat], DRAFT_PICKS, out)
        removed = draft.removed_by(state, seat)
        if removed:
            out[DRAFT_REMOVED[removed]] = 1.0


#: Entries the memories of markets (by state) and players (by player object) keep before they are emptied.
_SEEN_LIMIT: Final = 256
#: what the market shows (main tent to supply), as the state holds it, but for the decks (their sizes beside it)
_MARKET_SHOWS: Final = attrgetter(
    "main_tent", "display", "poster_display", "poster_discard", "draft_pool", "removed_trainers", "track_tents",
    "wagons", "supply", "c",
)
#: id(state) -> (the state, a copy of what its market showed (its containers copied), the decks' sizes, the
#: market's block: slots MAIN_TENT..PLAYERS, the main tent to the supply)
_MARKETS: Final[dict[int, tuple[Any, ...]]] = {}
#: the market made last (of any state): a state's market that changed is made from it, writing again what differs
_last_market: Final[list[Any]] = [None]
#: the main tent's keys as views order them, by the keys as the state's dict holds them
_MAIN_TENT_ORDERS: Final[dict[tuple[str, ...], list[str]]] = {}
#: what a player's part shows, as the player holds it (a tuple of its fields, its lists and dicts as they are)
_PLAYER_SHOWS: Final = attrgetter(
    "board", "points", "coins", "gems", "markers", "spent", "masters", "dice", "trainers", "tiles", "posters", "tents",
    "completed", "hats",
)
#: per seat: (the components it was drawn with, a copy of what the player's part showed (its lists and dicts
#: copied), the part's block: the player's whole part), compared with what the seat's player shows now (one
#: comparison of tuples: a player changes only when it acts)
_kept_players: Final[list[Any]] = [None] * PLAYERS_CAP
#: zeros, over any stretch of a player's part or of the market being written again
_ZEROS: Final[Any] = memoryview(np.zeros(max(PLAYERS_STRIDE, PLAYERS - MAIN_TENT), np.float32))  # type: ignore[arg-type]
MARKET_SIZE: Final = PLAYERS - MAIN_TENT
#: stretches of the market (from its first slot, MAIN_TENT) written again when what they show changes
_DISCARD_FROM: Final = min(POSTER_DISCARD.values()) - MAIN_TENT
_DISCARD_TO: Final = max(POSTER_DISCARD.values()) + 1 - MAIN_TENT
_POOL_FROM: Final = min(DRAFT_POOL.values()) - MAIN_TENT
_POOL_TO: Final = max(DRAFT_POOL.values()) + 1 - MAIN_TENT
_REMOVED_FROM: Final = min(REMOVED_TRAINERS.values()) - MAIN_TENT
_REMOVED_TO: Final = max(REMOVED_TRAINERS.values()) + 1 - MAIN_TENT




def _keep_market(state: MagnificentState, shown: tuple[Any, ...], decks: tuple[int, int, int],
                 kept: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """The market's block (from the market `kept` for this state, or the last made, writing again what differs), kept."""
    base = kept if kept is not None else _last_market[0]
    values: Any  # a float32 array (Any: numpy's stubs do not declare its buffer)
    if base is None or base[1][9] is not shown[9]:
        values = np.zeros(MARKET_SIZE, np.float32)
        slots: Any = memoryview(values)  # float32 slots
        _write_main_tent(state.main_tent, slots, 0)
        _write_display(state.display, slots, DISPLAY - MAIN_TENT)
        _write_poster_display(state.poster_display, slots)
        _counts_at(state.poster_discard, POSTER_DISCARD, slots, -MAIN_TENT)
        _counts_at(state.draft_pool, DRAFT_POOL, slots, -MAIN_TENT)
        _counts_at(state.removed_trainers, REMOVED_TRAINERS, slots, -MAIN_TENT)
        _write_tracks_part(state, values)
        _write_supply(state.supply, slots)
    else:
        before: tuple[Any, ...] = base[1]
        values = base[3][1].copy()
        slots = memoryview(values)
        if before[0] != shown[0]:
            slots[0:MAIN_TENT_SIZE] = _ZEROS[:MAIN_TENT_SIZE]
            _write_main_tent(state.main_tent, slots, 0)
        if before[1] != shown[1]:
            slots[DISPLAY - MAIN_TENT : DISPLAY - MAIN_TENT + DISPLAY_SIZE] = _ZEROS[:DISPLAY_SIZE]
            _write_display(state.display, slots, DISPLAY - MAIN_TENT)
        if before[2] != shown[2]:
            slots[POSTER_DISPLAY - MAIN_TENT : POSTER_DISPLAY - MAIN_TENT + 1 + POSTER_DISPLAY_CAP] = _ZEROS[: 1 + POSTER_DISPLAY_CAP]
            _write_poster_display(state.poster_display, slots)
        if before[3] != shown[3]:
            slots[_DISCARD_FROM:_DISCARD_TO] = _ZEROS[: _DISCARD_TO - _DISCARD_FROM]
            _counts_at(state.poster_discard, POSTER_DISCARD, slots, -MAIN_TENT)
        if before[4] != shown[4]:
            slots[_POOL_FROM:_POOL_TO] = _ZEROS[: _POOL_TO - _POOL_FROM]
            _counts_at(state.draft_pool, DRAFT_POOL, slots, -MAIN_TENT)
        if before[5] != shown[5]:
            slots[_REMOVED_FROM:_REMOVED_TO] = _ZEROS[: _REMOVED_TO - _REMOVED_FROM]
            _counts_at(state.removed_trainers, REMOVED_TRAINERS, slots, -MAIN_TENT)
        if before[6] != shown[6] or before[7] != shown[7]:
            _write_tracks_part(state, values)
        if before[8] != shown[8]:
            _write_supply(state.supply, slots)
    slots[POSTER_DECK_SIZE - MAIN_TENT] = float(decks[0])
    slots[MASTER_DECK_SIZE - MAIN_TENT] = float(decks[1])
    slots[TRAINER_DECK_SIZE - MAIN_TENT] = float(decks[2])
    copy = (
        state.main_tent.copy(), [slot.copy() for slot in state.display], state.poster_display.copy(),
        state.poster_discard.copy(), state.draft_pool.copy(), state.removed_trainers.copy(),
        {colour: tents.copy() for colour, tents in state.track_tents.items()}, state.wagons.copy(), state.supply.copy(),
        state.c,
    )
    market = (state, copy, decks, (MAIN_TENT, values))
    if len(_MARKETS) >= _SEEN_LIMIT:
        _MARKETS.clear()
    _MARKETS[id(state)] = market
    _last_market[0] = market
    return market


def _write_poster_display(posters: list[str | None], slots: Any) -> None:  # noqa: ANN401 - slots
    """The poster display (each poster as 1 + its index), in the market's slots (zeros there)."""
    check_cap(GAME, "poster_display", len(posters), POSTER_DISPLAY_CAP)
    at = POSTER_DISPLAY - MAIN_TENT
    slots[at] = float(len(posters))
    for position, poster in enumerate(posters):
        if poster:
            slots[at + 1 + position] = POSTER_INDEX[poster]


def _write_tracks_part(state: MagnificentState, values: Any) -> None:  # noqa: ANN401
    """The tracks into the market's values (found by what they show: they change a few times a game)."""
    track_tents, wagons = state.track_tents, state.wagons
    tracks_key = (tuple((colour, tuple(tents)) for colour, tents in track_tents.items()), tuple(wagons.items()), id(state.c))
    tracks = _tracks.get(tracks_key) or _tracks.block(tracks_key, TRACKS, TRACKS_SIZE, lambda slots: _write_tracks(state, slots, 0))
    values[TRACKS - MAIN_TENT : TRACKS - MAIN_TENT + TRACKS_SIZE] = tracks[1]


def _write_supply(supply: dict[str, int], slots: Any) -> None:  # noqa: ANN401 - slots
    """The supply (a count per tile type), in the market's slots."""
    slots[SUPPLY - MAIN_TENT] = float(len(TILE_TYPES))
    at = SUPPLY_ITEM - MAIN_TENT
    for tile_type in TILE_TYPES:
        slots[at] = 1.0
        slots[at + SUPPLY_TYPE[tile_type]] = 1.0
        slots[at + SUPPLY_COUNT] = float(supply[tile_type])
        at += SUPPLY_STRIDE


def _player_part(state: MagnificentState, seat: int, player: Player, shown: tuple[Any, ...], kept: Any) -> Any:  # noqa: ANN401
    """What is kept for the seat's part: the components, a copy of what the player shows (`shown`), the part's
    block; the block made from the one `kept` (the seat's last) by writing again the fields that differ."""
    components = state.c
    values: Any  # a float32 array (Any: numpy's stubs do not declare its buffer)
    if kept is None or kept[0] is not components:
        values = np.zeros(PLAYERS_STRIDE, np.float32)
        _write_player(seat, player, memoryview(values), 0)
        _write_camp_part(state, seat, player, values)
    else:
        before: tuple[Any, ...] = kept[1]
        values = kept[2][1].copy()
        out: Any = memoryview(values)
        if before[0] != shown[0]:
            out[_P_BOARD_FROM:_P_BOARD_TO] = _ZEROS[: _P_BOARD_TO - _P_BOARD_FROM]
            if player.board:
                out[_P_BOARD[player.board]] = 1.0
        out[_P_POINTS] = float(player.points)
        out[_P_COINS] = float(player.coins)
        out[_P_MARKERS] = float(player.markers)
        out[_P_SPENT] = float(player.spent)
        out[_P_TURNS] = float(len(player.dice))
        if before[3] != shown[3]:
            out[_P_GEMS : _P_GEMS + 1 + _P_GEMS_CAP] = _ZEROS[: 1 + _P_GEMS_CAP]
            _write_gems(player, out, 0)
        if before[6] != shown[6] or before[7] != shown[7]:
            out[_P_MASTERS:_P_MASTERS_TO] = _ZEROS[: _P_MASTERS_TO - _P_MASTERS]
            _write_masters(player, out, 0)
        if before[8] != shown[8]:
            out[_P_TRAINERS_FROM:_P_TRAINERS_TO] = _ZEROS[: _P_TRAINERS_TO - _P_TRAINERS_FROM]
            _counts_at(player.trainers, _P_TRAINERS, out, 0)
        if before[9] != shown[9]:
            _write_camp_part(state, seat, player, values)
        if before[10] != shown[10]:
            out[_P_POSTERS : _P_POSTERS + 1 + _P_POSTERS_CAP] = _ZEROS[: 1 + _P_POSTERS_CAP]
            _ordered_indexed(player.posters, _P_POSTERS, _P_POSTERS_CAP, _P_POSTER, "players[].posters", 0, out)
        if before[11] != shown[11]:
            out[_P_TENTS : _P_TENTS + 1 + _P_TENTS_CAP] = _ZEROS[: 1 + _P_TENTS_CAP]
            _ordered_indexed(player.tents, _P_TENTS, _P_TENTS_CAP, _P_TENT, "players[].tents", 0, out)
        if before[12] != shown[12]:
            out[_P_COMPLETED_FROM:_P_COMPLETED_TO] = _ZEROS[: _P_COMPLETED_TO - _P_COMPLETED_FROM]
            _counts_at(player.completed, _P_COMPLETED, out, 0)
        if before[13] != shown[13]:
            out[_P_HATS:_P_HATS_TO] = _ZEROS[: _P_HATS_TO - _P_HATS]
            _write_hats(player, out, 0)
    copy = tuple([value.copy() if isinstance(value, (list, dict)) else value for value in shown])
    return components, copy, (PLAYERS_ITEM + seat * PLAYERS_STRIDE, values)


def _write_camp_part(state: MagnificentState, seat: int, player: Player, values: Any) -> None:  # noqa: ANN401
    """A player's tiles and camp into its part's values (found by the tiles placed: they change when it builds)."""
    camp_key = (seat, tuple(player.tiles), id(state.c))
    camp = _camps.get(camp_key) or _camps.block(
        camp_key, PLAYERS_ITEM + seat * PLAYERS_STRIDE + _P_TILES, CAMP_SIZE,
        lambda slots: _write_camp(state, player, slots, -_P_TILES),
    )
    values[_P_TILES : _P_TILES + CAMP_SIZE] = camp[1]


def _counts(values: Any, slots: dict[str, int], out: dict[int, float]) -> None:  # noqa: ANN401
    """A count per vocabulary value ('' counts nothing), into the dict `out`."""
    for value in values:
        if value:
            slot = slots[value]
            out[slot] = out.get(slot, 0.0) + 1.0


def _counts_at(values: Any, slots: dict[str, int], out: Any, at: int) -> None:  # noqa: ANN401
    """A count per vocabulary value ('' counts nothing), into the slots `out` from `at` on."""
    for value in values:
        if value:
            out[at + slots[value]] += 1.0


def _write_main_tent(main_tent: dict[str, int], out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The main tent's list, its count slot at `at` of `out`."""
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


def _write_tracks(state: MagnificentState, out: Any, at: int) -> None:  # noqa: ANN401 - slots
    """The tracks' list, its count slot at `at` of `out`."""
    colours = list(state.track_tents)
    check_cap(GAME, "tracks", len(colours), TRACKS_CAP)
    out[at] = float(len(colours))
    at += TRACKS_ITEM - TRACKS
    for colour in colours:
        tents = state.track_tents[colour]
        gems = state.c.track_spaces[colour]
        check_cap(GAME, "tracks[].spaces", len(gems), _T_SPACES_CAP)
        out[at] = 1.0
        out[at + _T_COLOUR[colour]] = 1.0
        out[at + _T_WAGON] = float(state.wagons[colour])
        out[at + _T_SPACES] = float(len(gems))
        for index, gem in enumerate(gems):
            space = f"gem:{gem}" if gem is not None else (f"tent:{tents[index]}" if tents[index] else "poster")
            out[at + _T_SPACES_FIRST + index] = _T_SPACE[space]
        at += TRACKS_STRIDE


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


def _write_turn(state: MagnificentState, turn: Turn, decision: str, out: dict[int, float]) -> None:
    """The turn in progress, into `out`."""
    shown: _TurnShown = _TURN_SHOWS(turn)  # typed: the compiled module reads each field as what it is
    (seat, die_colour, die_value, card, acting, action, bonus, build_colour, wagon_colour, master_used, trainers_used,
     extra_small, extra_show, points_per_show, resolved, pending_tiles, tile, anchor, shows, chosen, extra_gems_due,
     tent_space) = shown
    out[TURN] = 1.0
    out[_TU_SEAT] = float(seat)
    if die_colour:
        out[_TU_DIE] = 1.0
        out[_TU_DIE_COLOUR[die_colour]] = 1.0
        out[_TU_DIE_VALUE] = float(die_value)
    if card:
        out[_TU_CARD[card]] = 1.0
    if acting:
        out[_TU_ACTING[acting]] = 1.0
    if action:
        out[_TU_ACTION[action]] = 1.0
    if acting:
        out[_TU_POWER] = float(_power(state, seat, card, acting, die_value, bonus))
    build = build_colour or (acting if action == "BUILD" else "")
    if build:
        out[_TU_BUILD[build]] = 1.0
    wagon = wagon_colour or (acting if action == "TRAVEL" else "")
    if wagon:
        out[_TU_WAGON[wagon]] = 1.0
    if master_used:
        out[_TU_MASTER_USED] = 1.0
    if trainers_used:
        _counts(trainers_used, _TU_TRAINERS, out)
    # (zeros are left out: the vector holds zeros wherever no slot is set)
    if extra_small:
        out[_TU_EXTRA_SMALL] = float(extra_small)
    if extra_show:
        out[_TU_EXTRA_SHOWS] = float(extra_show)
    if points_per_show:
        out[_TU_POINTS_PER_SHOW] = float(points_per_show)
    if resolved:
        out[_TU_RESOLVED] = 1.0
    if pending_tiles:
        _counts(pending_tiles, _TU_PENDING, out)
    if tile:
        out[_TU_TILE[tile]] = 1.0
    if anchor[0] >= 0:
        out[_TU_ANCHOR] = 1.0
        out[_TU_ANCHOR_X] = float(anchor[0])
        out[_TU_ANCHOR_Y] = float(anchor[1])
    if shows:
        out[_TU_SHOWS] = float(shows)
    if chosen:
        check_cap(GAME, "turn.chosen_slots", len(chosen), _TU_CHOSEN_CAP)
        out[_TU_CHOSEN] = float(len(chosen))
        for position, slot in enumerate(chosen):
            out[_TU_CHOSEN + 1 + position] = float(slot + 1)
    if extra_gems_due:
        out[_TU_EXTRA_GEMS] = float(extra_gems_due)
    if decision == "VD2":
        colour, index = tent_space
        tent = state.track_tents[colour][index]
        if tent:
            out[_TU_TENT[tent]] = 1.0


#: the seat's observation slots; a value outside its vocabulary is an EncodingError naming it
encode = naming_vocabulary_errors(GAME, _encode)  # type: ignore[arg-type]
