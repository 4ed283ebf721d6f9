"""Fuji 99 game state and turn flow (spec §3-§4): draw cycles, busts, card draws, stopping."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Self

from referee.chance import draw_outcomes
from referee.engine import ChanceOutcome, Game, GameConfig, GameResult, GameState, JsonValue, Option, Seat
from referee.errors import RuleError
from referee.games.fuji99.data import COLOURS, CardType, FujiData
from referee.games.fuji99.effects import EFFECTS
from referee.games.fuji99.options import CONTINUE, END_USE, draw_options, place_option, stop_option, use_option
from referee.games.fuji99.phases import (
    CARDS,
    CONTINUE_OR_STOP,
    CUBES,
    DECISIONS,
    DRAW_COUNT,
    OVER,
    PLACE_CUBE,
    USE_CARDS,
)
from referee.games.fuji99.scoring import final_result

if TYPE_CHECKING:
    from referee.games.fuji99.game import Fuji99Game

CLEAR, YELLOW, RED = 0, 1, 2
COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}


class Fuji99State(GameState):
    """One game of Fuji 99. Every seat knows everything; only the bag draws and the deck order are chance."""

    # Component data and config are shared between clones; everything below `pos` is copied.
    game: Fuji99Game
    data: FujiData

    def __init__(self, game: Game, config: GameConfig, data: FujiData) -> None:
        super().__init__(game, config)
        n = config.players
        supply = data.supply[n]
        self.data = data
        self.max_rounds: int = config.variants["max_rounds"]
        self.pos: list[int] = [0] * n
        self.bags: list[list[int]] = [list(supply.bag) for _ in range(n)]
        self.got: list[list[bool]] = [[False] * len(data.yellow_spaces) for _ in range(n)]
        self.yellow_left: list[int] = [supply.yellow_on_20, supply.yellow_on_50]
        self.pagoda: int = supply.pagoda
        self.deck: list[str] = sorted(data.deck)  # a set kept sorted: each draw is a chance node over it
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.cubes: dict[str, int] = {}  # clear cubes on each card in a hand
        self.omens: list[list[tuple[str, bool]]] = [[] for _ in range(n)]  # (card, active)
        self.turns_taken: list[int] = [0] * n
        self.round: int = 1
        self.active: int = 0
        self.m: int = 0
        self.red_area: int = 0  # R
        self.spent: int = 0  # U
        self.available: int = 0  # Y
        self.draw: list[int] = [0, 0, 0]  # current draw c/y/r
        self.reds_set_aside: bool = False  # the current draw's reds already went to the red area (S3)
        self.to_draw: int = 0
        self.draw_count: int = 0
        self.phase: str = DRAW_COUNT
        self.stack: list[tuple[str, int, str]] = []  # pending card draws and echo ends, top last
        self.drawing: int | None = None  # seat whose Fuji card draw is the pending chance node
        self.resolving: list[str] = []  # echoes being resolved (in no pile)
        self.placed: dict[str, int] = {}  # cubes placed per card in this stop (D4)
        self.to_place: int = 0
        self.winner: int | None = None
        self.end_reason: str | None = None
        #: What changed: a fresh token replaces a seat's wherever its hand, its omens or the clear cubes on its hand's
        #: cards change, copied by clone, so a view finds that part as it wrote it before by its token alone.
        self.hand_tokens: list[object] = [object() for _ in range(n)]

    # ----- construction ------------------------------------------------------------
    def start(self) -> None:
        """Announce the setup and begin seat 0's turn."""
        supply = self.data.supply[self.players]
        self.emit(
            "game_start",
            players=self.players,
            pagoda=self.pagoda,
            yellow_on_20=supply.yellow_on_20,
            yellow_on_50=supply.yellow_on_50,
            deck_size=len(self.deck),
            bag=_cubes(supply.bag),
        )
        self._start_turn()

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.game = self.game
        twin.config = self.config
        twin.events = self.events.copy()
        twin.data = self.data
        twin.max_rounds = self.max_rounds
        twin.pos = self.pos[:]
        twin.bags = [bag[:] for bag in self.bags]
        twin.got = [got[:] for got in self.got]
        twin.yellow_left = self.yellow_left[:]
        twin.pagoda = self.pagoda
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.hands = [hand[:] for hand in self.hands]
        twin.cubes = dict(self.cubes)
        twin.omens = [omens[:] for omens in self.omens]
        twin.turns_taken = self.turns_taken[:]
        twin.round = self.round
        twin.active = self.active
        twin.m = self.m
        twin.red_area = self.red_area
        twin.spent = self.spent
        twin.available = self.available
        twin.draw = self.draw[:]
        twin.reds_set_aside = self.reds_set_aside
        twin.to_draw = self.to_draw
        twin.draw_count = self.draw_count
        twin.phase = self.phase
        twin.stack = self.stack[:]
        twin.drawing = self.drawing
        twin.resolving = self.resolving[:]
        twin.placed = dict(self.placed)
        twin.to_place = self.to_place
        twin.winner = self.winner
        twin.end_reason = self.end_reason
        twin.hand_tokens = self.hand_tokens[:]
        return twin

    def renew_tokens(self) -> None:
        """A fresh token for every part: at the start, and after the state was edited from outside the rules (as a position is read)."""
        self.hand_tokens = [object() for _ in range(self.players)]

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Nothing is secret in Fuji 99: the deck order and bag draws are still chance nodes."""
        return self.clone()

    # ----- queries used by rules, effects and views ----------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    def card_type(self, card: str) -> CardType:
        return self.data.card_type[card]

    def card_danger(self, card: str) -> int:
        """A card's danger now: its printed value, or X = the clear cubes on it."""
        danger = self.data.card_type[card].danger
        return self.cubes.get(card, 0) if danger is None else danger

    def hand_danger(self, seat: Seat) -> int:
        return sum(self.card_danger(card) for card in self.hands[seat])

    def effective_position(self, seat: Seat) -> int:
        """eff(P): the movement piece for the active player, the own piece for everyone else."""
        return self.m if seat == self.active and not self.over else self.pos[seat]

    def active_omens(self, seat: Seat) -> int:
        return sum(1 for _, active in self.omens[seat] if active)

    def move_bonus(self, seat: Seat) -> int:
        """Extra spaces for every S3 move from persistent cards in the hand."""
        total = 0
        for card in self.hands[seat]:
            kind = self.data.card_type[card]
            if kind.timing == "persistent":
                bonus = EFFECTS[kind.effect].move_bonus
                if bonus is not None:
                    total += bonus(kind.params)
        return total

    def affordable(self) -> list[str]:
        """Cards of the active hand whose cost the available yellow covers, in hand order."""
        result = []
        for card in self.hands[self.active]:
            cost = self.data.card_type[card].cost
            if cost is not None and cost <= self.available:
                result.append(card)
        return result

    # ----- node kind -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == CUBES or (self.phase == CARDS and self.drawing is not None)

    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        if self.phase == CUBES:
            return _cube_outcomes(*self.bags[self.active])
        if self.phase == CARDS and self.drawing is not None:
            return _card_outcomes(self.deck)
        return []

    def deciding_seats(self) -> tuple[Seat, ...]:
        return (self.active,) if self.phase in DECISIONS else ()

    def decision_name(self, seat: Seat) -> str:
        if seat not in self.deciding_seats():
            raise RuleError(f"fuji99: seat {seat} has no decision now (phase {self.phase})")
        return self.phase

    def legal_options(self, seat: Seat) -> Sequence[Option]:
        if seat != self.active or self.phase not in DECISIONS:
            return []
        if self.phase == DRAW_COUNT:
            return draw_options(sum(self.bags[seat]), self.data.min_draw)
        if self.phase == USE_CARDS:
            card_type = self.data.card_type
            options = [use_option(card, card_type[card].name, card_type[card].cost) for card in self.affordable()]
            options.append(END_USE)
            return options
        if self.phase == CONTINUE_OR_STOP:
            stop = stop_option(self.m)
            if sum(self.bags[seat]) + self.draw[CLEAR] + self.available > 0:
                return [CONTINUE, stop]
            return [stop]
        return [place_option(card) for card in self._placeable()]

    # ----- applying -------------------------------------------------------------------
    def apply_chance(self, outcome_id: str) -> None:
        """Resolve the pending cube or card draw without listing its outcomes again (playouts draw a lot).

        An outcome is legal exactly when it is a colour left in the active bag or a card left in the deck;
        anything else goes to the base class, which raises its error for it.
        """
        if self.phase == CUBES:
            colour = COLOUR_INDEX.get(outcome_id)
            if colour is not None and self.bags[self.active][colour] > 0:
                self._draw_cube(colour)
                return
        elif self.phase == CARDS and self.drawing is not None and outcome_id in self.deck:
            self._draw_card(self.drawing, outcome_id)
            return
        super().apply_chance(outcome_id)

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        """The base class's path to a validated outcome (`apply_chance` applies every legal one itself)."""
        if self.phase == CUBES:
            self._draw_cube(COLOUR_INDEX[outcome.id])
            return
        seat = self.drawing
        if seat is None:
            raise RuleError("fuji99: no Fuji card draw is pending")
        self._draw_card(seat, outcome.id)

    def _draw_cube(self, colour: int) -> None:
        """S2: one cube of this colour from the active bag into the current draw."""
        self.bags[self.active][colour] -= 1
        self.draw[colour] += 1
        self.to_draw -= 1
        if self.to_draw == 0:
            self._after_cube_draw()

    def _draw_card(self, seat: Seat, card: str) -> None:
        """S5: `seat` draws `card` from the deck: an instant card acts, any other goes to the hand."""
        self.deck.remove(card)
        self.drawing = None
        self.emit("card_drawn", seat=seat, card=card, deck_size=len(self.deck))
        kind = self.data.card_type[card]
        hook = EFFECTS[kind.effect].on_draw if kind.timing == "instant" else None
        if hook is not None:
            hook(self, seat, card, kind.params)
        else:
            self.hands[seat].append(card)
            self.cubes[card] = 0
            self.hand_tokens[seat] = object()
        self._resolve_card_draws()

    def apply_decisions(self, choices: Mapping[Seat, str]) -> None:
        """Apply the active seat's option (the only seat that ever decides), checked against its legal options.

        The common case skips the base class's general checks; anything unusual goes to it for its error.
        """
        if len(choices) == 1 and self.phase in DECISIONS:
            option_id = choices.get(self.active)
            for option in self.legal_options(self.active):
                if option.id == option_id:
                    self._act(option)
                    return
        super().apply_decisions(choices)

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        """The base class's path to validated options (`apply_decisions` applies every legal one itself)."""
        self._act(chosen[self.active])

    def _act(self, option: Option) -> None:
        """Carry out one legal option of the active seat."""
        payload = option.payload
        action = payload["action"]
        if action == "draw":
            self._draw_cubes(int(payload["count"]))
        elif action == "use":
            self._use_card(str(payload["card"]))
        elif action == "end_use":
            self._start_card_draws()
        elif action == "continue":
            self._continue()
        elif action == "stop":
            self._stop()
        elif action == "place":
            self._place_cube(str(payload["card"]))
        else:
            raise RuleError(f"fuji99: unknown action {action!r}")

    # ----- S1-S3 -----------------------------------------------------------------------
    def begin_turn(self) -> None:
        """Begin the active seat's turn: where a position naming a turn's start goes on."""
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.active
        self.m = self.pos[seat]
        activated = [card for card, active in self.omens[seat] if not active]
        self.omens[seat] = [(card, True) for card, _ in self.omens[seat]]
        if activated:
            self.hand_tokens[seat] = object()
        self.red_area = self.spent = self.available = 0
        self.draw = [0, 0, 0]
        self.reds_set_aside = False
        self.phase = DRAW_COUNT
        self.emit("turn_start", seat=seat, round=self.round, position=self.m, omens_activated=activated)

    def _draw_cubes(self, count: int) -> None:
        self.draw = [0, 0, 0]
        self.reds_set_aside = False
        self.draw_count = self.to_draw = count
        self.phase = CUBES
        if count == 0:
            self._after_cube_draw()

    def _after_cube_draw(self) -> None:
        seat = self.active
        clear, yellow, red = self.draw
        self.emit("cubes_drawn", seat=seat, count=self.draw_count, clear=clear, yellow=yellow, red=red)
        self.available = yellow
        omens = self.active_omens(seat)
        threat = self.red_area + red + omens
        if threat >= self.data.red_bust_at:
            self.emit("red_bust", seat=seat, threat=threat, red_area=self.red_area, red_drawn=red, omens=omens)
            self._end_turn("red_bust")
            return
        self.advance(self.draw_count + self.move_bonus(seat), "draw")
        if self.over:
            return
        self.red_area += red
        self.reds_set_aside = True
        self._enter_use_step()

    def advance(self, spaces: int, reason: str) -> None:
        """advance(k): move the movement piece, pick up yellow cubes passed at 20/50, win at the goal."""
        seat = self.active
        start = self.m
        end = min(start + spaces, self.data.goal)
        self.m = end
        self.emit("moved", seat=seat, start=start, end=end, reason=reason)
        for index, space in enumerate(self.data.yellow_spaces):
            if start < space <= end and not self.got[seat][index] and self.yellow_left[index] > 0:
                self.yellow_left[index] -= 1
                self.bags[seat][YELLOW] += 1
                self.got[seat][index] = True
                self.emit("yellow_taken", seat=seat, space=space, left=self.yellow_left[index])
        if end >= self.data.goal:
            self.winner = seat
            self.turns_taken[seat] += 1
            self.emit("win", seat=seat, position=end)
            self._end_game("goal")

    # ----- S4 --------------------------------------------------------------------------
    def _enter_use_step(self) -> None:
        if self.affordable():
            self.phase = USE_CARDS
        else:
            self._start_card_draws()

    def _use_card(self, card: str) -> None:
        seat = self.active
        kind = self.data.card_type[card]
        cost = kind.cost or 0
        self.available -= cost
        self.spent += cost
        cubes = self.cubes.pop(card, 0)
        self.hands[seat].remove(card)
        self.hand_tokens[seat] = object()
        self.bags[seat][CLEAR] += cubes
        self.emit("card_used", seat=seat, card=card, cost=cost, cubes_to_bag=cubes, available_yellow=self.available)
        hook = EFFECTS[kind.effect].on_use
        if hook is None:
            raise RuleError(f"fuji99: {card} cannot be used")
        placed_elsewhere = hook(self, card, kind.params, cubes)
        if not placed_elsewhere:
            self.discard.append(card)
        if not self.over:
            self._enter_use_step()

    # helpers the effects call
    def return_red_to_bag(self, count: int, card: str) -> None:
        returned = min(count, self.red_area)
        self.red_area -= returned
        self.bags[self.active][RED] += returned
        self.emit("red_returned", seat=self.active, card=card, count=returned)

    def take_clear_from_pagoda(self, seat: Seat, count: int, card: str) -> None:
        taken = min(count, self.pagoda)
        self.pagoda -= taken
        self.bags[seat][CLEAR] += taken
        self.emit("clear_taken", seat=seat, card=card, count=taken, pagoda=self.pagoda)

    def add_omen(self, seat: Seat, card: str) -> None:
        self.omens[seat].append((card, False))
        self.hand_tokens[seat] = object()

    def schedule_echo(self, drawer: Seat, card: str, others: Sequence[Seat]) -> None:
        """Echo resolution: the others draw clockwise, then the drawer, then the echo is discarded."""
        self.resolving.append(card)
        self.stack.append(("echo_end", drawer, card))
        self.stack.append(("draw", drawer, ""))
        for seat in reversed(others):
            self.stack.append(("draw", seat, ""))

    # ----- S5-S6 -----------------------------------------------------------------------
    def _start_card_draws(self) -> None:
        self.phase = CARDS
        self.stack = [("draw", self.active, "")]
        self._resolve_card_draws()

    def _resolve_card_draws(self) -> None:
        while self.stack:
            action, seat, card = self.stack.pop()
            if action == "draw":
                if not self.deck:
                    if not self.discard:
                        self.emit("nothing_drawn", seat=seat)
                        continue
                    self.deck = sorted(self.discard)
                    self.discard = []
                    self.emit("reshuffle", deck_size=len(self.deck))
                self.drawing = seat
                return
            self.resolving.remove(card)
            self.discard.append(card)
            self.emit("echo_end", drawer=seat, card=card)
        self._danger_check()

    def _danger_check(self) -> None:
        seat = self.active
        danger = self.hand_danger(seat)
        if danger < self.data.danger_bust_at:
            self.phase = CONTINUE_OR_STOP
            return
        lost = self.hands[seat]
        cubes = sum(self.cubes.pop(card, 0) for card in lost)
        self.pagoda += cubes
        self.discard.extend(lost)
        self.hands[seat] = []
        self.hand_tokens[seat] = object()
        self.emit("card_bust", seat=seat, danger=danger, cards=lost, cubes_to_pagoda=cubes, pagoda=self.pagoda)
        self._end_turn("card_bust")

    # ----- S7 and stopping ---------------------------------------------------------------
    def _continue(self) -> None:
        seat = self.active
        clear, yellow = self.draw[CLEAR], self.available
        self.bags[seat][CLEAR] += clear
        self.bags[seat][YELLOW] += yellow
        self.draw = [0, 0, 0]
        self.available = 0
        self.reds_set_aside = False
        self.emit("continued", seat=seat, clear_returned=clear, yellow_returned=yellow)
        self.phase = DRAW_COUNT

    def _stop(self) -> None:
        seat = self.active
        hand = self.hands[seat]
        demand = sum(self.data.card_type[card].cap for card in hand)
        self.emit("stopped", seat=seat, position=self.m, demand=demand, pagoda=self.pagoda)
        if self.pagoda >= demand:
            placements = []
            for card in hand:
                cap = self.data.card_type[card].cap
                if cap:
                    self.cubes[card] += cap
                    placements.append({"card": card, "cubes": cap})
            self.pagoda -= demand
            if placements:
                self.hand_tokens[seat] = object()
                self.emit("cubes_placed", seat=seat, placements=placements, pagoda=self.pagoda)
            self._finish_stop()
        elif self.pagoda == 0:
            self._finish_stop()
        else:
            self.placed = {}
            self.to_place = self.pagoda
            self.phase = PLACE_CUBE

    def _placeable(self) -> list[str]:
        return [
            card
            for card in self.hands[self.active]
            if self.placed.get(card, 0) < self.data.card_type[card].cap
        ]

    def _place_cube(self, card: str) -> None:
        self.cubes[card] += 1
        self.hand_tokens[self.active] = object()
        self.placed[card] = self.placed.get(card, 0) + 1
        self.pagoda -= 1
        self.to_place -= 1
        self.emit("cube_placed", seat=self.active, card=card, pagoda=self.pagoda)
        if self.to_place == 0 or not self._placeable():
            self.placed = {}
            self.to_place = 0
            self._finish_stop()

    def _finish_stop(self) -> None:
        self.pos[self.active] = self.m
        self._end_turn("stop")

    # ----- end of turn and game ---------------------------------------------------------
    def _end_turn(self, reason: str) -> None:
        seat = self.active
        bag = self.bags[seat]
        bag[CLEAR] += self.draw[CLEAR]
        bag[YELLOW] += self.available + self.spent
        bag[RED] += self.red_area + (0 if self.reds_set_aside else self.draw[RED])
        self.draw = [0, 0, 0]
        self.available = self.spent = self.red_area = 0
        self.reds_set_aside = False
        self.m = self.pos[seat]  # a bust takes the movement piece back (§4.4); a stop already set pos = m
        finished = [card for card, active in self.omens[seat] if active]
        self.discard.extend(finished)
        self.omens[seat] = [(card, active) for card, active in self.omens[seat] if not active]
        if finished:
            self.hand_tokens[seat] = object()
        self.turns_taken[seat] += 1
        self.emit(
            "turn_end",
            seat=seat,
            reason=reason,
            position=self.pos[seat],
            omens_discarded=finished,
            bag=_cubes(bag),
        )
        following = (seat + 1) % self.players
        if following == 0:
            if self.round >= self.max_rounds:
                self._end_game("round_limit")
                return
            self.round += 1
        self.active = following
        self._start_turn()

    def _end_game(self, reason: str) -> None:
        self.phase = OVER
        self.end_reason = reason
        result = self.result()
        data: dict[str, JsonValue] = {
            "ranks": list(result.ranks),
            "scores": [int(score) for score in result.scores],
            "reason": reason,
        }
        if self.winner is not None:
            data["winner"] = self.winner
        self.emit("game_end", **data)

    def result(self) -> GameResult:
        self.require_over()
        return final_result(self.pos, self.turns_taken, self.winner, self.data.goal)

    # ----- views ----------------------------------------------------------------------
    def private_view(self, seat: Seat) -> dict[str, JsonValue]:
        return self.game.build_view(self, seat)  # views.py (the state never imports its views)

    def public_view(self) -> dict[str, JsonValue]:
        return self.game.build_view(self, None)


@cache
def _cube_outcomes(clear: int, yellow: int, red: int) -> tuple[ChanceOutcome, ...]:
    """One cube from a bag of these counts (shared between states: outcomes are immutable)."""
    return tuple(draw_outcomes({"clear": clear, "yellow": yellow, "red": red}))


def _card_outcomes(deck: Sequence[str]) -> list[ChanceOutcome]:
    """One Fuji card from the remaining deck (sorted ids), each equally likely (the shares of `uniform_outcomes`)."""
    size = len(deck)
    return [_card_outcome(card, size) for card in deck]


@cache
def _card_outcome(card: str, deck_size: int) -> ChanceOutcome:
    """Drawing `card` from a deck of this size: few distinct pairs, so each is built once and shared."""
    return ChanceOutcome(card, 1.0 / deck_size)


def _cubes(counts: Sequence[int]) -> dict[str, int]:
    return {"clear": counts[CLEAR], "yellow": counts[YELLOW], "red": counts[RED]}
