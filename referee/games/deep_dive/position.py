"""What a DEEP DIVE position must satisfy beyond its shape: every tile in play in exactly one place, values in range,
the facts each phase implies; the options of the pending decision are the engine's (`DeepDiveState.options_at`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.deep_dive.data import COLOURS, DEPTHS, FOOD, PENGUINS_PER_PLAYER, PREDATOR, ROCK
from referee.games.deep_dive.state import (
    AFTER_FLIP,
    AI,
    AI_FLIP,
    AI_PICK,
    AT_DEPTH,
    CHANCE_PHASES,
    CHOOSE_START,
    FLIP,
    OVER,
    RETREAT,
    START,
    DeepDiveState,
)
from referee.position_checks import each_once, in_range, one_of, report, require, seat, seats_long

PHASES = (CHOOSE_START, START, AT_DEPTH, FLIP, AFTER_FLIP, RETREAT, AI_FLIP, AI_PICK, OVER)
#: A phase a position may name instead of the engine's: the start of `active`'s turn (the engine begins it).
TURN_START = "turn_start"
#: Phases at a depth: the diving penguin (or the AI) is at `depth` 1 to 5.
AT_A_DEPTH = (AT_DEPTH, FLIP, AFTER_FLIP, RETREAT, AI_FLIP, AI_PICK)
CONFIG_FIELDS = {"solo": "players", "difficulty": "ai_difficulty", "removed_per_depth": "players"}
#: The engine's own: the pending options and outcomes, and the change tokens (made afresh by `derive`).
DERIVED = ("_options", "_outcomes", "depth_tokens", "board_tokens", "ai_token", "discarded_token")
#: `unseen` may be left out: the tiles of each depth in play that are nowhere else.
FILLED = ("unseen",)


def _tile_name(state: DeepDiveState, tile: object) -> str:
    tiles = state.data.tiles
    return tiles[tile].id if isinstance(tile, int) and 0 <= tile < len(tiles) else repr(tile)


def fill(state: DeepDiveState, left_out: set[str], given: Mapping[str, Any]) -> None:
    """`unseen` when left out: per depth, its tiles in play that are not placed anywhere else."""
    if "unseen" not in left_out:
        return
    placed = {tile for name, items in _places(state, with_unseen=False).items() for tile in items}
    data = state.data
    state.unseen = [sorted(t for t in data.tiles_in_play(state.players, depth) if t not in placed) for depth in DEPTHS]


def derive(state: DeepDiveState) -> None:
    """The pending decision's options as the engine makes them; a turn's start named in the position begun."""
    state._outcomes = None
    state.renew_tokens()  # the parts were set from the position, not changed by the rules
    if state.phase == TURN_START:
        state.phase = CHOOSE_START  # a turn begins from between turns (the engine sets the phase it reaches)
        state.begin_turn(state.active)  # type: ignore[arg-type]  # checked: a seat (or the AI)
        return
    state._options = () if state.phase in CHANCE_PHASES or state.phase == OVER else state.options_at(state.phase)


def _places(state: DeepDiveState, *, with_unseen: bool = True) -> dict[str, list[object]]:
    places: dict[str, list[object]] = {}
    for index in range(len(DEPTHS)):
        for name in ("unseen", "available", "inert") if with_unseen else ("available", "inert"):
            places[f"{name}[{index}]"] = list(getattr(state, name)[index])
    for player in range(state.players):
        for colour in range(len(COLOURS)):
            places[f"columns[{player}][{colour}]"] = list(state.columns[player][colour])
        places[f"rocks[{player}]"] = list(state.rocks[player])
    for colour in range(len(COLOURS)):
        places[f"ai_columns[{colour}]"] = list(state.ai_columns[colour])
    places["ai_rocks"] = list(state.ai_rocks)
    places["ai_open_water"] = list(state.ai_open_water)
    places["discarded"] = list(state.discarded)
    places["flipped"] = [] if state.flipped is None else [state.flipped]
    return places


def check(state: DeepDiveState) -> None:
    """Report a DEEP DIVE position that cannot happen: a tile missing, unknown or in two places, a tile in the wrong
    depth or column, face-down counts that do not match the unseen tiles, a seat or track out of range, a phase
    without what it needs (a diver, a depth, a flipped tile)."""
    data, players = state.data, state.players
    setup = data.setups[players]
    one_of("phase", state.phase, (*PHASES, TURN_START))
    shaped = all([seats_long(name, getattr(state, name), players) for name in ("columns", "rocks", "captured")])
    shaped = all([seats_long(name, getattr(state, name), len(DEPTHS)) for name in ("face_down", "unseen", "available", "inert")]) and shaped
    shaped = all([seats_long(f"columns[{player}]", state.columns[player], len(COLOURS)) for player in range(players)]) and shaped
    shaped = seats_long("ai_columns", state.ai_columns, len(COLOURS)) and shaped
    if not shaped:
        return
    in_play = [tile for depth in DEPTHS for tile in data.tiles_in_play(players, depth)]
    if not each_once("tile", _places(state), in_play, lambda tile: f"{data.tiles[tile].id} ({tile})"):
        return
    tiles = data.tiles
    for index, depth in enumerate(DEPTHS):
        for name in ("unseen", "available", "inert"):
            for tile in getattr(state, name)[index]:
                if tiles[tile].depth != depth:
                    report(f"{name}[{index}]", "a depth holds its own tiles", f"{name}[{index}] holds {tiles[tile].id}, a depth {tiles[tile].depth} tile")
        if in_range(f"face_down[{index}]", state.face_down[index], 0, setup.face_down_per_depth[index]):
            hidden = state.face_down[index] + setup.removed_per_depth
            require(
                len(state.unseen[index]) == hidden,
                f"unseen[{index}]",
                "face-down and removed tiles are unseen",
                f"depth {depth} has {state.face_down[index]} face-down tiles and {setup.removed_per_depth} removed, "
                f"so {hidden} unseen, but unseen[{index}] lists {len(state.unseen[index])}",
            )
    for player in range(players):
        for colour, name in enumerate(COLOURS):
            for tile in state.columns[player][colour]:
                if tiles[tile].type != FOOD or tiles[tile].colour != name:
                    report(f"columns[{player}][{colour}]", "a column holds its colour's food", f"columns[{player}][{colour}] holds {tiles[tile].describe()}, not {name} food")
        for tile in state.rocks[player]:
            if tiles[tile].type != ROCK:
                report(f"rocks[{player}]", "rocks only", f"rocks[{player}] holds {tiles[tile].describe()}, not a rock")
        captured = state.captured[player]
        require(
            len(captured) <= PENGUINS_PER_PLAYER,
            f"captured[{player}]",
            f"at most {PENGUINS_PER_PLAYER} penguins",
            f"seat {player} has {len(captured)} penguins captured, but only {PENGUINS_PER_PLAYER}",
        )
        for tile in captured:
            known = isinstance(tile, int) and 0 <= tile < len(tiles)
            if not known or tiles[tile].type != PREDATOR or tile not in state.inert[tiles[tile].depth - 1]:
                report(f"captured[{player}]", "on a revealed predator", f"captured[{player}] names {_tile_name(state, tile)}, not a revealed predator")
            elif state.penguin_on.get(tile) != player:
                report("penguin_on", "agrees with captured", f"captured[{player}] names {tiles[tile].id}, but penguin_on does not put seat {player} there")
    penguins = sum(len(c) for c in state.captured)
    require(len(state.penguin_on) == penguins, "penguin_on", "agrees with captured", f"penguin_on lists {len(state.penguin_on)} penguins, but captured lists {penguins}")
    for colour in range(len(COLOURS)):
        for tile in state.ai_columns[colour]:
            if tiles[tile].type != FOOD or tiles[tile].colour_index != colour:
                report(f"ai_columns[{colour}]", "a column holds its colour's food", f"ai_columns[{colour}] holds {tiles[tile].describe()}, not {COLOURS[colour]} food")
    if not state.solo:
        for name in ("ai_rocks", "ai_open_water"):
            require(not getattr(state, name), name, "the AI plays solo only", f"{name} holds tiles, but only a solo game has the AI")
        require(not any(state.ai_columns), "ai_columns", "the AI plays solo only", "ai_columns holds tiles, but only a solo game has the AI")
    seat("active", state.active, players, none=True, extra=(AI,) if state.solo else ())
    seat("start_player", state.start_player, players, none=True)
    in_range("depth", state.depth, 0, len(DEPTHS))
    in_range("ai_position", state.ai_position, 1, len(DEPTHS))
    in_range("round", state.round, 0, 10_000)
    _check_phase(state)


def _check_phase(state: DeepDiveState) -> None:
    """What the pending phase needs: a start player once begun, a diver and a depth at a depth, a flipped tile."""
    phase = state.phase
    if phase == CHOOSE_START:
        require(state.start_player is None and state.round == 0, "start_player", "no start player before the draw", "phase choose_start_player, but the start player is chosen")
        return
    require(state.start_player is not None, "start_player", "a start player once begun", f"phase {phase} needs a start player")
    if phase == OVER:
        return
    require(state.active is not None, "active", "a seat's turn", f"phase {phase} needs an active seat")
    ai_phase = phase in (AI_FLIP, AI_PICK)
    if state.active is not None and phase != TURN_START:
        require((state.active == AI) == ai_phase, "active", "the AI acts in its phases", f"phase {phase} with active {state.active}")
    if phase in AT_A_DEPTH:
        require(isinstance(state.depth, int) and state.depth >= 1, "depth", "a depth in its phases", f"phase {phase} needs a depth from 1 to 5, not {state.depth}")
    require((state.flipped is not None) == (phase == AFTER_FLIP), "flipped", "a flipped tile after a flip only", f"phase {phase} with flipped {state.flipped}")
    if phase == START and isinstance(state.active, int) and state.active >= 0:
        require(bool(state.rocks[state.active]), "rocks", "a rock to swallow", f"phase start, but seat {state.active} has no rock")
    if phase == TURN_START:
        require(state.depth == 0, "depth", "a turn starts at the surface", f"a turn starts at depth 0, not {state.depth}")
