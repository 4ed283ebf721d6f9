"""The Magnificent: build (spec §4.4): level, then each tile by type, anchor and orientation, with camp bonus squares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import Option
from referee.games.magnificent import options as opt
from referee.games.magnificent.data import TILE_TYPES, Bonus

if TYPE_CHECKING:
    from referee.games.magnificent.state import Step


class BuildMixin:
    """Build (spec §4.4) steps, options and applications, mixed into the game state."""

    def _build_colour(self) -> str:
        turn = self.turn
        assert turn is not None
        return turn.build_colour or turn.acting

    def _build_levels(self) -> list[int]:
        colour = self._build_colour()
        power = self._power()
        small, large = self.supply[colour + "s"], self.supply[colour + "l"]
        levels = []
        for level, tiles in self.c.build_levels:
            if level <= power and tiles.count("small") <= small and tiles.count("large") <= large:
                levels.append(level)
        return levels

    def _step_build(self) -> None:
        assert self.turn is not None
        if self._build_levels():
            self._ask("BD1", self.turn.seat)
        else:
            self.emit("nothing_built", seat=self.turn.seat)

    def _options_bd1(self, seat: int) -> list[Option]:
        tiles = dict(self.c.build_levels)
        return [opt.level(level, " + ".join(tiles[level])) for level in self._build_levels()]

    def _apply_bd1(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        level = option.payload["level"]
        colour = self._build_colour()
        pending = [colour + ("s" if size == "small" else "l") for size in dict(self.c.build_levels)[level]]
        for _ in range(turn.extra_small):
            if self.supply[colour + "s"] > pending.count(colour + "s"):
                pending.append(colour + "s")
        for tile in pending:
            self.supply[tile] -= 1
        turn.pending_tiles = sorted(pending, key=TILE_TYPES.index)
        self.emit("tiles_taken", seat=seat, level=level, tiles=list(turn.pending_tiles))
        self._schedule(("build_tile",))

    def _legal_placements(self, seat: int, tile_type: str) -> list[Any]:
        camp = self.players_state[seat].camp
        placements = self.c.tile_types[tile_type].placements
        if camp == 0:
            return list(placements)
        return [p for p in placements if not p.mask & camp and p.neighbours & camp]

    def _has_placement(self, camp: int, tile_type: str) -> bool:
        if camp == 0:
            return True
        for p in self.c.tile_types[tile_type].placements:
            if not p.mask & camp and p.neighbours & camp:
                return True
        return False

    def _placeable_types(self, seat: int) -> list[str]:
        turn = self.turn
        assert turn is not None
        camp = self.players_state[seat].camp
        return [t for t in TILE_TYPES if t in turn.pending_tiles and self._has_placement(camp, t)]

    def _step_build_tile(self) -> None:
        turn = self.turn
        assert turn is not None
        if not turn.pending_tiles:
            return
        if self._placeable_types(turn.seat):
            self._ask("BD2", turn.seat)
            return
        for tile in turn.pending_tiles:
            self.supply[tile] += 1
        self.emit("tiles_returned", seat=turn.seat, tiles=list(turn.pending_tiles))
        turn.pending_tiles = []

    def _options_bd2(self, seat: int) -> list[Option]:
        return [opt.tile(t) for t in self._placeable_types(seat)]

    def _apply_bd2(self, seat: int, option: Option) -> None:
        assert self.turn is not None
        self.turn.tile = option.payload["tile_type"]
        self._ask("BD3", seat)

    def _options_bd3(self, seat: int) -> list[Option]:
        assert self.turn is not None
        anchors: list[tuple[int, int]] = []
        for p in self._legal_placements(seat, self.turn.tile):
            if not anchors or anchors[-1] != (p.x, p.y):
                anchors.append((p.x, p.y))
        return [opt.cell(x, y) for x, y in anchors]

    def _apply_bd3(self, seat: int, option: Option) -> None:
        assert self.turn is not None
        self.turn.anchor = (option.payload["x"], option.payload["y"])
        self._ask("BD4", seat)

    def _placements_at_anchor(self, seat: int) -> list[Any]:
        turn = self.turn
        assert turn is not None
        camp = self.players_state[seat].camp
        found = self.c.tile_types[turn.tile].by_anchor.get(turn.anchor, ())
        return [p for p in found if not p.mask & camp and (camp == 0 or p.neighbours & camp)]

    def _options_bd4(self, seat: int) -> list[Option]:
        return [opt.orient(p.k, p.cells) for p in self._placements_at_anchor(seat)]

    def _apply_bd4(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        k = option.payload["orientation"]
        placement = next(p for p in self._placements_at_anchor(seat) if p.k == k)
        player = self.players_state[seat]
        player.camp |= placement.mask
        player.tiles.append((turn.tile, k, placement.x, placement.y))
        turn.pending_tiles.remove(turn.tile)
        self.emit(
            "tile_placed",
            seat=seat,
            tile_type=turn.tile,
            orientation=k,
            x=placement.x,
            y=placement.y,
            cells=[{"x": x, "y": y} for x, y in placement.cells],
        )
        board = self.c.boards[player.board]
        steps: list[Step] = []
        for index, bonus in board.bonus_squares.items():
            if placement.mask >> index & 1:
                steps.append(("bonus", seat, bonus, f"square:{index % 8},{index // 8}"))
        steps.append(("build_tile",))
        self._schedule(*steps)

    def _step_bonus(self, seat: int, bonus: Bonus, reason: str) -> None:
        self._gain_bonus(seat, bonus, reason)
