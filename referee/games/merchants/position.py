"""What a Merchants of B99 position must satisfy beyond its shape: every shop tile and reputation card in exactly one
place, rotations, chips, scores and seats in range."""

from __future__ import annotations

from referee.games.merchants.state import (
    CHANCE,
    CHOOSE_DUNGEON,
    CHOOSE_ROTATION,
    CHOOSE_TARGET,
    CHOOSE_TILE,
    DUNGEONS,
    INITIAL_ROTATION,
    OVER,
    RETURN_REPUTATION,
    MerchantsState,
)
from referee.position import PositionError
from referee.position_checks import each_once, in_range, one_of

PHASES = (CHANCE, INITIAL_ROTATION, RETURN_REPUTATION, CHOOSE_TILE, CHOOSE_TARGET, CHOOSE_ROTATION, CHOOSE_DUNGEON, OVER)
ROTATIONS = (0, 90, 180, 270)


def check(state: MerchantsState) -> None:
    """PositionError for a Merchants position that cannot happen: a tile or reputation card missing, unknown or in two
    places (supply, shops, discards, hands, set aside), a rotation, chip, score or round out of range."""
    data, players = state.data, state.players
    one_of("phase", state.phase, PHASES)
    if len(state.players_state) != players:
        raise PositionError(f"position: players_state must list {players} seats, not {len(state.players_state)}")
    tiles: dict[str, list[object]] = {"supply": list(state.supply), "solo_removed": list(state.solo_removed)}
    cards: dict[str, list[object]] = {"reputation_deck": list(state.reputation_deck)}
    seen_bundles: set[int] = set()
    for seat, player in enumerate(state.players_state):
        where = f"players_state[{seat}]"
        placed = []
        for cell, entry in player.shop.items():
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                raise PositionError(f"position: {where}.shop[{cell!r}] must be (tile, rotation), not {entry!r}")
            one_of(f"{where}.shop[{cell!r}] rotation", entry[1], ROTATIONS)
            placed.append(entry[0])
        tiles[f"{where}.shop"] = placed
        tiles[f"{where}.discards"] = list(player.discards)
        if player.bundle is not None and id(player.bundle) not in seen_bundles:
            seen_bundles.add(id(player.bundle))
            tiles[f"{where}.bundle"] = list(player.bundle.tiles)
        tiles[f"{where}.drawn"] = [item for item in player.drawn if item not in data.reputation]
        cards[f"{where}.drawn"] = [item for item in player.drawn if item in data.reputation]
        cards[f"{where}.reputation"] = list(player.reputation)
        cards[f"{where}.returned"] = list(player.returned)
        if player.pending_tile is not None and (player.bundle is None or player.pending_tile not in player.bundle.tiles):
            raise PositionError(f"position: {where}.pending_tile {player.pending_tile!r} is not in its hand")
        for chip in player.unused_chips:
            one_of(f"{where}.unused_chips entry", chip, DUNGEONS)
        used = [chip.dungeon for chip in player.chips]
        for dungeon in used:
            one_of(f"{where}.chips dungeon", dungeon, DUNGEONS)
        if sorted(used + list(player.unused_chips)) != sorted(DUNGEONS):
            raise PositionError(f"position: {where} has chips {sorted(used + list(player.unused_chips))}, but each seat has {sorted(DUNGEONS)} once")
        in_range(f"{where}.score", player.score, -10_000, 10_000)
    each_once("tile", tiles, data.tile_ids)
    each_once("reputation card", cards, data.reputation)
    in_range("round", state.round, 0, len(DUNGEONS))
    _check_cards(state)


def _check_cards(state: MerchantsState) -> None:
    """The dungeon cards drawn at setup exist, each where it can be, none twice."""
    data = state.data
    layout: dict[str, list[object]] = {}
    for key, value in state.layout.items():
        if not isinstance(key, tuple) or len(key) != 2 or not isinstance(value, tuple) or len(value) != 2:
            raise PositionError(f"position: layout entry {key!r}: {value!r} must be (dungeon, slot): (card, slot)")
        one_of(f"layout[{key!r}] dungeon", key[0], DUNGEONS)
        card = data.ab_cards.get(value[0]) or data.floor99_cards.get(value[0])
        if card is None or card.dungeon != key[0]:
            raise PositionError(f"position: layout[{key!r}] holds {value[0]!r}, not a card of the {key[0]} dungeon")
        layout[f"layout[{key!r}]"] = [value[0]]
    each_once("dungeon card", layout, [*data.ab_cards, *data.floor99_cards], every=False)
    for dungeon in state.c_cards:
        one_of("c_cards dungeon", dungeon, DUNGEONS)
    each_once("C card", {f"c_cards[{d!r}]": [card] for d, card in state.c_cards.items()}, data.c_cards, every=False)
    each_once("D card", {"d_card": [state.d_card] if state.d_card is not None else []}, data.d_cards, every=False)
    each_once("grey card", {f"grey[{slot!r}]": [card] for slot, card in state.grey.items()}, data.grey_kinds, every=False)
    if state.floor99 is not None:
        one_of("floor99", state.floor99, DUNGEONS)
