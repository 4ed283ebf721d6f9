"""The Magnificent's observations from the state: the vector `game_encoding("magnificent").view` gives a seat's view.

Everything but deck orders is public (spec §5) and the draft's hands are the seat's own, so a seat's
vector is the table's, its seat number and, with the draft variant, its hand, picks and removed card.
Each player's part, the main tent, the display and the tracks are blocks of the vector remembered by
the exact state they come from (only the acting player's part changes in a turn).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.engine import Seat
from referee.games.magnificent import draft
from referee.games.magnificent.data import TILE_TYPES
from referee.games.magnificent.model import Player, position_label
from referee.games.magnificent.state import MagnificentState
from referee.games.magnificent.views import market_copy, market_shown
from sdk.envs.encodings import game_encoding
from sdk.envs.state_encoders.parts import Block, Memory, block_taker, check_cap, naming_vocabulary_errors

GAME = "magnificent"
_E = game_encoding(GAME).view


# ----- the table's own fields -------------------------------------------------------------------
SEAT, ROUND, START_PLAYER, TURN_COUNT = _E.start("seat"), _E.start("round"), _E.start("start_player"), _E.start("turn_count")
DECISION = _E.one_hot("decision")
DECIDING, DECIDING_CAP = _E.start("deciding"), _E.cap("deciding")
POSTER_DISPLAY, POSTER_DISPLAY_CAP = _E.start("poster_display"), _E.cap("poster_display")
POSTER_INDEX = _E.indexed("poster_display[]")
POSTER_DECK_SIZE, MASTER_DECK_SIZE, TRAINER_DECK_SIZE = (
    _E.start("poster_deck_size"), _E.start("master_deck_size"), _E.start("trainer_deck_size"),
)
POSTER_DISCARD, DRAFT_POOL, REMOVED_TRAINERS = _E.one_hot("poster_discard"), _E.one_hot("draft_pool"), _E.one_hot("removed_trainers")
SUPPLY, SUPPLY_ITEM, SUPPLY_STRIDE = _E.start("supply"), _E.start("supply[]"), _E.stride("supply")
SUPPLY_TYPE, SUPPLY_COUNT = _E.one_hot("supply[].tile_type", "supply[]"), _E.offset("supply[].count", "supply[]")
POSTER_IN_HAND = _E.one_hot("poster_in_hand")
SIDE_B, GAME_OVER = _E.start("side_b"), _E.start("game_over")
FINAL_SCORES, FINAL_SCORES_NODE = _E.start("final_scores"), _E.node("final_scores")
DRAFT_MASTER_CARDS, DRAFT_ROUND = _E.start("draft_master_cards"), _E.start("draft_round")
DRAFT_HAND, DRAFT_PICKS, DRAFT_REMOVED = _E.one_hot("draft_hand"), _E.one_hot("draft_picks"), _E.one_hot("draft_removed")

MAIN_TENT, MAIN_TENT_ITEM, MAIN_TENT_STRIDE, MAIN_TENT_CAP = (
    _E.start("main_tent"), _E.start("main_tent[]"), _E.stride("main_tent"), _E.cap("main_tent"),
)
MAIN_TENT_SIZE = _E.node("main_tent").size
_MT_COLOUR = _E.one_hot("main_tent[].colour", "main_tent[]")
_MT_VALUE, _MT_COUNT = _E.offset("main_tent[].value", "main_tent[]"), _E.offset("main_tent[].count", "main_tent[]")

DISPLAY, DISPLAY_ITEM, DISPLAY_STRIDE, DISPLAY_CAP, DISPLAY_SIZE = (
    _E.start("display"), _E.start("display[]"), _E.stride("display"), _E.cap("display"), _E.node("display").size,
)
_D_SLOT, _D_CARD, _D_TRAINER = (_E.offset(f"display[].{name}", "display[]") for name in ("slot", "card", "trainer"))
_D_CARDS, _D_TRAINERS = _E.indexed("display[].card"), _E.indexed("display[].trainer")

TRACKS, TRACKS_ITEM, TRACKS_STRIDE, TRACKS_CAP, TRACKS_SIZE = (
    _E.start("tracks"), _E.start("tracks[]"), _E.stride("tracks"), _E.cap("tracks"), _E.node("tracks").size,
)
_T_COLOUR, _T_WAGON = _E.one_hot("tracks[].colour", "tracks[]"), _E.offset("tracks[].wagon", "tracks[]")
_T_SPACES, _T_SPACES_FIRST, _T_SPACES_CAP = (
    _E.offset("tracks[].spaces", "tracks[]"), _E.offset("tracks[].spaces[]", "tracks[]"), _E.cap("tracks[].spaces"),
)
_T_SPACE = _E.indexed("tracks[].spaces[]")

PLAYERS, PLAYERS_ITEM, PLAYERS_STRIDE, PLAYERS_CAP = (
    _E.start("players"), _E.start("players[]"), _E.stride("players"), _E.cap("players"),
)


def _p(name: str) -> int:
    return _E.offset(f"players[].{name}", "players[]")


_P_SEAT, _P_POINTS, _P_COINS, _P_MARKERS, _P_SPENT, _P_TURNS = (
    _p(name) for name in ("seat", "points", "coins", "markers", "spent_markers", "turns_taken")
)
_P_BOARD = _E.one_hot("players[].board", "players[]")
_P_GEMS, _P_GEMS_CAP = _p("gems"), _E.cap("players[].gems")
_P_MASTERS, _P_MASTERS_FIRST, _P_MASTERS_STRIDE, _P_MASTERS_CAP = (
    _p("masters"), _p("masters[]"), _E.stride("players[].masters"), _E.cap("players[].masters"),
)
_M_CARD = _E.offset("players[].masters[].card", "players[].masters[]")
_M_CARDS = _E.indexed("players[].masters[].card")
_M_DIE = _E.offset("players[].masters[].die", "players[].masters[]")
_M_DIE_COLOUR = _E.one_hot("players[].masters[].die.colour", "players[].masters[]")
_M_DIE_VALUE = _E.offset("players[].masters[].die.value", "players[].masters[]")
_P_TRAINERS = _E.one_hot("players[].trainers", "players[]")
_P_TILES, _P_TILES_FIRST, _P_TILES_STRIDE, _P_TILES_CAP = (
    _p("tiles"), _p("tiles[]"), _E.stride("players[].tiles"), _E.cap("players[].tiles"),
)
_TL_TYPE = _E.one_hot("players[].tiles[].tile_type", "players[].tiles[]")
_TL_ORIENTATION, _TL_X, _TL_Y = (_E.offset(f"players[].tiles[].{name}", "players[].tiles[]") for name in ("orientation", "x", "y"))
_P_CAMP = _p("camp")
CAMP_SIZE = _P_CAMP + _E.node("players[].camp").size - _P_TILES  # the tiles list and the camp, one after the other
_CAMP_ROWS, _CAMP_COLS, _CAMP_CHARS = _E.spec.grids["players[].camp"]
_P_POSTERS, _P_POSTERS_FIRST, _P_POSTERS_CAP = _p("posters"), _p("posters[]"), _E.cap("players[].posters")
_P_POSTER = _E.indexed("players[].posters[]")
_P_TENTS, _P_TENTS_FIRST, _P_TENTS_CAP = _p("tents"), _p("tents[]"), _E.cap("players[].tents")
_P_TENT = _E.indexed("players[].tents[]")
_P_COMPLETED = _E.one_hot("players[].completed", "players[]")
_P_HATS, _P_HATS_FIRST, _P_HATS_STRIDE, _P_HATS_CAP = (
    _p("hats"), _p("hats[]"), _E.stride("players[].hats"), _E.cap("players[].hats"),
)
_P_HAT = _E.slots("players[].hats[]")


def _t(name: str) -> int:
    return _E.start(f"turn.{name}")


TURN = _E.start("turn")
_TU_SEAT, _TU_POWER, _TU_MASTER_USED, _TU_EXTRA_SMALL, _TU_EXTRA_SHOWS, _TU_POINTS_PER_SHOW, _TU_RESOLVED = (
    _t(name) for name in ("seat", "power", "master_used", "extra_small_tiles", "extra_shows", "points_per_show", "resolved")
)
_TU_SHOWS, _TU_EXTRA_GEMS = _t("shows"), _t("extra_gems_due")
_TU_DIE, _TU_DIE_COLOUR, _TU_DIE_VALUE = _t("die"), _E.one_hot("turn.die.colour"), _t("die.value")
_TU_CARD, _TU_ACTING, _TU_ACTION = _E.one_hot("turn.card"), _E.one_hot("turn.acting_colour"), _E.one_hot("turn.action")
_TU_BUILD, _TU_WAGON = _E.one_hot("turn.build_colour"), _E.one_hot("turn.wagon_colour")
_TU_TRAINERS, _TU_PENDING, _TU_TILE = _E.one_hot("turn.trainers_used"), _E.one_hot("turn.pending_tiles"), _E.one_hot("turn.tile_type")
_TU_ANCHOR, _TU_ANCHOR_X, _TU_ANCHOR_Y = _t("anchor"), _t("anchor.x"), _t("anchor.y")
_TU_CHOSEN, _TU_CHOSEN_CAP = _t("chosen_slots"), _E.cap("turn.chosen_slots")
_TU_TENT = _E.one_hot("turn.tent")

_camps, _tracks = Memory(), Memory()
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
    decision = state.decision_code()
    if decision:
        out[DECISION[decision]] = 1.0
    deciding = state.deciding_seats()
    check_cap(GAME, "deciding", len(deciding), DECIDING_CAP)
    out[DECIDING] = float(len(deciding))
    for position, s in enumerate(deciding):
        out[DECIDING + 1 + position] = float(s)
    market = _MARKETS.get(id(state))
    if market is None or market[0] is not state or market[1] != market_shown(state):
        market = _keep_market(state)
    put_block(market[2])
    players = state.players_state
    check_cap(GAME, "players", len(players), PLAYERS_CAP)
    out[PLAYERS] = float(len(players))
    for s, player in enumerate(players):
        known = _PLAYERS_SEEN.get(id(player))
        if known is None or known[0] is not player or known[1] != s or known[2] != player:
            known = _keep_player(state, s, player)
        put_block(known[3])
    if state.turn is not None:
        _write_turn(state, decision, out)
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
_SEEN_LIMIT = 256
#: id(state) -> (the state, a copy of what its market shows (`views.market_copy`), the market's block: slots
#: MAIN_TENT..PLAYERS, the main tent to the supply)
_MARKETS: dict[int, tuple[MagnificentState, tuple[Any, ...], Block]] = {}
#: id(player) -> (the player, its seat, a copy of it as its block was written, its block: the player's whole part)
_PLAYERS_SEEN: dict[int, tuple[Player, int, Player, Block]] = {}
MARKET_SIZE = PLAYERS - MAIN_TENT




def _keep_market(state: MagnificentState) -> tuple[MagnificentState, tuple[Any, ...], Block]:
    """The market's block written (its tracks found by what they show: they change a few times a game), kept."""
    track_tents, wagons = state.track_tents, state.wagons
    tracks_key = (tuple((colour, tuple(tents)) for colour, tents in track_tents.items()), tuple(wagons.items()), id(state.c))
    tracks = _tracks.get(tracks_key) or _tracks.block(tracks_key, TRACKS, TRACKS_SIZE, lambda slots: _write_tracks(state, slots, 0))
    values: Any = np.zeros(MARKET_SIZE, np.float32)  # Any: numpy's stubs do not declare its buffer
    slots: Any = memoryview(values)  # float32 slots
    _write_main_tent(state.main_tent, slots, 0)
    _write_display(state.display, slots, DISPLAY - MAIN_TENT)
    posters = state.poster_display
    check_cap(GAME, "poster_display", len(posters), POSTER_DISPLAY_CAP)
    at = POSTER_DISPLAY - MAIN_TENT
    slots[at] = float(len(posters))
    for position, poster in enumerate(posters):
        if poster:
            slots[at + 1 + position] = POSTER_INDEX[poster]
    slots[POSTER_DECK_SIZE - MAIN_TENT] = float(len(state.poster_deck))
    _counts_at(state.poster_discard, POSTER_DISCARD, slots, -MAIN_TENT)
    slots[MASTER_DECK_SIZE - MAIN_TENT] = float(len(state.master_deck))
    slots[TRAINER_DECK_SIZE - MAIN_TENT] = float(len(state.trainer_deck))
    _counts_at(state.draft_pool, DRAFT_POOL, slots, -MAIN_TENT)
    _counts_at(state.removed_trainers, REMOVED_TRAINERS, slots, -MAIN_TENT)
    values[TRACKS - MAIN_TENT : TRACKS - MAIN_TENT + TRACKS_SIZE] = tracks[1]
    supply = state.supply
    slots[SUPPLY - MAIN_TENT] = float(len(TILE_TYPES))
    at = SUPPLY_ITEM - MAIN_TENT
    for tile_type in TILE_TYPES:
        slots[at] = 1.0
        slots[at + SUPPLY_TYPE[tile_type]] = 1.0
        slots[at + SUPPLY_COUNT] = float(supply[tile_type])
        at += SUPPLY_STRIDE
    market = (state, market_copy(state), (MAIN_TENT, values))
    if len(_MARKETS) >= _SEEN_LIMIT:
        _MARKETS.clear()
    _MARKETS[id(state)] = market
    return market


def _keep_player(state: MagnificentState, seat: int, player: Player) -> tuple[Player, int, Player, Block]:
    """A player's whole part written (its tiles and camp found by the tiles placed: they change when it builds), kept."""
    components = id(state.c)
    camp_key = (seat, tuple(player.tiles), components)
    camp = _camps.get(camp_key) or _camps.block(
        camp_key, PLAYERS_ITEM + seat * PLAYERS_STRIDE + _P_TILES, CAMP_SIZE,
        lambda slots: _write_camp(state, player, slots, -_P_TILES),
    )
    values: Any = np.zeros(PLAYERS_STRIDE, np.float32)  # Any: numpy's stubs do not declare its buffer
    _write_player(seat, player, memoryview(values), 0)
    values[_P_TILES : _P_TILES + CAMP_SIZE] = camp[1]
    known = (player, seat, player.copy(), (PLAYERS_ITEM + seat * PLAYERS_STRIDE, values))
    if len(_PLAYERS_SEEN) >= _SEEN_LIMIT:
        _PLAYERS_SEEN.clear()
    _PLAYERS_SEEN[id(player)] = known
    return known


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
    for key in sorted(main_tent, key=_main_tent_order):
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
    check_cap(GAME, "players[].gems", len(player.gems), _P_GEMS_CAP)
    out[at + _P_GEMS] = float(len(player.gems))
    for position, gems in enumerate(player.gems):
        out[at + _P_GEMS + 1 + position] = float(gems)
    out[at + _P_MARKERS] = float(player.markers)
    out[at + _P_SPENT] = float(player.spent)
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
    _counts_at(player.trainers, _P_TRAINERS, out, at)
    _ordered_indexed(player.posters, _P_POSTERS, _P_POSTERS_CAP, _P_POSTER, "players[].posters", at, out)
    _ordered_indexed(player.tents, _P_TENTS, _P_TENTS_CAP, _P_TENT, "players[].tents", at, out)
    _counts_at(player.completed, _P_COMPLETED, out, at)
    check_cap(GAME, "players[].hats", len(player.hats), _P_HATS_CAP)
    out[at + _P_HATS] = float(len(player.hats))
    item = at + _P_HATS_FIRST
    for hat in player.hats:
        label = _hat_label(hat)
        if label:
            out[item + _P_HAT[label]] = 1.0
        item += _P_HATS_STRIDE
    out[at + _P_TURNS] = float(len(player.dice))


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


def _write_turn(state: MagnificentState, decision: str, out: dict[int, float]) -> None:
    turn = state.turn
    if turn is None:
        return
    out[TURN] = 1.0
    out[_TU_SEAT] = float(turn.seat)
    if turn.die_colour:
        out[_TU_DIE] = 1.0
        out[_TU_DIE_COLOUR[turn.die_colour]] = 1.0
        out[_TU_DIE_VALUE] = float(turn.die_value)
    if turn.card:
        out[_TU_CARD[turn.card]] = 1.0
    if turn.acting:
        out[_TU_ACTING[turn.acting]] = 1.0
    if turn.action:
        out[_TU_ACTION[turn.action]] = 1.0
    out[_TU_POWER] = float(state.power())
    build = turn.build_colour or (turn.acting if turn.action == "BUILD" else "")
    if build:
        out[_TU_BUILD[build]] = 1.0
    wagon = turn.wagon_colour or (turn.acting if turn.action == "TRAVEL" else "")
    if wagon:
        out[_TU_WAGON[wagon]] = 1.0
    if turn.master_used:
        out[_TU_MASTER_USED] = 1.0
    _counts(turn.trainers_used, _TU_TRAINERS, out)
    out[_TU_EXTRA_SMALL] = float(turn.extra_small)
    out[_TU_EXTRA_SHOWS] = float(turn.extra_show)
    out[_TU_POINTS_PER_SHOW] = float(turn.points_per_show)
    if turn.resolved:
        out[_TU_RESOLVED] = 1.0
    _counts(turn.pending_tiles, _TU_PENDING, out)
    if turn.tile:
        out[_TU_TILE[turn.tile]] = 1.0
    if turn.anchor[0] >= 0:
        out[_TU_ANCHOR] = 1.0
        out[_TU_ANCHOR_X] = float(turn.anchor[0])
        out[_TU_ANCHOR_Y] = float(turn.anchor[1])
    out[_TU_SHOWS] = float(turn.shows)
    check_cap(GAME, "turn.chosen_slots", len(turn.chosen), _TU_CHOSEN_CAP)
    out[_TU_CHOSEN] = float(len(turn.chosen))
    for position, slot in enumerate(turn.chosen):
        out[_TU_CHOSEN + 1 + position] = float(slot + 1)
    out[_TU_EXTRA_GEMS] = float(turn.extra_gems_due)
    if decision == "VD2":
        colour, index = turn.tent_space
        tent = state.track_tents[colour][index]
        if tent:
            out[_TU_TENT[tent]] = 1.0


#: the seat's observation slots; a value outside its vocabulary is an EncodingError naming it
encode = naming_vocabulary_errors(GAME, _encode)  # type: ignore[arg-type]
