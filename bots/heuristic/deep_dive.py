"""DEEP DIVE heuristic bot: push-your-luck odds from the unrevealed tiles and row (set) completion.

Each choice is valued as the expected gain of the rest of this dive. A tile's gain is how much it
raises a row potential (complete rows at full value, incomplete rows at half value plus a share of
what completing them would add, a share that shrinks as the end nears). The value of arriving at a
depth is the best of taking a face-up tile there, skipping on, or flipping, a flip being the
average over every unrevealed tile of that depth (each equally likely: face-down and removed
tiles cannot be told apart) of the best follow-up. Only the request is used, plus the public tile data.

Solo (and only solo: games with players are played exactly as above) the same valuation is turned
against the referee-run AI (bots/heuristic/_deep_dive_ai.py). A rock is not kept before the end
is triggered (a kept rock is a food tile not taken, and deep starts did not make up for it), and
incomplete rows count at a larger share (0.55 against 0.45) until then, so rows are begun; every
flip is worth TEMPO more, because each one brings the end nearer and the AI gains more a round than
the diver; food left face-up where the AI will flip within its next turns counts against an option
by the AI's chance of a predator there times what it would pick (so taking that food gains it);
and in the final round every value is the chance of finishing at least level with the AI after
its last flip, computed over the tiles it may flip, so the bot dives for a win rather than take a
sure loss, and takes a sure win rather than gamble on more points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache, reduce
from operator import add
from typing import Any

from bots.heuristic import OptionLike
from bots.heuristic._deep_dive_ai import SoloAI, player_score, win_chance
from referee.games.deep_dive.data import COLOURS, FOOD, OPEN_WATER, PREDATOR, ROCK, Tile, load_data
from referee.games.deep_dive.scoring import ai_score
from sdk import Bot, Request

NO_OPTION = float("-inf")
CAPTURE_COST = 0.3  # a lost penguin this turn; its skip right later is worth a little, the lost turn more
ROCK_VALUE = 2.0  # a later dive started deep
# Solo only (measured against the medium AI, docs/bots.md):
SOLO_ROCK_VALUE = 0.0  # a rock kept is a food tile not taken; deep starts did not make up for it
SOLO_ROCK_USE = 1.0  # what swallowing a rock must gain over starting at depth 1
TEMPO = 0.6  # added to every flip: the AI gains more a round than the diver, so a shorter game pays
AI_VISIT_DECAY = 0.7  # weight of the AI's flip k turns ahead: 0.7 ** k (the food may be gone by then)
SOLO_SHARE = 0.55  # the share of incomplete rows before the trigger (0.45 with players): rows are worth building


#: What tells tiles of one depth apart for every valuation here: (type, colour, value). Tiles of one kind are worth the same.
TileKind = tuple[str, str | None, int]


@cache
def tile_kinds() -> dict[str, TileKind]:
    """Each tile id's kind, so that a position values one kind once however many of its tiles lie unseen."""
    return {t.id: (t.type, t.colour, t.value) for t in load_data().tiles}


PREDATOR_KIND: TileKind = (PREDATOR, None, 0)


@lru_cache(maxsize=1 << 16)
def _potential(columns: tuple[tuple[int, ...], ...], share: float) -> float:
    """Complete rows at full value, incomplete ones at half plus `share` of the rest (cached: searches repeat them)."""
    total = 0.0
    for row in range(max(len(c) for c in columns)):
        values = [c[row] for c in columns if len(c) > row]
        row_sum = sum(values)
        if len(values) == 3:
            total += row_sum
        else:
            total += row_sum // 2 + share * (row_sum - row_sum // 2) * len(values) / 3
    return total


@lru_cache(maxsize=1 << 12)
def _gains(columns: tuple[tuple[int, ...], ...], share: float, rock_value: float) -> dict[TileKind, float]:
    """What each kind of tile is worth to this tableau at this stage, filled in as positions ask (shared by positions:
    the tableau changes only when its player takes a tile)."""
    return {}


class _Position:
    """What the bot reads from a view: its columns, captures, and the depths' face-up and unrevealed tiles."""

    def __init__(self, view: Mapping[str, Any], seat: int, tiles: Mapping[str, Tile]) -> None:
        self.tiles = tiles
        self.kinds = tile_kinds()
        board = view["boards"][seat]
        self.columns = [[t["value"] for t in board.get(colour, [])] for colour in COLOURS]
        self.captured_depths = set(board.get("captured_depths", []))
        self.captures = len(board.get("captured_depths", []))
        self.end_triggered = bool(view.get("end_triggered"))
        self.final_round = bool(view.get("final_round"))
        self.depths = {d["depth"]: d for d in view["depths"]}
        self.capture_cost = CAPTURE_COST
        self.share, self.rock_value, self.rock_use = self.stage_values()
        tableau = tuple(tuple(column) for column in self.columns)
        self._now = _potential(tableau, self.share)
        self._gain_cache = _gains(tableau, self.share, self.rock_value)
        self._arrive_cache: dict[int, float] = {}

    def potential(self, columns: Sequence[Sequence[int]]) -> float:
        return _potential(tuple(tuple(column) for column in columns), self.share)

    def gain(self, tile_id: str) -> float:
        """What holding this tile is worth now (the same for tiles of one kind)."""
        kind = self.kinds[tile_id]
        value = self._gain_cache.get(kind)
        if value is None:
            value = self._gain_cache[kind] = self.tile_gain(self.tiles[tile_id])
        return value

    def tile_gain(self, tile: Tile) -> float:
        """What holding `tile` is worth now."""
        if tile.type == FOOD:
            columns = [list(c) for c in self.columns]
            columns[tile.colour_index].append(tile.value)
            return self.potential(columns) - self._now
        if tile.type == ROCK:
            return self.rock_value
        return NO_OPTION

    def stage_values(self) -> tuple[float, float, float]:
        """(share of incomplete rows, value of a held rock, what swallowing one gives up) as the end nears."""
        if self.final_round:
            return 0.0, 0.0, 0.0
        if self.end_triggered:
            return 0.2, 0.5, 0.5
        return 0.45, ROCK_VALUE, ROCK_VALUE

    def take_gain(self, tile_id: str) -> float:
        """What taking this face-up tile is worth now (its gain, with players)."""
        return self.gain(tile_id)

    def leave_cost(self, tile_id: str) -> float:
        """What leaving this just-flipped tile face-up costs (nothing, with players)."""
        return 0.0

    def best_take(self, depths: Sequence[int]) -> float:
        gains = [self.take_gain(t["id"]) for d in depths for t in self.depths[d]["available"]]
        return max(gains, default=NO_OPTION)

    def can_skip(self, depth: int) -> bool:
        exhausted = self.depths[depth]["face_down"] == 0
        return depth <= 4 and (depth in self.captured_depths or (self.end_triggered and exhausted))

    def flip_value(self, depth: int) -> float:
        """Expected value of flipping at `depth` and playing on well."""
        unseen = self.depths[depth]["unseen"]
        if self.depths[depth]["face_down"] == 0 or not unseen:
            return NO_OPTION
        deeper = self.arrive(depth + 1) if depth < 5 else NO_OPTION
        kinds = list(map(self.kinds.__getitem__, unseen))
        outcomes = {kind: self.flip_outcome(tile_id, depth, deeper) for kind, tile_id in dict(zip(kinds, unseen)).items()}
        # added one by one in the order of `unseen`, from 0.0, as a loop would: another order can round differently
        return reduce(add, map(outcomes.__getitem__, kinds), 0.0) / len(unseen)

    def flip_outcome(self, tile_id: str, depth: int, deeper: float) -> float:
        """What flipping this tile at `depth` brings, `deeper` being the value of arriving one depth further."""
        kind = self.tiles[tile_id].type
        if kind == PREDATOR:
            if self.captures == 2:
                return max(self.best_take(sorted(self.captured_depths | {depth})), 0.0)
            return -self.capture_cost
        if kind == OPEN_WATER:
            return max(deeper, 0.0)
        return max(self.gain(tile_id), deeper - self.leave_cost(tile_id))

    def arrive(self, depth: int) -> float:
        """Expected value of the diving penguin reaching `depth` (0 = surfacing empty)."""
        if depth not in self._arrive_cache:
            best = max(
                self.best_take([depth]),
                self.flip_value(depth),
                self.arrive(depth + 1) if self.can_skip(depth) else NO_OPTION,
            )
            self._arrive_cache[depth] = 0.0 if best == NO_OPTION else best
        return self._arrive_cache[depth]


class _SoloPosition(_Position):
    """The dive valuation against the solo AI: rocks not kept, flips favoured, the AI's picks denied, the last round won.

    See the module docstring, last paragraph; every constant was chosen by solo games against the medium AI.
    """

    def __init__(self, view: Mapping[str, Any], seat: int, tiles: Mapping[str, Tile]) -> None:
        super().__init__(view, seat, tiles)
        self.ai = SoloAI.from_view(view)
        self.face_down = [self.depths[d]["face_down"] for d in range(1, 6)]
        # the AI's next flips: all of them once the end is near, else five turns, each later one less likely to matter
        turns = 1 if self.final_round else 2 if self.end_triggered else 5
        self.weights: dict[int, float] = {}
        for ahead, depth in enumerate(self.ai.next_depths(self.face_down, turns)):
            if depth and depth not in self.weights:
                self.weights[depth] = 1.0 if self.end_triggered else AI_VISIT_DECAY**ahead
        #: the weight of each depth the AI will flip at times its chance of a predator there
        self.predator_odds: dict[int, float] = {}
        for depth, weight in self.weights.items():
            unseen = self.depths[depth]["unseen"]
            if unseen:
                predators = list(map(self.kinds.__getitem__, unseen)).count(PREDATOR_KIND)
                self.predator_odds[depth] = weight * predators / len(unseen)
        self._threats: dict[tuple[int, tuple[str, ...]], float] = {}
        self._face_up: dict[int, list[Tile]] = {}
        self._take_gains: dict[tuple[int, TileKind], float] = {}
        self._threats_now: dict[int, float] = {}
        self._leave_costs: dict[int, dict[TileKind, float]] = {}
        self.last_round = self.final_round
        if self.last_round:
            # values become changes in the chance of finishing at least level with the AI after its last flip
            self._gain_cache = {}
            self.capture_cost = 0.0
            self.ai_depth = self.ai.next_depths(self.face_down, 1)[0]
            self.ai_unseen = [tiles[t] for t in self.depths[self.ai_depth]["unseen"]] if self.ai_depth else []
            self.mine = player_score(self.columns)
            self._base_win = self._win(self.mine, self._available(self.ai_depth))
            self.predator_odds = {self.ai_depth: 1.0} if self.ai_depth else {}

    def _available(self, depth: int) -> list[Tile]:
        """The face-up tiles at `depth` (none for depth 0)."""
        if depth not in self._face_up:
            self._face_up[depth] = [self.tiles[t["id"]] for t in self.depths[depth]["available"]] if depth else []
        return self._face_up[depth]

    def _win(self, mine: tuple[int, int], available: Sequence[Tile]) -> float:
        """The chance of a result at least level with the AI's after its last flip."""
        return win_chance(mine, self.ai, self.ai_depth, self.ai_unseen, available)

    def stage_values(self) -> tuple[float, float, float]:
        """Before the trigger: rows at SOLO_SHARE, no rock kept, a rock swallowed only for SOLO_ROCK_USE more."""
        if not self.end_triggered:
            return SOLO_SHARE, SOLO_ROCK_VALUE, SOLO_ROCK_USE
        return super().stage_values()

    def tile_gain(self, tile: Tile) -> float:
        """As with players, but in the last round the change in the chance of not losing."""
        if not self.last_round:
            return super().tile_gain(tile)
        if tile.type == FOOD:
            columns = [list(c) for c in self.columns]
            columns[tile.colour_index].append(tile.value)
            return self._win(player_score(columns), self._available(self.ai_depth)) - self._base_win
        if tile.type == ROCK:
            return 0.0
        return NO_OPTION

    def flip_value(self, depth: int) -> float:
        """As with players, plus TEMPO before the last round: each flip brings the end nearer."""
        value = super().flip_value(depth)
        if value == NO_OPTION or self.last_round:
            return value
        return value + TEMPO

    def threat(self, depth: int, available: Sequence[Tile]) -> float:
        """What this face-up food at `depth` is expected to bring the AI (in the last round: minus our chance)."""
        if depth not in self.predator_odds:
            return 0.0
        if not self.last_round:
            return self.predator_odds[depth] * self.ai.pick_gain(available)
        key = (depth, tuple(sorted(t.id for t in available if t.type == FOOD)))
        if key not in self._threats:
            self._threats[key] = -self._win(self.mine, available)
        return self._threats[key]

    def threat_now(self, depth: int) -> float:
        """The threat of the food face-up at `depth` now."""
        if depth not in self._threats_now:
            self._threats_now[depth] = self.threat(depth, self._available(depth))
        return self._threats_now[depth]

    def take_gain(self, tile_id: str) -> float:
        """Its gain plus what taking it keeps from the AI (the same for face-up tiles of one kind)."""
        tile = self.tiles[tile_id]
        kind = (tile.depth, self.kinds[tile_id])
        value = self._take_gains.get(kind)
        if value is None:
            here = self._available(tile.depth)
            rest = [t for t in here if t.id != tile_id]
            value = self._take_gains[kind] = self.gain(tile_id) + self.threat_now(tile.depth) - self.threat(tile.depth, rest)
        return value

    def leave_cost(self, tile_id: str) -> float:
        """What leaving it face-up for the AI costs (the same for tiles of one kind)."""
        tile = self.tiles[tile_id]
        costs = self._leave_costs.get(tile.depth)
        if costs is None:
            costs = self._leave_costs_at(tile.depth)
        kind = self.kinds[tile_id]
        value = costs.get(kind)
        if value is None:
            value = costs[kind] = self.threat(tile.depth, [*self._available(tile.depth), tile]) - self.threat_now(tile.depth)
        return value

    def _leave_costs_at(self, depth: int) -> dict[TileKind, float]:
        """The leave costs of `depth` by kind of tile: before the last round they depend only on the AI, the depth,
        its predator odds and face-up tiles, so the AI keeps them for every decision with the same."""
        if self.last_round:
            costs: dict[TileKind, float] = {}
        else:
            here = tuple(self.kinds[t.id] for t in self._available(depth))
            costs = self.ai.table(("leave_costs", depth, self.predator_odds.get(depth), here))
        self._leave_costs[depth] = costs
        return costs


class HeuristicBot(Bot):
    """Maximises the expected gain of each dive; see the module docstring."""

    name = "deep_dive_heuristic"

    def __init__(self) -> None:
        self.tiles = load_data().by_id

    def choose(self, request: Request) -> str:
        return self.decide(request.view, request.seat, request.options)

    def decide(self, view: Mapping[str, Any], seat: int, options: Sequence[OptionLike]) -> str:
        """The option id for `seat` in `view` among `options` (a request's, or an engine's inside a search)."""
        position = (_SoloPosition if view.get("solo") else _Position)(view, seat, self.tiles)
        depth = int(view.get("current_depth", 0))
        scores: dict[str, float] = {}
        for option in options:
            payload = option.payload
            action = payload.get("action")
            if action == "dive":
                scores[option.id] = position.arrive(1)
            elif action == "rock":
                scores[option.id] = position.arrive(int(payload["depth"])) - position.rock_use
            elif action in ("take", "retreat_take"):
                scores[option.id] = position.take_gain(payload["tile"])
            elif action == "flip":
                scores[option.id] = position.flip_value(depth)
            elif action == "skip":
                scores[option.id] = position.arrive(depth + 1)
            elif action == "keep":
                scores[option.id] = position.gain(view["just_flipped"]["id"])
            elif action == "dive_on":
                scores[option.id] = position.arrive(depth + 1) - position.leave_cost(view["just_flipped"]["id"])
            elif action == "ai_give":
                # tied colours land in the same AI row, so the AI gains alike; keep what we want most
                scores[option.id] = -self._ai_gain(view, payload["tile"]) - position.gain(payload["tile"])
            else:
                scores[option.id] = 0.0
        return max(options, key=lambda o: scores[o.id]).id

    def _ai_gain(self, view: Mapping[str, Any], tile_id: str) -> float:
        """How much the solo AI's score rises if it takes this tile."""
        ai = view["ai"]
        difficulty = view.get("ai_difficulty", "medium")
        columns = [[t["value"] for t in ai.get(colour, [])] for colour in COLOURS]
        rocks, water = len(ai.get("rocks", [])), len(ai.get("open_water", []))
        before = ai_score(columns, rocks, water, difficulty)
        tile = self.tiles[tile_id]
        columns[tile.colour_index].append(tile.value)
        return ai_score(columns, rocks, water, difficulty) - before
