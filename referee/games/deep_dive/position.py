"""What a DEEP DIVE position must satisfy beyond its shape: every tile in play in exactly one place, values in range."""

from __future__ import annotations

from referee.games.deep_dive.data import COLOURS, DEPTHS, FOOD, PENGUINS_PER_PLAYER, PREDATOR, ROCK
from referee.games.deep_dive.state import AFTER_FLIP, AI, AI_FLIP, AI_PICK, AT_DEPTH, CHOOSE_START, FLIP, OVER, RETREAT, START, DeepDiveState
from referee.position import PositionError
from referee.position_checks import each_once, in_range, one_of, seat, seats_long

PHASES = (CHOOSE_START, START, AT_DEPTH, FLIP, AFTER_FLIP, RETREAT, AI_FLIP, AI_PICK, OVER)


def _tile_name(state: DeepDiveState, tile: object) -> str:
    tiles = state.data.tiles
    return tiles[tile].id if isinstance(tile, int) and 0 <= tile < len(tiles) else repr(tile)


def check(state: DeepDiveState) -> None:
    """PositionError for a DEEP DIVE position that cannot happen: a tile missing, unknown or in two places, a tile
    in the wrong depth or column, face-down counts that do not match the unseen tiles, a seat or track out of range."""
    data, players = state.data, state.players
    setup = data.setups[players]
    one_of("phase", state.phase, PHASES)
    for name in ("columns", "rocks", "captured"):
        seats_long(name, getattr(state, name), players)
    for name in ("face_down", "unseen", "available", "inert"):
        seats_long(name, getattr(state, name), len(DEPTHS))  # one entry per depth
    places: dict[str, list[object]] = {}
    for index in range(len(DEPTHS)):
        for name in ("unseen", "available", "inert"):
            places[f"{name}[{index}]"] = list(getattr(state, name)[index])
    for player in range(players):
        seats_long(f"columns[{player}]", state.columns[player], len(COLOURS))
        for colour in range(len(COLOURS)):
            places[f"columns[{player}][{colour}]"] = list(state.columns[player][colour])
        places[f"rocks[{player}]"] = list(state.rocks[player])
    seats_long("ai_columns", state.ai_columns, len(COLOURS))
    for colour in range(len(COLOURS)):
        places[f"ai_columns[{colour}]"] = list(state.ai_columns[colour])
    places["ai_rocks"] = list(state.ai_rocks)
    places["ai_open_water"] = list(state.ai_open_water)
    places["discarded"] = list(state.discarded)
    places["flipped"] = [] if state.flipped is None else [state.flipped]
    in_play = [tile for depth in DEPTHS for tile in data.tiles_in_play(players, depth)]
    each_once("tile", places, in_play, lambda tile: f"{data.tiles[tile].id} ({tile})")
    tiles = data.tiles
    for index, depth in enumerate(DEPTHS):
        for name in ("unseen", "available", "inert"):
            for tile in getattr(state, name)[index]:
                if tiles[tile].depth != depth:
                    raise PositionError(f"position: {name}[{index}] holds {tiles[tile].id}, a depth {tiles[tile].depth} tile")
        in_range(f"face_down[{index}]", state.face_down[index], 0, setup.face_down_per_depth[index])
        hidden = state.face_down[index] + setup.removed_per_depth
        if len(state.unseen[index]) != hidden:
            raise PositionError(
                f"position: depth {depth} has {state.face_down[index]} face-down tiles and {setup.removed_per_depth} removed, "
                f"so {hidden} unseen, but unseen[{index}] lists {len(state.unseen[index])}"
            )
    for player in range(players):
        for colour, name in enumerate(COLOURS):
            for tile in state.columns[player][colour]:
                if tiles[tile].type != FOOD or tiles[tile].colour != name:
                    raise PositionError(f"position: columns[{player}][{colour}] holds {tiles[tile].describe()}, not {name} food")
        for tile in state.rocks[player]:
            if tiles[tile].type != ROCK:
                raise PositionError(f"position: rocks[{player}] holds {tiles[tile].describe()}, not a rock")
        captured = state.captured[player]
        if len(captured) > PENGUINS_PER_PLAYER:
            raise PositionError(f"position: seat {player} has {len(captured)} penguins captured, but only {PENGUINS_PER_PLAYER}")
        for tile in captured:
            known = isinstance(tile, int) and 0 <= tile < len(tiles)
            if not known or tiles[tile].type != PREDATOR or tile not in state.inert[tiles[tile].depth - 1]:
                raise PositionError(f"position: captured[{player}] names {_tile_name(state, tile)}, not a revealed predator")
            if state.penguin_on.get(tile) != player:
                raise PositionError(f"position: captured[{player}] names {tiles[tile].id}, but penguin_on does not put seat {player} there")
    if len(state.penguin_on) != sum(len(c) for c in state.captured):
        raise PositionError(f"position: penguin_on lists {len(state.penguin_on)} penguins, but captured lists {sum(len(c) for c in state.captured)}")
    for colour in range(len(COLOURS)):
        for tile in state.ai_columns[colour]:
            if tiles[tile].type != FOOD or tiles[tile].colour_index != colour:
                raise PositionError(f"position: ai_columns[{colour}] holds {tiles[tile].describe()}, not {COLOURS[colour]} food")
    if state.solo != (players == 1):
        raise PositionError(f"position: solo must be {players == 1} with {players} players")
    if state.removed_per_depth != setup.removed_per_depth:
        raise PositionError(f"position: removed_per_depth must be {setup.removed_per_depth} with {players} players, not {state.removed_per_depth}")
    seat("active", state.active, players, none=True, extra=(AI,) if state.solo else ())
    seat("start_player", state.start_player, players, none=True)
    in_range("depth", state.depth, 0, len(DEPTHS))
    in_range("ai_position", state.ai_position, 1, len(DEPTHS))
    in_range("round", state.round, 0, 10_000)
