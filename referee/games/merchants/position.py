"""What a Merchants of B99 position must satisfy beyond its shape: every shop tile and reputation card in exactly one
place, shops of the game's shape, rotations, chips, scores and seats in range, dungeon cards of the config's setup;
options and outcomes are the engine's (never read from a position)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    TOKENS,
    MerchantsState,
)
from referee.games.merchants.shop import MAX_SIDE
from referee.position import CONFIG_RULE
from referee.position_checks import each_once, in_range, one_of, report, require

#: State fields the config fixes (field -> the config entry): written in the config only.
CONFIG_FIELDS = {"solo": "players", "back_side": "personal_board_back (always on solo)", "first_game": "first_game"}
#: The engine's own caches: the options each seat has, the pending draw's outcomes, and the tokens of what changed.
DERIVED = ("_options", "_outcomes", "public_token", "layout_token", "board_tokens", "grown_at", "grown_from", "grown_cells")
#: Phases of a round's draft and dungeon choice, where each seat has used one chip per round before.
IN_ROUND = (CHOOSE_TILE, CHOOSE_TARGET, CHOOSE_ROTATION, CHOOSE_DUNGEON)
#: Piles a position may leave out: the shop tiles and reputation cards placed nowhere else.
FILLED = ("supply", "reputation_deck")

PHASES = (CHANCE, INITIAL_ROTATION, RETURN_REPUTATION, CHOOSE_TILE, CHOOSE_TARGET, CHOOSE_ROTATION, CHOOSE_DUNGEON, OVER)
ROTATIONS = (0, 90, 180, 270)


def _places(state: MerchantsState) -> tuple[dict[str, list[object]], dict[str, list[object]]]:
    """Where each shop tile and each reputation card lies, by the position's names of the places."""
    data = state.data
    tiles: dict[str, list[object]] = {"supply": list(state.supply), "solo_removed": list(state.solo_removed)}
    cards: dict[str, list[object]] = {"reputation_deck": list(state.reputation_deck)}
    seen_bundles: set[int] = set()
    for seat, player in enumerate(state.players_state):
        where = f"players_state[{seat}]"
        tiles[f"{where}.shop"] = [entry[0] for entry in player.shop.values() if isinstance(entry, (list, tuple)) and len(entry) == 2]
        tiles[f"{where}.discards"] = list(player.discards)
        if player.bundle is not None and id(player.bundle) not in seen_bundles:
            seen_bundles.add(id(player.bundle))
            tiles[f"{where}.bundle"] = list(player.bundle.tiles)
        tiles[f"{where}.drawn"] = [item for item in player.drawn if item not in data.reputation]
        cards[f"{where}.drawn"] = [item for item in player.drawn if item in data.reputation]
        cards[f"{where}.reputation"] = list(player.reputation)
        cards[f"{where}.returned"] = list(player.returned)
    return tiles, cards


def fill(state: MerchantsState, left_out: set[str], given: Mapping[str, Any]) -> None:
    """`supply` and `reputation_deck` when left out: the tiles and cards placed nowhere else, sorted."""
    tiles, cards = _places(state)
    if "supply" in left_out:
        placed = {tile for place, items in tiles.items() if place != "supply" for tile in items}
        state.supply = sorted(tile for tile in state.data.tile_ids if tile not in placed)
    if "reputation_deck" in left_out:
        held = {card for place, items in cards.items() if place != "reputation_deck" for card in items}
        state.reputation_deck = sorted(card for card in state.data.reputation if card not in held)


def derive(state: MerchantsState) -> None:
    """The engine lists options and outcomes afresh (a cache kept from before an edit would offer an old hand), and
    every part is marked changed (a view written before an edit would show the old part)."""
    state._options = {}
    state._outcomes = None
    state.public_token = TOKENS.new()
    state.layout_token = TOKENS.new()
    state.board_tokens = [TOKENS.new() for _ in state.players_state]
    state.grown_from = [None] * len(state.players_state)
    state.grown_cells = [None] * len(state.players_state)


def check(state: MerchantsState) -> None:
    """Report a Merchants position that cannot happen: a tile or reputation card missing, unknown or in two places
    (supply, shops, discards, hands, set aside), a shop wider or taller than 4, not connected or without its first
    tile at (0,0), a rotation, chip, score or round out of range, chips used in rounds not played, dungeon cards
    the config's setup does not use."""
    data, players = state.data, state.players
    one_of("phase", state.phase, PHASES)
    if len(state.players_state) != players:
        report("players_state", f"{players} seats", f"players_state must list {players} seats, not {len(state.players_state)}")
        return
    tiles, cards = _places(state)
    for seat, player in enumerate(state.players_state):
        where = f"players_state[{seat}]"
        for cell, entry in player.shop.items():
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                report(f"{where}.shop", "(tile, rotation) entries", f"{where}.shop[{cell!r}] must be (tile, rotation), not {entry!r}")
                continue
            one_of(f"{where}.shop[{cell!r}] rotation", entry[1], ROTATIONS)
        _check_shop(f"{where}.shop", list(player.shop))
        if player.pending_tile is not None and (player.bundle is None or player.pending_tile not in player.bundle.tiles):
            report(f"{where}.pending_tile", "a pending tile is in the hand", f"{where}.pending_tile {player.pending_tile!r} is not in its hand")
        for chip in player.unused_chips:
            one_of(f"{where}.unused_chips entry", chip, DUNGEONS)
        used = [chip.dungeon for chip in player.chips]
        for dungeon in used:
            one_of(f"{where}.chips dungeon", dungeon, DUNGEONS)
        if sorted(used + list(player.unused_chips)) != sorted(DUNGEONS):
            report(f"{where}.chips", "each dungeon chip once", f"{where} has chips {sorted(used + list(player.unused_chips))}, but each seat has {sorted(DUNGEONS)} once")
        _check_chips(state, where, player.chips)
        in_range(f"{where}.score", player.score, -10_000, 10_000)
    each_once("tile", tiles, data.tile_ids)
    each_once("reputation card", cards, data.reputation)
    in_range("round", state.round, 0, len(DUNGEONS))
    _check_cards(state)
    _check_config(state)


def _check_shop(where: str, cells: list[object]) -> None:
    """A shop grows from its first tile at (0,0), each tile next to another, at most 4 rows by 4 columns."""
    if not cells:
        return
    if not all(isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(x, int) for x in cell) for cell in cells):
        report(where, "cells are (row, column)", f"{where} has cells {cells!r}, not (row, column) pairs"[:160])
        return
    rows = [cell[0] for cell in cells]  # type: ignore[index]
    cols = [cell[1] for cell in cells]  # type: ignore[index]
    height, width = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
    require(
        height <= MAX_SIDE and width <= MAX_SIDE,
        where,
        f"at most {MAX_SIDE} by {MAX_SIDE}",
        f"{where} is {height} rows by {width} columns, but a shop is at most {MAX_SIDE} by {MAX_SIDE}",
    )
    require((0, 0) in cells, where, "the first tile at (0,0)", f"{where} has no tile at (0,0), where its first tile lies")
    occupied = set(cells)
    start = (0, 0) if (0, 0) in occupied else next(iter(occupied))
    reached, frontier = {start}, [start]
    while frontier:
        row, col = frontier.pop()  # type: ignore[misc]
        for near in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if near in occupied and near not in reached:
                reached.add(near)
                frontier.append(near)
    if len(reached) != len(occupied):
        apart = sorted(occupied - reached)  # type: ignore[type-var]
        report(where, "connected", f"{where} is not connected: {apart[0]} is not next to the rest")


def _check_chips(state: MerchantsState, where: str, chips: list[object]) -> None:
    """A chip is used at the end of each round: rounds before this one in the draft and the dungeon choice."""
    rounds = [getattr(chip, "round", None) for chip in chips]
    for number in rounds:
        in_range(f"{where}.chips round", number, 1, len(DUNGEONS))
    if len(set(rounds)) != len(rounds):
        report(f"{where}.chips", "one chip a round", f"{where} used two chips in one round ({rounds})")
    if state.phase in IN_ROUND and isinstance(state.round, int):
        require(
            len(chips) == state.round - 1,
            f"{where}.chips",
            "a chip used in each round played",
            f"{where} has used {len(chips)} chips in round {state.round}, but a chip is used at the end of each round ({state.round - 1} so far)",
        )
    elif state.phase == OVER:
        require(len(chips) == len(DUNGEONS), f"{where}.chips", "every chip used at the end", f"{where} has used {len(chips)} chips, but the game is over")
    elif isinstance(state.round, int):
        require(len(chips) <= max(state.round, 0), f"{where}.chips", "a chip used in each round played", f"{where} has used {len(chips)} chips in round {state.round}")


def _check_config(state: MerchantsState) -> None:
    """The dungeon cards and Floor 99 of the config's setup: first game's fixed layout and D cards, Floor 99 as set."""
    data, variants = state.data, state.config.variants
    if state.first_game:
        for dungeon, slots in data.first_game_layout.items():
            for slot, card in slots.items():
                found = state.layout.get((dungeon, slot))
                if found is None or found[0] != card:
                    report(f"layout[({dungeon!r}, {slot!r})]", CONFIG_RULE, f"layout[({dungeon!r}, {slot!r})] is {found and found[0]!r}, but the config's first_game lays {card!r} there")
        if state.d_card is not None and state.d_card in data.d_cards and not data.d_cards[state.d_card].first_game:
            report("d_card", CONFIG_RULE, f"d_card is {state.d_card!r}, but the config's first_game uses only the first-game D cards")
    wanted = variants["floor99"]
    if wanted == "off":
        require(state.floor99 is None, "floor99", CONFIG_RULE, f"floor99 is {state.floor99!r}, but the config's floor99 is off")
    elif wanted != "random":
        require(state.floor99 == wanted, "floor99", CONFIG_RULE, f"floor99 is {state.floor99!r}, but the config's floor99 is {wanted!r}")
    face = variants["floor99_face"]
    if wanted != "off" and face != "random":
        require(state.floor99_face == face, "floor99_face", CONFIG_RULE, f"floor99_face is {state.floor99_face!r}, but the config's floor99_face is {face!r}")


def _check_cards(state: MerchantsState) -> None:
    """The dungeon cards drawn at setup exist, each where it can be, none twice."""
    data = state.data
    layout: dict[str, list[object]] = {}
    for key, value in state.layout.items():
        if not isinstance(key, tuple) or len(key) != 2 or not isinstance(value, tuple) or len(value) != 2:
            report("layout", "(dungeon, slot): (card, slot) entries", f"layout entry {key!r}: {value!r} must be (dungeon, slot): (card, slot)")
            continue
        one_of(f"layout[{key!r}] dungeon", key[0], DUNGEONS)
        card = data.ab_cards.get(value[0]) or data.floor99_cards.get(value[0])
        if card is None or card.dungeon != key[0]:
            report(f"layout[{key!r}]", "a card of its dungeon", f"layout[{key!r}] holds {value[0]!r}, not a card of the {key[0]} dungeon")
            continue
        layout[f"layout[{key!r}]"] = [value[0]]
    each_once("dungeon card", layout, [*data.ab_cards, *data.floor99_cards], every=False)
    for dungeon in state.c_cards:
        one_of("c_cards dungeon", dungeon, DUNGEONS)
    each_once("C card", {f"c_cards[{d!r}]": [card] for d, card in state.c_cards.items()}, data.c_cards, every=False)
    each_once("D card", {"d_card": [state.d_card] if state.d_card is not None else []}, data.d_cards, every=False)
    each_once("grey card", {f"grey[{slot!r}]": [card] for slot, card in state.grey.items()}, data.grey_kinds, every=False)
    if state.floor99 is not None:
        one_of("floor99", state.floor99, DUNGEONS)
