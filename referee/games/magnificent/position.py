"""What a Magnificent position must satisfy beyond its shape: every poster, player board, camp tile and tent in
exactly one place, no trainer tile or master card twice, dice, gems, markers and hats within the game's limits,
camps that are their tiles, money, wagons and seats in range; options and outcomes are the engine's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.games.magnificent.data import COLOURS, TILE_TYPES
from referee.games.magnificent.model import FIRST_SHOW, IN_HAND, Player
from referee.games.magnificent.state import MagnificentState
from referee.position_checks import at_most, each_once, in_range, report, require, seat

LIMIT = 10_000  # no count in a real game comes near it; a larger one is a corrupted position
GEMS_PER_COLOUR = 3  # a player stores at most 3 gems of each colour (spec: gem storage)
MARKERS = 8  # a player never owns more than 8 trainer markers (available and spent)
SHOW_SPACES = 13
CONFIG_FIELDS = {"side_b": "side_b", "draft": "draft_master_cards", "pairs": "players"}
#: The engine's own: the pending options and outcomes, and the change tokens (made afresh by `derive`).
DERIVED = (
    "_options", "_outcomes", "player_tokens", "tent_token", "display_token", "poster_token", "deck_token", "track_token",
    "supply_token", "turn_token", "draft_token",
)
#: Piles a position may leave out: camp tiles in no camp (`supply`), regular posters placed nowhere else
#: (`poster_deck`), boards no seat has (`boards_left`); a seat's `camp` bitmask may be left out of its record
#: too (it is the squares its tiles cover).
FILLED = ("supply", "poster_deck", "boards_left")


def fill(state: MagnificentState, left_out: set[str], given: Mapping[str, Any]) -> None:
    """The piles left out of a position, as what is placed nowhere else (in the data's order)."""
    c = state.c
    if "supply" in left_out:
        used = Counter(tile[0] for player in state.players_state for tile in player.tiles if isinstance(tile, (list, tuple)) and tile)
        used.update(state.turn.pending_tiles if state.turn is not None else ())
        state.supply = {kind: max(c.tile_types[kind].copies - used[kind], 0) for kind in TILE_TYPES}
    if "poster_deck" in left_out:
        placed = {*state.start_posters_left, *state.poster_display, *state.poster_discard, state.poster_in_hand}
        for player in state.players_state:
            placed.update(player.posters)
            placed.update(player.completed)
        state.poster_deck = [poster for poster in c.regular_posters if poster not in placed]
    if "boards_left" in left_out:
        dealt = {player.board for player in state.players_state}
        state.boards_left = [board for board in c.boards if board not in dealt]
    for number, player in enumerate(state.players_state):
        written = given.get("players_state", [])[number] if number < len(given.get("players_state", [])) else {}
        if isinstance(written, dict) and "camp" not in written.get("fields", {}):
            covered = camp_of(state, f"players_state[{number}]", player)  # a camp left out is what its tiles cover
            if covered is not None:
                player.camp = covered


def camp_of(state: MagnificentState, where: str, player: Player) -> int | None:
    """The squares a player's camp tiles cover (its `camp` bitmask), or None (reported) when a tile does not fit."""
    covered = 0
    for index, tile in enumerate(player.tiles):
        if not isinstance(tile, (list, tuple)) or len(tile) != 4:
            report(f"{where}.tiles", "(type, orientation, x, y) entries", f"{where}.tiles[{index}] must be (type, orientation, x, y), not {tile!r}")
            return None
        kind, k, x, y = tile
        info = state.c.tile_types.get(kind)
        placement = None if info is None else next((p for p in info.by_anchor.get((x, y), ()) if p.k == k), None)
        if placement is None:
            report(f"{where}.tiles", "a tile placed in the camp grid", f"{where}.tiles[{index}] {tile!r} is no placement of a camp tile in the grid")
            return None
        if placement.mask & covered:
            report(f"{where}.tiles", "tiles do not overlap", f"{where}.tiles[{index}] {tile!r} overlaps an earlier tile")
            return None
        covered |= placement.mask
    return covered


def derive(state: MagnificentState) -> None:
    """The engine lists options and outcomes afresh; every part has a fresh change token (set from the position, not
    changed by the rules)."""
    state._options = {}
    state._outcomes = None
    state.renew_tokens()


def check(state: MagnificentState) -> None:
    """Report a Magnificent position that cannot happen: a poster, trainer tile, board or camp tile missing, unknown
    or in two places, more dice than the game rolls, more than 3 gems of a colour or 8 markers, two hats on one
    space, a camp bitmask that is not its tiles, a negative purse, a wagon off its track, a seat that does not exist."""
    c, players = state.c, state.players
    if len(state.players_state) != players:
        report("players_state", f"{players} seats", f"players_state must list {players} seats, not {len(state.players_state)}")
        return
    posters: dict[str, list[object]] = {
        "start_posters_left": list(state.start_posters_left),
        "poster_deck": list(state.poster_deck),
        "poster_display": [p for p in state.poster_display if p is not None],
        "poster_discard": list(state.poster_discard),
        "poster_in_hand": [state.poster_in_hand] if state.poster_in_hand else [],
    }
    trainers: dict[str, list[object]] = {
        "trainer_deck": list(state.trainer_deck),
        "removed_trainers": list(state.removed_trainers),
        "draft_pool": list(state.draft_pool),
        "display": [item for pair in state.display for item in pair if item in c.trainers],  # (master card, trainer) pairs
    }
    boards: dict[str, list[object]] = {"boards_left": list(state.boards_left)}
    camp: dict[str, list[object]] = {
        "supply": [kind for kind, count in state.supply.items() for _ in range(count if isinstance(count, int) else 0)],
        "turn.pending_tiles": list(state.turn.pending_tiles) if state.turn is not None else [],
    }
    masters: dict[str, list[object]] = {
        "master_deck": list(state.master_deck),
        "display": [item for pair in state.display for item in pair if item is not None and item not in c.trainers],
        "draft_removed": [card for card in state.draft_removed if card],
    }
    for hand, cards in enumerate(state.draft_hands):
        masters[f"draft_hands[{hand}]"] = list(cards)
    tents: dict[str, list[object]] = {"tents_left": list(state.tents_left)}
    for colour, spaces in state.track_tents.items():
        tents[f"track_tents[{colour!r}]"] = [tent for tent in spaces if tent is not None]
    for number, player in enumerate(state.players_state):
        where = f"players_state[{number}]"
        masters[f"{where}.masters"] = list(player.masters)
        tents[f"{where}.tents"] = [tent for tent in player.tents if tent is not None]
        posters[f"{where}.posters"] = [p for p in player.posters if p is not None]
        posters[f"{where}.completed"] = list(player.completed)
        trainers[f"{where}.trainers"] = list(player.trainers)
        boards[f"{where}.board"] = [player.board] if player.board else []
        camp[f"{where}.tiles"] = [tile[0] if isinstance(tile, (list, tuple)) and tile else tile for tile in player.tiles]
        in_range(f"{where}.coins", player.coins, 0, LIMIT)
        in_range(f"{where}.points", player.points, -LIMIT, LIMIT)
        if at_most(f"{where}.markers", player.markers, MARKERS, f"a player owns at most {MARKERS} trainer markers") and at_most(
            f"{where}.spent", player.spent, MARKERS, f"a player owns at most {MARKERS} trainer markers"
        ):
            owned = player.markers + player.spent
            require(owned <= MARKERS, f"{where}.markers", f"at most {MARKERS} markers", f"{where} owns {owned} trainer markers (available and spent), but at most {MARKERS}")
        if len(player.gems) != len(COLOURS):
            report(f"{where}.gems", "4 colours", f"{where}.gems must count 4 colours (O, G, P, C), not {player.gems!r}")
        else:
            for colour, gems in zip(COLOURS, player.gems, strict=True):
                at_most(f"{where}.gems {colour}", gems, GEMS_PER_COLOUR, f"a player stores at most {GEMS_PER_COLOUR} gems of a colour")
        covered = camp_of(state, where, player)
        if covered is not None:
            require(
                player.camp == covered,
                f"{where}.camp",
                "the squares its tiles cover",
                f"{where}.camp is {player.camp}, but its {len(player.tiles)} tiles cover {covered}",
            )
    _check_hats(state)
    _check_dice(state)
    for kind, count in state.supply.items():
        if kind not in c.tile_types:
            report("supply", "a camp tile type", f"supply holds camp tile type {kind!r}, which the game does not have")
            continue
        in_range(f"supply[{kind!r}]", count, 0, c.tile_types[kind].copies)
    each_once("poster", posters, (*c.starting_posters, *c.regular_posters))
    # Trainer tiles left in the display at a round's end leave the game unrecorded: none twice, none unknown.
    each_once("trainer tile", trainers, c.trainers, every=False)
    each_once("player board", boards, c.boards)
    # Master cards scored at a round's end, like the display's leftovers, leave the game unrecorded.
    each_once("master card", masters, c.masters, every=False)
    each_once("tent", tents, (*c.track_tents, *[c.printed_tent] * players))
    each_once("camp tile", camp, [kind for kind, info in c.tile_types.items() for _ in range(info.copies)])
    for colour, space in state.wagons.items():
        if colour not in c.track_spaces:
            report("wagons", "a travel track", f"wagons names track {colour!r}, which the game does not have")
            continue
        in_range(f"wagons[{colour!r}]", space, 0, len(c.track_spaces[colour]))
    seat("start_player", state.start_player, players)
    in_range("round", state.round, 0, LIMIT)


def _check_hats(state: MagnificentState) -> None:
    """Two hats a player, each in hand, on a start space or on a show space, at most one hat a space."""
    spaces: Counter[int] = Counter()
    for number, player in enumerate(state.players_state):
        where = f"players_state[{number}].hats"
        if not isinstance(player.hats, list) or len(player.hats) != 2:
            report(where, "two hats", f"{where} must place 2 hats, not {player.hats!r}")
            continue
        for hat in player.hats:
            if in_range(where, hat, IN_HAND, FIRST_SHOW + SHOW_SPACES - 1) and hat != IN_HAND:
                spaces[hat] += 1
    for space, hats in sorted(spaces.items()):
        if hats > 1:
            label = f"start space #{space + 1}" if space < FIRST_SHOW else f"show space {space - FIRST_SHOW + 1}"
            report("players_state.hats", "one hat a space", f"{hats} hats are on {label}, which holds one")


def _check_dice(state: MagnificentState) -> None:
    """The dice of each colour in the main tent and on master cards are at most the game's for this player count."""
    total = dict(zip(COLOURS, state.c.dice[state.players], strict=True))
    found: Counter[str] = Counter()
    for key, count in state.main_tent.items():
        colour, _, value = key.partition(":")
        if colour not in total or not value.isdigit() or not 1 <= int(value) <= 6:
            report("main_tent", "dice by colour and face", f"main_tent holds {key!r}, not a die (colour:face)")
            continue
        if in_range(f"main_tent[{key!r}]", count, 0, LIMIT):
            found[colour] += count
    for number, player in enumerate(state.players_state):
        for card, die in player.dice.items():
            if not isinstance(die, (list, tuple)) or len(die) != 2 or die[0] not in total:
                report(f"players_state[{number}].dice", "(colour, face) dice", f"players_state[{number}].dice[{card!r}] is {die!r}, not a die")
                continue
            found[die[0]] += 1
    for colour, count in found.items():
        require(
            count <= total[colour],
            "main_tent",
            "the dice of the player count",
            f"{count} {colour} dice in the main tent and on master cards, but {state.players} players roll {total[colour]}",
        )
