"""DEEP DIVE game state and rules (spec sections 3, 4 and 6).

Flips are chance nodes over the tiles of that depth not yet revealed (face-down or removed at
setup): with a uniformly shuffled depth whose first k tiles are removed unseen, the next
face-down tile is uniform over every unrevealed tile, so removals never need to be dealt.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Self

from referee.engine import ChanceOutcome, Game, GameConfig, GameResult, GameState, Option, Seat
from referee.errors import GameOverError, RuleError
from referee.games.deep_dive import options as opt
from referee.games.deep_dive.data import FOOD, OPEN_WATER, PENGUINS_PER_PLAYER, PREDATOR, ROCK, DeepDiveData
from referee.games.deep_dive.scoring import ai_score, complete_rows, row_score
from referee.ranking import competition_ranks

if TYPE_CHECKING:
    from referee.games.deep_dive.game import DeepDiveGame

AI = -1  # `active` during the solo AI's turn (the AI is not a seat)

# Node kinds: decisions and chance nodes.
CHOOSE_START = "choose_start_player"  # chance
START = "start"
AT_DEPTH = "at_depth"
FLIP = "flip"  # chance: the active player's flip
AFTER_FLIP = "after_flip"
RETREAT = "retreat"
AI_FLIP = "ai_flip"  # chance: the AI's flip
AI_PICK = "ai_pick"
OVER = "game_over"
CHANCE_PHASES = frozenset((CHOOSE_START, FLIP, AI_FLIP))


@cache
def _start_outcomes(players: int) -> tuple[ChanceOutcome, ...]:
    return tuple(ChanceOutcome(f"start:{seat}", 1.0 / players, f"seat {seat} starts") for seat in range(players))


class DeepDiveState(GameState):
    """One game of DEEP DIVE. Depth d's data sits at list index d - 1; tiles are indices into the data table."""

    game: DeepDiveGame

    def __init__(self, game: Game, config: GameConfig, data: DeepDiveData, tile_options: opt.TileOptions) -> None:
        super().__init__(game, config)
        self.data = data
        self.tile_options = tile_options
        players = config.players
        self.solo = players == 1
        self.difficulty: str = str(config.variants.get("ai_difficulty", "medium"))
        setup = data.setups[players]
        self.removed_per_depth = setup.removed_per_depth
        self.face_down: list[int] = list(setup.face_down_per_depth)
        self.unseen: list[list[int]] = [list(data.tiles_in_play(players, d)) for d in range(1, 6)]
        self.available: list[list[int]] = [[] for _ in range(5)]
        self.inert: list[list[int]] = [[] for _ in range(5)]
        self.penguin_on: dict[int, Seat] = {}
        self.columns: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
        self.rocks: list[list[int]] = [[] for _ in range(players)]
        self.captured: list[list[int]] = [[] for _ in range(players)]
        self.ai_columns: list[list[int]] = [[], [], []]
        self.ai_rocks: list[int] = []
        self.ai_open_water: list[int] = []
        self.ai_position = 1
        self.discarded: list[int] = []
        #: What changed: a fresh token replaces a part's wherever that part changes (each depth: its face-down count and
        #: tiles, the penguins on them; each seat's columns, rocks and captured penguins; the AI's tiles; the discarded
        #: rocks), copied by clone, so views and observations find a part they wrote before by its token alone.
        self.renew_tokens()
        self.start_player: Seat | None = None
        self.last_dive = False
        self.end_triggered = False
        self.final_round = False
        self.active: Seat | None = None
        self.phase = CHOOSE_START
        self.depth = 0
        self.flipped: int | None = None
        self.round = 0
        self._options: tuple[Option, ...] = ()
        self._outcomes: tuple[ChanceOutcome, ...] | None = None
        if self.solo:
            self._set_up(0)

    # ----- the engine contract -----------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        if self._outcomes is None:
            if self.phase == CHOOSE_START:
                self._outcomes = _start_outcomes(self.players)
            elif self.phase in (FLIP, AI_FLIP):
                pool = self.unseen[self.depth - 1]
                by_tile = self.data.draw_outcomes(len(pool))
                self._outcomes = tuple(map(by_tile.__getitem__, pool))
            else:
                self._outcomes = ()
        return self._outcomes

    def deciding_seats(self) -> tuple[Seat, ...]:
        if self.phase in CHANCE_PHASES or self.phase == OVER:
            return ()
        if self.phase == AI_PICK:
            return (0,)
        return (self.active,)  # type: ignore[return-value]

    def decision_name(self, seat: Seat) -> str:
        return self.phase if seat in self.deciding_seats() else ""

    def legal_options(self, seat: Seat) -> Sequence[Option]:
        if seat not in self.deciding_seats():
            return ()
        return self._options

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        self._outcomes = None
        if self.phase == CHOOSE_START:
            self._set_up(int(outcome.id.split(":")[1]))
            return
        tile = self.data.by_id[outcome.id].index
        self._reveal(tile)
        if self.phase == FLIP:
            self._resolve_player_flip(tile)
        else:
            self._resolve_ai_flip(tile)

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        ((seat, option),) = chosen.items()
        payload = option.payload
        action = payload["action"]
        phase = self.phase
        player = self.active
        if phase == START:
            if action == "dive":
                self._arrive(1)
            else:
                rock = self.rocks[seat].pop(0)
                self.discarded.append(rock)
                self.board_tokens[seat] = self.discarded_token = object()
                self.emit("rock_swallowed", player=seat, depth=payload["depth"], tile=self.data.tiles[rock].id)
                self._arrive(payload["depth"])
        elif phase == AT_DEPTH:
            if action == "take":
                tile = self.data.by_id[payload["tile"]].index
                self.available[self.depth - 1].remove(tile)
                self.depth_tokens[self.depth - 1] = object()
                self._give(seat, tile, "take")
                self._end_turn()
            elif action == "skip":
                self.emit("skipped", player=seat, depth=self.depth)
                self._arrive(self.depth + 1)
            else:
                self._enter(FLIP)
        elif phase == AFTER_FLIP:
            tile = self._flipped_tile()
            if action == "keep":
                self._give(seat, tile, "keep")
                self._end_turn()
            else:
                self._put_available(tile)
                self.emit("dived_on", player=seat, depth=self.depth)
                self._arrive(self.depth + 1)
        elif phase == RETREAT:
            tile = self.data.by_id[payload["tile"]].index
            index = self.data.tiles[tile].depth - 1
            self.available[index].remove(tile)
            self.depth_tokens[index] = object()
            self._give(seat, tile, "retreat")
            self._retreat(seat)
        elif phase == AI_PICK:
            tile = self.data.by_id[payload["tile"]].index
            self.available[self.depth - 1].remove(tile)
            self.depth_tokens[self.depth - 1] = object()
            self._ai_take(tile)
            self._ai_move_on()
        else:
            raise RuleError(f"deep_dive: no decision at {phase!r} (player {player})")

    # ----- setup and turn flow (spec 3, 4.3) --------------------------------------------------
    def _set_up(self, start: Seat) -> None:
        self.start_player = start
        setup = self.data.setups[self.players]
        data: dict[str, Any] = {
            "players": self.players,
            "sets": list(setup.sets),
            "removed_per_depth": setup.removed_per_depth,
            "face_down": list(setup.face_down_per_depth),
            "start_player": start,
            "solo": self.solo,
        }
        if self.solo:
            data["ai_difficulty"] = self.difficulty
        self.emit("setup", **data)
        self.round = 1
        self._begin_turn(start)

    def _enter(self, phase: str, options: tuple[Option, ...] = ()) -> None:
        self.phase = phase
        self._options = options
        self._outcomes = None

    def begin_turn(self, player: Seat) -> None:
        """Begin `player`'s turn (or the AI's) from between turns: where a position naming a turn's start goes on."""
        self._begin_turn(player)

    def _begin_turn(self, player: Seat) -> None:
        self.active = player
        self.depth = 0
        self.flipped = None
        if player == AI:
            self.emit("turn_start", ai=True, round=self.round)
            self._ai_turn()
            return
        self.emit("turn_start", player=player, round=self.round)
        if player == self.start_player and self.end_triggered and not self.last_dive:
            self.last_dive = True
            self.final_round = True
            self.emit("last_dive", player=player)
        if self.rocks[player]:
            self._enter(START, self.options_at(START))
        else:
            self._arrive(1)

    def _arrive(self, depth: int) -> None:
        """T2: the diving penguin reaches `depth`; ask AT_DEPTH, or surface empty if nothing is legal."""
        self.depth = depth
        self.flipped = None
        options = self.options_at(AT_DEPTH)
        if not options:
            self.emit("surfaced_empty", player=self._diver())
            self._end_turn()
            return
        self._enter(AT_DEPTH, options)

    def options_at(self, phase: str) -> tuple[Option, ...]:
        """The options of `phase` in this state (what the engine offers on entering it; one place for each rule)."""
        if phase == START:
            return (opt.DIVE, *opt.ROCK.values())
        if phase == AT_DEPTH:
            depth = self.depth
            index = depth - 1
            take = self.tile_options.take
            options = [take[t] for t in self.available[index]]
            exhausted = self.face_down[index] == 0
            if not exhausted:
                options.append(opt.FLIP)
            if depth <= 4 and ((self.end_triggered and exhausted) or self._captured_at(self._diver(), depth)):
                options.append(opt.SKIP)
            return tuple(options)
        if phase == RETREAT:
            tiles = self.data.tiles
            depths = sorted({tiles[t].depth for t in self.captured[self._diver()]})
            eligible = sorted(t for d in depths for t in self.available[d - 1])
            return tuple(self.tile_options.retreat_take[t] for t in eligible)
        if phase == AFTER_FLIP:
            return (opt.KEEP, opt.DIVE_ON) if self.depth <= 4 else (opt.KEEP,)
        if phase == AI_PICK:
            give = self.tile_options.ai_give
            return tuple(give[t] for t in self._ai_choices())
        return ()

    def _diver(self) -> Seat:
        """The seat diving now (only called during a player's turn)."""
        if self.active is None or self.active == AI:
            raise RuleError(f"deep_dive: no player is diving (phase {self.phase!r})")
        return self.active

    def _flipped_tile(self) -> int:
        if self.flipped is None:
            raise RuleError("deep_dive: no tile was just flipped")
        return self.flipped

    def _start_seat(self) -> Seat:
        if self.start_player is None:
            raise RuleError("deep_dive: no start player yet")
        return self.start_player

    def _captured_at(self, player: Seat, depth: int) -> bool:
        tiles = self.data.tiles
        return any(tiles[t].depth == depth for t in self.captured[player])

    def _reveal(self, tile: int) -> None:
        """T3 / A2: the next face-down tile of the current depth turns up; the first exhausted depth triggers the end."""
        index = self.depth - 1
        self.unseen[index].remove(tile)
        self.face_down[index] -= 1
        self.depth_tokens[index] = object()
        data: dict[str, Any] = {"depth": self.depth, "tile": self.data.tiles[tile].id, "face_down": self.face_down[index]}
        if self.active == AI:
            self.emit("flipped", ai=True, **data)
        else:
            self.emit("flipped", player=self.active, **data)
        if self.face_down[index] == 0 and not self.end_triggered:
            self.end_triggered = True
            self.emit("end_triggered", depth=self.depth)

    def _resolve_player_flip(self, tile: int) -> None:
        player = self._diver()
        kind = self.data.tiles[tile].type
        index = self.depth - 1
        if kind == OPEN_WATER:
            self.inert[index].append(tile)
            self.depth_tokens[index] = object()
            if self.depth < 5:
                self._arrive(self.depth + 1)
            else:
                self.emit("surfaced_empty", player=player)
                self._end_turn()
        elif kind == PREDATOR:
            self.inert[index].append(tile)
            self.penguin_on[tile] = player
            self.captured[player].append(tile)
            self.depth_tokens[index] = self.board_tokens[player] = object()
            self.emit("captured", player=player, depth=self.depth, tile=self.data.tiles[tile].id)
            if len(self.captured[player]) < PENGUINS_PER_PLAYER:
                self._end_turn()
                return
            retreat = self.options_at(RETREAT)
            if retreat:
                self._enter(RETREAT, retreat)
            else:
                self._retreat(player)
        else:
            self.flipped = tile
            self._enter(AFTER_FLIP, self.options_at(AFTER_FLIP))

    def _retreat(self, player: Seat) -> None:
        tiles, depth_tokens = self.data.tiles, self.depth_tokens
        for tile in self.captured[player]:
            del self.penguin_on[tile]
            depth_tokens[tiles[tile].depth - 1] = object()
        self.captured[player] = []
        self.board_tokens[player] = object()
        self.emit("retreated", player=player)
        self._end_turn()

    def _put_available(self, tile: int) -> None:
        index = self.data.tiles[tile].depth - 1
        column = self.available[index]
        column.append(tile)
        column.sort()
        self.depth_tokens[index] = object()

    def _give(self, player: Seat, tile: int, how: str) -> None:
        info = self.data.tiles[tile]
        if info.type == FOOD:
            self.columns[player][info.colour_index].append(tile)
        elif info.type == ROCK:
            self.rocks[player].append(tile)
        else:
            raise RuleError(f"deep_dive: {info.id} ({info.type}) cannot be taken")
        self.board_tokens[player] = object()
        self.emit("took", player=player, tile=info.id, how=how)

    def _end_turn(self) -> None:
        """T5: the game ends after the last seat's turn of the final round; otherwise the next turn starts."""
        self.flipped = None
        self.depth = 0
        last = AI if self.solo else (self._start_seat() - 1) % self.players
        if self.final_round and self.active == last:
            self._finish()
            return
        if self.solo:
            following = AI if self.active == 0 else 0
        else:
            following = (self.active + 1) % self.players  # type: ignore[operator]
        if following == self.start_player:
            self.round += 1
        self._begin_turn(following)

    # ----- the solo AI (spec 4.5) -----------------------------------------------------------
    def _ai_turn(self) -> None:
        depth = self.ai_position
        for _ in range(5):
            if self.face_down[depth - 1] > 0:
                self.depth = depth
                self._enter(AI_FLIP)
                return
            depth = depth % 5 + 1
        self._end_turn()

    def _resolve_ai_flip(self, tile: int) -> None:
        info = self.data.tiles[tile]
        if info.type != PREDATOR:
            self._ai_take(tile)
            self._ai_move_on()
            return
        self.inert[self.depth - 1].append(tile)
        self.depth_tokens[self.depth - 1] = object()
        choices = self._ai_choices()
        if not choices:
            self._ai_move_on()
            return
        if len(choices) == 1:
            (choice,) = choices
            self.available[self.depth - 1].remove(choice)
            self.depth_tokens[self.depth - 1] = object()
            self._ai_take(choice)
            self._ai_move_on()
            return
        self._enter(AI_PICK, self.options_at(AI_PICK))

    def _ai_choices(self) -> list[int]:
        """The food the AI may take after flipping a predator: of the colours it has fewest of, the best value,
        the lowest tile of each colour (a seat chooses when there are several)."""
        tiles = self.data.tiles
        food = [t for t in self.available[self.depth - 1] if tiles[t].type == FOOD]
        if not food:
            return []
        fewest = min(len(self.ai_columns[tiles[t].colour_index]) for t in food)
        food = [t for t in food if len(self.ai_columns[tiles[t].colour_index]) == fewest]
        best = max(tiles[t].value for t in food)
        food = [t for t in food if tiles[t].value == best]
        lowest_by_colour: dict[int, int] = {}
        for t in sorted(food):
            lowest_by_colour.setdefault(tiles[t].colour_index, t)
        return sorted(lowest_by_colour.values())

    def _ai_take(self, tile: int) -> None:
        info = self.data.tiles[tile]
        if info.type == FOOD:
            self.ai_columns[info.colour_index].append(tile)
        elif info.type == ROCK:
            self.ai_rocks.append(tile)
        else:
            self.ai_open_water.append(tile)
        self.ai_token = object()
        self.emit("took", ai=True, tile=info.id, how="ai")

    def _ai_move_on(self) -> None:
        self.ai_position = self.depth % 5 + 1
        self.emit("ai_moved", depth=self.ai_position)
        self._end_turn()

    # ----- scoring and the end (spec 6) -------------------------------------------------------
    def food_values(self, columns: Sequence[Sequence[int]]) -> list[list[int]]:
        """Column tile indices as food values."""
        tiles = self.data.tiles
        return [[tiles[t].value for t in column] for column in columns]

    def seat_score(self, seat: Seat) -> tuple[int, int]:
        """(score, complete rows) of a seat's tableau now."""
        values = self.food_values(self.columns[seat])
        return row_score(values), complete_rows(values)

    def ai_totals(self) -> tuple[int, int]:
        """(score, complete rows) of the solo AI now, for the configured difficulty."""
        values = self.food_values(self.ai_columns)
        return ai_score(values, len(self.ai_rocks), len(self.ai_open_water), self.difficulty), complete_rows(values)

    def _finish(self) -> None:
        self.active = None
        self._enter(OVER)
        result = self.result()
        data: dict[str, Any] = {
            "scores": [int(s) for s in result.scores],
            "complete_rows": list(result.details["complete_rows"]),
            "ranks": list(result.ranks),
        }
        if self.solo:
            data["ai_score"] = result.details["ai_score"]
            data["ai_complete_rows"] = result.details["ai_complete_rows"]
            data["solo_rank"] = result.details["solo_rank"]
        self.emit("game_end", **data)

    def result(self) -> GameResult:
        if self.phase != OVER:
            raise GameOverError("deep_dive: the game is not over yet")
        totals = [self.seat_score(seat) for seat in range(self.players)]
        scores = tuple(float(score) for score, _ in totals)
        rows = [count for _, count in totals]
        if not self.solo:
            return GameResult(competition_ranks(totals), scores, {"complete_rows": rows})
        ai_points, ai_rows = self.ai_totals()
        solo_rank = 1 if totals[0] >= (ai_points, ai_rows) else 2
        outcome = "loss" if solo_rank == 2 else ("shared" if totals[0] == (ai_points, ai_rows) else "win")
        details = {
            "complete_rows": rows,
            "ai_score": ai_points,
            "ai_complete_rows": ai_rows,
            "solo_rank": solo_rank,
            "solo_outcome": outcome,
        }
        # The human is ranked against the AI (spec 6): rank 2 is a loss to the AI.
        return GameResult((solo_rank,), scores, details)

    # ----- views (spec 5: everything is public) ----------------------------------------------
    def public_view(self) -> dict[str, Any]:
        return self.game.build_view(self, None)  # views.py (views read the state; the state never imports them)

    def private_view(self, seat: Seat) -> dict[str, Any]:
        return self.game.build_view(self, seat)

    def supply(self, seat: Seat) -> int:
        """Penguins in the seat's supply: every penguin not captured (the one diving now included)."""
        # Counting the diver out would contradict the spec's setup counts (E1, E6): a turn's first
        # decision is pending from the moment the turn starts, before any penguin has left.
        return PENGUINS_PER_PLAYER - len(self.captured[seat])

    # ----- search support -----------------------------------------------------------------
    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.events = self.events.copy()
        twin.face_down = list(self.face_down)
        twin.unseen = [list(d) for d in self.unseen]
        twin.available = [list(d) for d in self.available]
        twin.inert = [list(d) for d in self.inert]
        twin.penguin_on = dict(self.penguin_on)
        twin.columns = [[list(c) for c in seat] for seat in self.columns]
        twin.rocks = [list(r) for r in self.rocks]
        twin.captured = [list(c) for c in self.captured]
        twin.ai_columns = [list(c) for c in self.ai_columns]
        twin.ai_rocks = list(self.ai_rocks)
        twin.ai_open_water = list(self.ai_open_water)
        twin.discarded = list(self.discarded)
        twin.depth_tokens = list(self.depth_tokens)
        twin.board_tokens = list(self.board_tokens)
        return twin

    def renew_tokens(self) -> None:
        """A fresh token for every part: at the start, and after the state was edited from outside the rules (as a position is read)."""
        self.depth_tokens: list[object] = [object() for _ in range(5)]
        self.board_tokens: list[object] = [object() for _ in range(self.players)]
        self.ai_token = object()
        self.discarded_token = object()

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Nobody holds a secret and unrevealed tiles stay chance nodes, so every seat knows the full state."""
        return self.clone()
