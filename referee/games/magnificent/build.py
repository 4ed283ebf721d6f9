"""The Magnificent: build (spec §4.4): level, then each tile by type, anchor and orientation, with camp bonus squares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import Option
from referee.games.magnificent import options as opt
from referee.games.magnificent.data import TILE_TYPES, Bonus

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState, Step


def _build_colour(state: MagnificentState) -> str:
    turn = state.turn
    assert turn is not None
    return turn.build_colour or turn.acting


def build_levels(state: MagnificentState) -> list[int]:
    colour = _build_colour(state)
    power = state._power()
    small, large = state.supply[colour + "s"], state.supply[colour + "l"]
    levels = []
    for level, tiles in state.c.build_levels:
        if level <= power and tiles.count("small") <= small and tiles.count("large") <= large:
            levels.append(level)
    return levels


def step_build(state: MagnificentState) -> None:
    assert state.turn is not None
    if build_levels(state):
        state._ask("BD1", state.turn.seat)
    else:
        state.emit("nothing_built", seat=state.turn.seat)


def options_bd1(state: MagnificentState, seat: int) -> list[Option]:
    tiles = dict(state.c.build_levels)
    return [opt.level(level, " + ".join(tiles[level])) for level in build_levels(state)]


def apply_bd1(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    level = option.payload["level"]
    colour = _build_colour(state)
    pending = [colour + ("s" if size == "small" else "l") for size in dict(state.c.build_levels)[level]]
    for _ in range(turn.extra_small):
        if state.supply[colour + "s"] > pending.count(colour + "s"):
            pending.append(colour + "s")
    for tile in pending:
        state.supply[tile] -= 1
    turn.pending_tiles = sorted(pending, key=TILE_TYPES.index)
    state.supply_token = state.turn_token = object()
    state.emit("tiles_taken", seat=seat, level=level, tiles=list(turn.pending_tiles))
    state._schedule(("build_tile",))


def legal_placements(state: MagnificentState, seat: int, tile_type: str) -> list[Any]:
    camp = state.players_state[seat].camp
    placements = state.c.tile_types[tile_type].placements
    if camp == 0:
        return list(placements)
    return [p for p in placements if not p.mask & camp and p.neighbours & camp]


def has_placement(state: MagnificentState, camp: int, tile_type: str) -> bool:
    if camp == 0:
        return True
    for p in state.c.tile_types[tile_type].placements:
        if not p.mask & camp and p.neighbours & camp:
            return True
    return False


def placeable_types(state: MagnificentState, seat: int) -> list[str]:
    turn = state.turn
    assert turn is not None
    camp = state.players_state[seat].camp
    return [t for t in TILE_TYPES if t in turn.pending_tiles and has_placement(state, camp, t)]


def step_build_tile(state: MagnificentState) -> None:
    turn = state.turn
    assert turn is not None
    if not turn.pending_tiles:
        return
    if placeable_types(state, turn.seat):
        state._ask("BD2", turn.seat)
        return
    for tile in turn.pending_tiles:
        state.supply[tile] += 1
    state.emit("tiles_returned", seat=turn.seat, tiles=list(turn.pending_tiles))
    turn.pending_tiles = []
    state.supply_token = state.turn_token = object()


def options_bd2(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.tile(t) for t in placeable_types(state, seat)]


def apply_bd2(state: MagnificentState, seat: int, option: Option) -> None:
    assert state.turn is not None
    state.turn.tile = option.payload["tile_type"]
    state.turn_token = object()
    state._ask("BD3", seat)


def options_bd3(state: MagnificentState, seat: int) -> list[Option]:
    assert state.turn is not None
    anchors: list[tuple[int, int]] = []
    for p in legal_placements(state, seat, state.turn.tile):
        if not anchors or anchors[-1] != (p.x, p.y):
            anchors.append((p.x, p.y))
    return [opt.cell(x, y) for x, y in anchors]


def apply_bd3(state: MagnificentState, seat: int, option: Option) -> None:
    assert state.turn is not None
    state.turn.anchor = (option.payload["x"], option.payload["y"])
    state.turn_token = object()
    state._ask("BD4", seat)


def placements_at_anchor(state: MagnificentState, seat: int) -> list[Any]:
    turn = state.turn
    assert turn is not None
    camp = state.players_state[seat].camp
    found = state.c.tile_types[turn.tile].by_anchor.get(turn.anchor, ())
    return [p for p in found if not p.mask & camp and (camp == 0 or p.neighbours & camp)]


def options_bd4(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.orient(p.k, p.cells) for p in placements_at_anchor(state, seat)]


def apply_bd4(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    k = option.payload["orientation"]
    placement = next(p for p in placements_at_anchor(state, seat) if p.k == k)
    player = state.players_state[seat]
    player.camp |= placement.mask
    player.tiles.append((turn.tile, k, placement.x, placement.y))
    turn.pending_tiles.remove(turn.tile)
    state.turn_token = state.player_tokens[seat] = object()
    state.emit(
        "tile_placed",
        seat=seat,
        tile_type=turn.tile,
        orientation=k,
        x=placement.x,
        y=placement.y,
        cells=[{"x": x, "y": y} for x, y in placement.cells],
    )
    board = state.c.boards[player.board]
    steps: list[Step] = []
    for index, bonus in board.bonus_squares.items():
        if placement.mask >> index & 1:
            steps.append(("bonus", seat, bonus, f"square:{index % 8},{index // 8}"))
    steps.append(("build_tile",))
    state._schedule(*steps)


def step_bonus(state: MagnificentState, seat: int, bonus: Bonus, reason: str) -> None:
    state._gain_bonus(seat, bonus, reason)
