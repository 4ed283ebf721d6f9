"""What a Magnificent position must satisfy beyond its shape: every poster, player board, camp tile and tent in
exactly one place, no trainer tile or master card twice, and money, gems, wagons and seats in range."""

from __future__ import annotations

from referee.games.magnificent.state import MagnificentState
from referee.position import PositionError
from referee.position_checks import each_once, in_range, seat

LIMIT = 10_000  # no count in a real game comes near it; a larger one is a corrupted position


def check(state: MagnificentState) -> None:
    """PositionError for a Magnificent position that cannot happen: a poster, trainer tile, board or camp tile
    missing, unknown or in two places, a negative purse or gem count, a wagon off its track, a seat that does not exist."""
    c, players = state.c, state.players
    if len(state.players_state) != players:
        raise PositionError(f"position: players_state must list {players} seats, not {len(state.players_state)}")
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
        for name in ("coins", "markers", "spent"):
            in_range(f"{where}.{name}", getattr(player, name), 0, LIMIT)
        in_range(f"{where}.points", player.points, -LIMIT, LIMIT)
        if len(player.gems) != 4:
            raise PositionError(f"position: {where}.gems must count 4 colours (O, G, P, C), not {player.gems!r}")
        for colour, gems in zip("OGPC", player.gems, strict=True):
            in_range(f"{where}.gems {colour}", gems, 0, LIMIT)
    for kind, count in state.supply.items():
        if kind not in c.tile_types:
            raise PositionError(f"position: supply holds camp tile type {kind!r}, which the game does not have")
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
            raise PositionError(f"position: wagons names track {colour!r}, which the game does not have")
        in_range(f"wagons[{colour!r}]", space, 0, len(c.track_spaces[colour]))
    seat("start_player", state.start_player, players)
    in_range("round", state.round, 0, LIMIT)
