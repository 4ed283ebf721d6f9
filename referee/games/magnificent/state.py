"""The Magnificent's rules: a game state driven by a stack of pending steps, decisions and chance draws.

Every resolution that can be interrupted (a poster gain in the middle of a build or a travel, a deck
draw, a display refill) is a step on `stack`; `_run` executes steps until a decision or a chance node
is pending or the game is over. Decisions carry the spec's codes (TD1..TD6, BD1..BD4, VD1..VD2,
PD1..PD4, GP1..GP2, SD1, RD1..RD2).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import combinations, permutations
from typing import Any, Self

from referee.chance import draw_outcomes, uniform_outcomes
from referee.games.magnificent.dice import roll_outcomes
from referee.engine import ChanceOutcome, Game, GameConfig, GameResult, GameState, Option, Seat
from referee.errors import RuleError
from referee.games.magnificent.data import COLOUR_INDEX, COLOURS, DIE_COLOURS, TILE_TYPES, Bonus, Components
from referee.games.magnificent.model import FIRST_SHOW, IN_HAND, Player, Turn, show_position
from referee.games.magnificent import options as opt
from referee.games.magnificent.draft import DraftMixin
from referee.games.magnificent import scoring

ACTIONS = ("BUILD", "TRAVEL", "PERFORM")
DIE_KEYS = tuple(f"{c}:{v}" for c in COLOURS for v in range(1, 7))
DECISION_NAMES = {
    "SD1": "trainer_draft",
    "SD2": "draft_master_card",
    "TD1": "take_die",
    "TD2": "place_die",
    "TD3": "clear_die_colour",
    "TD4": "action",
    "TD5": "window_a",
    "TD6": "window_b",
    "BD1": "build_level",
    "BD2": "build_tile",
    "BD3": "build_anchor",
    "BD4": "build_orientation",
    "VD1": "travel_distance",
    "VD2": "take_tent",
    "PD1": "show_space",
    "PD2": "posters_to_complete",
    "PD3": "extra_gem",
    "PD4": "arrange_posters",
    "GP1": "poster_source",
    "GP2": "poster_placement",
    "RD1": "take_pair",
    "RD2": "score_master_card",
}
WINDOW_B_MASTER = ("COINS", "POINTS", "GEM_ANY", "GEM_ACTING", "POSTER")
SIMPLE_MASTER = ("POWER", "DIE_FLIP", "COINS", "POINTS", "GEM_ACTING", "POSTER")

Step = tuple[Any, ...]


@cache
def _arrangements(count: int) -> tuple[Option, ...]:
    """PD4 options for `count` remaining posters (taken in slot order): every assignment of distinct slots."""
    options = []
    for slots in permutations(range(1, 6), count):
        text = ",".join(map(str, slots))
        options.append(Option(f"arrange:{text}", f"posters to slots {text}", {"kind": "arrange", "slots": list(slots)}))
    return tuple(options)


class MagnificentState(DraftMixin, GameState):
    """One game of The Magnificent in progress."""

    def __init__(self, game: Game, config: GameConfig, components: Components) -> None:
        super().__init__(game, config)
        self.c = components
        n = config.players
        self.side_b: bool = bool(config.variants.get("side_b", False))
        self.draft: bool = bool(config.variants.get("draft_master_cards", False))
        self.draft_hands: list[list[str]] = [[] for _ in range(n)]  # by hand (the seat it was dealt to)
        self.draft_history: list[list[tuple[str, ...]]] = [[] for _ in range(n)]  # each hand at each pick round
        self.draft_picks: list[list[str]] = [[] for _ in range(n)]  # by seat, in pick order
        self.draft_removed: list[str] = [""] * n
        self.draft_round = 0
        self.pairs: int = components.display_pairs[n]
        self.round = 0
        self.start_player = 0
        self.turn_count = 0
        self.turn: Turn | None = None
        self.players_state: list[Player] = [Player() for _ in range(n)]
        self.main_tent: dict[str, int] = {}  # "O:4" -> count
        self.boards_left: list[str] = list(components.boards)
        self.master_deck: list[str] = []
        self.trainer_deck: list[str] = list(components.trainers)
        self.display: list[list[str | None]] = [[None, None] for _ in range(self.pairs)]
        self.draft_pool: list[str] = []
        self.removed_trainers: list[str] = []
        self.tents_left: list[str] = list(components.track_tents)
        self.track_tents: dict[str, list[str | None]] = {colour: [None] * 12 for colour in DIE_COLOURS}
        self.wagons: dict[str, int] = {colour: 0 for colour in DIE_COLOURS}
        self.start_posters_left: list[str] = list(components.starting_posters)
        self.poster_deck: list[str] = list(components.regular_posters)
        self.poster_display: list[str | None] = [None] * 4
        self.poster_discard: list[str] = []
        self.poster_in_hand: str = ""
        self.supply: dict[str, int] = {t: components.tile_types[t].copies for t in TILE_TYPES}
        self.stack: list[Step] = [("chance", "start")]
        self.pending: tuple[str, int] | None = None
        self.chance: tuple[Any, ...] | None = None
        self.over = False
        self.final: list[dict[str, int]] = []
        self._options: dict[int, list[Option]] = {}
        self._outcomes: list[ChanceOutcome] | None = None
        self._run()

    # ----- engine contract -------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once round 3's round end is done."""
        return self.over

    def is_chance_node(self) -> bool:
        """True while a draw or a roll is pending."""
        return self.chance is not None

    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        """The pending draw over what remains, or a die roll."""
        if self.chance is None:
            return []
        kind = self.chance[0]
        if kind == "start":
            return uniform_outcomes([f"seat:{s}" for s in range(self.players)])
        if self._outcomes is None:
            if kind == "dice":
                self._outcomes = roll_outcomes(self.chance[1], self.chance[2])
            else:
                self._outcomes = draw_outcomes(dict.fromkeys(self._chance_source(kind), 1))
        return self._outcomes

    def _chance_source(self, kind: str) -> list[str]:
        if kind == "board":
            return self.boards_left
        if kind in ("master_display", "master_deal"):
            return self.master_deck
        if kind in ("trainer_display", "trainer_pool"):
            return self.trainer_deck
        if kind == "tent":
            return self.tents_left
        if kind == "start_poster":
            return self.start_posters_left
        if kind in ("poster_display", "poster_draw"):
            return self.poster_deck
        raise RuleError(f"magnificent: unknown chance kind {kind!r}")

    def deciding_seats(self) -> tuple[Seat, ...]:
        """The active or drafting seat; every seat at once for round-end master scoring (RD2)."""
        if self.pending is None:
            return ()
        if self.pending[0] in ("RD2", "SD2"):
            return tuple(range(self.players))
        return (self.pending[1],)

    def decision_name(self, seat: Seat) -> str:
        """The spec's decision point, e.g. 'window_a' for TD5."""
        if self.pending is None or seat not in self.deciding_seats():
            return ""
        return DECISION_NAMES[self.pending[0]]

    def decision_code(self) -> str:
        """The spec's code of the pending decision (TD1, BD3, ...), '' if none."""
        return self.pending[0] if self.pending else ""

    def legal_options(self, seat: Seat) -> Sequence[Option]:
        """The seat's legal options in the spec's canonical order (§4.11)."""
        if seat not in self.deciding_seats():
            return []
        cached = self._options.get(seat)
        if cached is None:
            assert self.pending is not None
            cached = self._OPTIONS[self.pending[0]](self, seat)
            if not cached:
                raise RuleError(f"magnificent: no legal option at {self.pending[0]} for seat {seat}")
            self._options[seat] = cached
        return cached

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        assert self.chance is not None
        chance, self.chance = self.chance, None
        self._options = {}
        self._outcomes = None
        self._CHANCE[chance[0]](self, outcome.id, *chance[1:])
        self._run()

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        assert self.pending is not None
        code = self.pending[0]
        self.pending = None
        self._options = {}
        self._outcomes = None
        if code == "RD2":
            self._apply_rd2(chosen)
        elif code == "SD2":
            self._apply_sd2(chosen)
        else:
            ((seat, option),) = chosen.items()
            self._APPLY[code](self, seat, option)
        self._run()

    def result(self) -> GameResult:
        """Final scores (§6) and ranks by score, coins, completed posters."""
        self.require_over()
        scores = [entry["total"] for entry in self.final]
        ranks = scoring.final_ranks(scores, self.players_state)
        return GameResult(ranks, tuple(float(s) for s in scores), {"breakdown": [dict(e) for e in self.final]})

    def clone(self) -> Self:
        """A copy sharing component data; mutable containers copied."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.events = self.events.copy()
        twin.turn = self.turn.copy() if self.turn else None
        twin.players_state = [p.copy() for p in self.players_state]
        twin.main_tent = self.main_tent.copy()
        twin.boards_left = self.boards_left.copy()
        twin.master_deck = self.master_deck.copy()
        twin.trainer_deck = self.trainer_deck.copy()
        twin.display = [slot.copy() for slot in self.display]
        twin.draft_pool = self.draft_pool.copy()
        twin.removed_trainers = self.removed_trainers.copy()
        twin.tents_left = self.tents_left.copy()
        twin.track_tents = {k: v.copy() for k, v in self.track_tents.items()}
        twin.wagons = self.wagons.copy()
        twin.start_posters_left = self.start_posters_left.copy()
        twin.poster_deck = self.poster_deck.copy()
        twin.poster_display = self.poster_display.copy()
        twin.poster_discard = self.poster_discard.copy()
        twin.supply = self.supply.copy()
        twin.stack = self.stack.copy()
        twin.final = [dict(e) for e in self.final]
        twin.draft_hands = [hand.copy() for hand in self.draft_hands]
        twin.draft_history = [history.copy() for history in self.draft_history]
        twin.draft_picks = [picks.copy() for picks in self.draft_picks]
        twin.draft_removed = self.draft_removed.copy()
        twin._options = dict(self._options)
        return twin

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """A clone with the draft cards `seat` has not seen redrawn (the only secrets; decks stay chance nodes)."""
        twin = self.clone()
        if self.draft:
            twin._determinize_draft(seat, rng)
            twin._options = {}
            twin._outcomes = None
        return twin

    def private_view(self, seat: Seat) -> dict[str, Any]:
        """Everything is public in this game (§5); the seat's view is the public view plus its seat."""
        from referee.games.magnificent.views import build_view

        return build_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        """The spectator's view: every public field (§5)."""
        from referee.games.magnificent.views import build_view

        return build_view(self, None)

    # ----- the step machine --------------------------------------------------------------
    def _schedule(self, *steps: Step) -> None:
        """Run `steps` next, in the given order, before anything already pending."""
        self.stack.extend(reversed(steps))

    def _run(self) -> None:
        while self.pending is None and self.chance is None and self.stack:
            step = self.stack.pop()
            self._STEPS[step[0]](self, *step[1:])

    def _ask(self, code: str, seat: int) -> None:
        self.pending = (code, seat)

    # helpers -----------------------------------------------------------------------------
    def _seats_from(self, first: int) -> list[int]:
        return [(first + i) % self.players for i in range(self.players)]

    def _power(self) -> int:
        turn = self.turn
        assert turn is not None
        player = self.players_state[turn.seat]
        power = turn.die_value + turn.power_bonus
        for card, (colour, value) in player.dice.items():
            if card != turn.card and colour == turn.acting:
                power += value
        return power

    def power(self) -> int:
        """This turn's power (§4.2), 0 outside a turn."""
        return self._power() if self.turn and self.turn.acting else 0

    def _set_die_value(self, value: int) -> None:
        turn = self.turn
        assert turn is not None
        turn.die_value = value
        self.players_state[turn.seat].dice[turn.card] = (turn.die_colour, value)

    def _gain_gem(self, seat: int, colour: str) -> None:
        player = self.players_state[seat]
        index = COLOUR_INDEX[colour]
        if player.gems[index] >= 3:
            player.coins += 1
            self.emit("gem_gained", seat=seat, colour=colour, converted=True)
        else:
            player.gems[index] += 1
            self.emit("gem_gained", seat=seat, colour=colour, converted=False)

    def _gain_marker(self, seat: int, reason: str) -> None:
        player = self.players_state[seat]
        if player.markers + player.spent < 8:
            player.markers += 1
            self.emit("marker_gained", seat=seat, reason=reason)

    def _gain(self, seat: int, reason: str, points: int = 0, coins: int = 0) -> None:
        player = self.players_state[seat]
        player.points += points
        player.coins += coins
        if points or coins:
            self.emit("gained", seat=seat, points=points, coins=coins, reason=reason)

    def _gain_bonus(self, seat: int, bonus: Bonus, reason: str) -> None:
        """Points, coins, gem, marker at once; posters scheduled (each is a GP1/GP2 procedure)."""
        self._gain(seat, reason, bonus.points, bonus.coins)
        if bonus.gem:
            self._gain_gem(seat, bonus.gem)
        for _ in range(bonus.marker):
            self._gain_marker(seat, reason)
        self._schedule(*[("gain_poster", seat)] * bonus.poster)

    # ----- setup ----------------------------------------------------------------------------
    def _step_chance(self, kind: str, *args: Any) -> None:
        if kind not in ("start", "dice") and not self._chance_source(kind):
            return
        self.chance = (kind, *args)

    def _chance_start(self, outcome: str) -> None:
        n = self.players
        start = int(outcome.split(":")[1])
        self.start_player = start
        self.emit("start_player", seat=start)
        seats = self._seats_from(start)
        steps: list[Step] = [("chance", "board", seat) for seat in seats]
        steps.append(("setup_masters",))
        steps += [("chance", "master_display", i) for i in range(self.pairs)]
        steps += [("chance", "trainer_display", i) for i in range(self.pairs)]
        steps += [("chance", "trainer_pool")] * self.c.starting_trainer_draw
        steps += [("chance", "tent", colour, index) for colour in DIE_COLOURS for index in self.c.tent_spaces]
        steps += [("chance", "start_poster", seat) for seat in seats]
        steps.append(("refill",))
        steps.append(("setup_players",))
        steps += self._roll_steps()
        steps += [("draft", seat) for seat in [(start - 1 - i) % n for i in range(n)]]
        steps.append(("draft_end",))
        steps.append(("round_start",))
        self._schedule(*steps)

    def _roll_steps(self) -> list[Step]:
        counts = self.c.dice[self.players]
        return [("chance", "dice", colour, count) for colour, count in zip(COLOURS, counts) if count]

    def _chance_board(self, outcome: str, seat: int) -> None:
        self.boards_left.remove(outcome)
        self.players_state[seat].board = outcome
        self.emit("board_dealt", seat=seat, board=outcome)

    def _step_setup_masters(self) -> None:
        if self.draft:
            self._draft_start()
            return
        used = {p.board for p in self.players_state}
        for player in self.players_state:
            player.masters = [m for m in self.c.starting_masters if self.c.masters[m].board == player.board]
        unused = [m for m in self.c.starting_masters if self.c.masters[m].board not in used]
        self.master_deck = list(self.c.regular_masters) + unused

    def _chance_master_display(self, outcome: str, slot: int) -> None:
        self.master_deck.remove(outcome)
        self.display[slot][0] = outcome
        self.emit("display_card", slot=slot + 1, card=outcome)

    def _chance_trainer_display(self, outcome: str, slot: int) -> None:
        self.trainer_deck.remove(outcome)
        self.display[slot][1] = outcome
        self.emit("display_trainer", slot=slot + 1, tile=outcome)

    def _chance_trainer_pool(self, outcome: str) -> None:
        self.trainer_deck.remove(outcome)
        self.draft_pool.append(outcome)
        self.draft_pool.sort()
        self.emit("draft_pool_tile", tile=outcome)

    def _chance_tent(self, outcome: str, colour: str, index: int) -> None:
        self.tents_left.remove(outcome)
        self.track_tents[colour][index] = outcome
        self.emit("tent_set", colour=colour, index=index, tent=outcome)

    def _chance_start_poster(self, outcome: str, seat: int) -> None:
        self.start_posters_left.remove(outcome)
        self.players_state[seat].posters[0] = outcome
        self.emit("start_poster", seat=seat, poster=outcome)

    def _step_setup_players(self) -> None:
        n = self.players
        for seat, player in enumerate(self.players_state):
            board = self.c.boards[player.board]
            coins, markers, gems = board.start_b if self.side_b else board.start_a
            player.coins = coins
            player.markers = markers
            player.gems = list(gems)
            player.tents[0] = self.c.printed_tent
        for offset, seat in enumerate(self._seats_from(self.start_player)):
            self.players_state[seat].hats = [offset, IN_HAND]
        if n >= 2:
            giver = self.start_player
            receiver = (giver - 1) % n
            self.players_state[giver].coins -= self.c.coin_transfer
            self.players_state[receiver].coins += self.c.coin_transfer
            self.emit("coin_handed", giver=giver, receiver=receiver, coins=self.c.coin_transfer)

    def _chance_dice(self, outcome: str, colour: str, count: int) -> None:
        values = [int(v) for v in outcome[2:].split(",")]
        for value in values:
            key = f"{colour}:{value}"
            self.main_tent[key] = self.main_tent.get(key, 0) + 1
        self.emit("dice_rolled", colour=colour, values=values)

    def _step_draft(self, seat: int) -> None:
        if self.draft_pool:
            self._ask("SD1", seat)

    def _options_sd1(self, seat: int) -> list[Option]:
        return [
            Option(f"trainer:{t}", f"take {self.c.trainers[t].name} ({t})", {"kind": "trainer", "trainer": t})
            for t in self.draft_pool
        ]

    def _apply_sd1(self, seat: int, option: Option) -> None:
        tile = option.payload["trainer"]
        self.draft_pool.remove(tile)
        self._add_trainer(seat, tile)
        self.emit("trainer_drafted", seat=seat, tile=tile)

    def _add_trainer(self, seat: int, tile: str) -> None:
        trainers = self.players_state[seat].trainers
        trainers.append(tile)
        trainers.sort()

    def _step_draft_end(self) -> None:
        self.removed_trainers.extend(self.draft_pool)
        if self.draft_pool:
            self.emit("draft_leftovers", tiles=list(self.draft_pool))
        self.draft_pool = []

    # ----- rounds and turns -----------------------------------------------------------------
    def _step_round_start(self) -> None:
        self.round += 1
        self.turn_count = 0
        self.emit("round_start", round=self.round, start_player=self.start_player)
        self._schedule(("turn",))

    def _step_turn(self) -> None:
        if self.turn_count >= 4 * self.players:
            self._schedule(("round_end",))
            return
        seat = (self.start_player + self.turn_count) % self.players
        self.turn = Turn(seat)
        self._ask("TD1", seat)

    def _options_td1(self, seat: int) -> list[Option]:
        tent = self.main_tent
        return [opt.die(key[0], int(key[2])) for key in DIE_KEYS if key in tent]

    def _apply_td1(self, seat: int, option: Option) -> None:
        colour, value = option.payload["colour"], option.payload["value"]
        key = f"{colour}:{value}"
        self.main_tent[key] -= 1
        if not self.main_tent[key]:
            del self.main_tent[key]
        turn = self.turn
        assert turn is not None
        turn.die_colour, turn.die_value = colour, value
        self.emit("die_taken", seat=seat, colour=colour, value=value)
        self._ask("TD2", seat)

    def _options_td2(self, seat: int) -> list[Option]:
        player = self.players_state[seat]
        return [opt.card(card) for card in player.masters if card not in player.dice]

    def _apply_td2(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        turn.card = option.payload["card"]
        self.players_state[seat].dice[turn.card] = (turn.die_colour, turn.die_value)
        self.emit("die_placed", seat=seat, card=turn.card)
        if turn.die_colour == "C":
            self._ask("TD3", seat)
        else:
            turn.acting = turn.die_colour
            self._ask("TD4", seat)

    def _options_td3(self, seat: int) -> list[Option]:
        return [opt.colour(c) for c in DIE_COLOURS]

    def _apply_td3(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        turn.acting = option.payload["colour"]
        self.emit("clear_colour", seat=seat, colour=turn.acting)
        self._ask("TD4", seat)

    def _options_td4(self, seat: int) -> list[Option]:
        return [opt.action(a) for a in ACTIONS]

    def _apply_td4(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        turn.action = option.payload["action"]
        self.emit("action_chosen", seat=seat, action=turn.action)
        self._schedule(("window", "A"))

    def _step_window(self, window: str) -> None:
        assert self.turn is not None
        self._ask("TD5" if window == "A" else "TD6", self.turn.seat)

    def _usable_trainers(self, seat: int, window: str) -> list[str]:
        turn = self.turn
        assert turn is not None
        player = self.players_state[seat]
        display = sorted(t for _, t in self.display if t is not None)
        usable = []
        for tile_id in player.trainers + display:
            tile = self.c.trainers[tile_id]
            if tile_id in turn.trainers_used or tile.cost > player.markers:
                continue
            if window == "A":
                if tile.timing not in ("ANY", "BEFORE", turn.action):
                    continue
            elif tile.timing != "ANY":
                continue
            usable.append(tile_id)
        return usable

    def _master_options(self, seat: int, window: str) -> list[Option]:
        turn = self.turn
        assert turn is not None
        if turn.master_used:
            return []
        card = self.c.masters[turn.card]
        kind = card.bonus
        if window == "B" and kind not in WINDOW_B_MASTER:
            return []
        if kind == "DIE_SHIFT":
            options = []
            if turn.die_value > 1:
                options.append(opt.master(card.id, kind, "-1"))
            if turn.die_value < 6:
                options.append(opt.master(card.id, kind, "+1"))
            return options
        if kind == "GEM_ANY":
            return [opt.master(card.id, kind, c) for c in COLOURS]
        return [opt.master(card.id, kind)]

    def _trainer_options(self, seat: int, window: str) -> list[Option]:
        turn = self.turn
        assert turn is not None
        options = []
        for tile_id in self._usable_trainers(seat, window):
            tile = self.c.trainers[tile_id]
            if tile.effect in ("BUILD_COLOUR", "WAGON_COLOUR"):
                used = any(self.c.trainers[t].effect == tile.effect for t in turn.trainers_used)
                if not used:
                    options += [opt.trainer(tile_id, tile.name, c) for c in DIE_COLOURS]
            elif tile.effect == "DIE_SET":
                options += [opt.trainer(tile_id, tile.name, str(v)) for v in range(1, 7) if v != turn.die_value]
            else:
                options.append(opt.trainer(tile_id, tile.name))
        return options

    def _options_td5(self, seat: int) -> list[Option]:
        turn = self.turn
        assert turn is not None
        player = self.players_state[seat]
        options = [opt.gem_power(c) for c in (turn.acting, "C") if player.gems[COLOUR_INDEX[c]] > 0]
        options += self._master_options(seat, "A")
        options += self._trainer_options(seat, "A")
        options.append(opt.simple("resolve", "resolve the action"))
        return options

    def _options_td6(self, seat: int) -> list[Option]:
        options = self._master_options(seat, "B") + self._trainer_options(seat, "B")
        options.append(opt.simple("end", "end the turn"))
        return options

    def _apply_td5(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        kind = option.payload["kind"]
        if kind == "resolve":
            turn.resolved = True
            self._schedule((turn.action.lower(),), ("window", "B"))
            return
        self._schedule(("window", "A"))
        if kind == "gem_power":
            colour = option.payload["colour"]
            self.players_state[seat].gems[COLOUR_INDEX[colour]] -= 1
            turn.power_bonus += 2
            turn.gems_spent += 1
            self.emit("gem_power", seat=seat, colour=colour)
        else:
            self._use_effect(seat, option)

    def _apply_td6(self, seat: int, option: Option) -> None:
        if option.payload["kind"] == "end":
            self._schedule(("end_turn",))
            return
        self._schedule(("window", "B"))
        self._use_effect(seat, option)

    def _use_effect(self, seat: int, option: Option) -> None:
        """A master bonus or a trainer tile chosen in window A or B; poster gains run before the window returns."""
        turn = self.turn
        assert turn is not None
        payload = option.payload
        player = self.players_state[seat]
        if payload["kind"] == "master":
            turn.master_used = True
            card = self.c.masters[turn.card]
            kind, n = card.bonus, card.bonus_value
            reason = f"master:{card.id}"
            self.emit("master_bonus", seat=seat, card=card.id, choice=option.id)
        else:
            tile = self.c.trainers[payload["trainer"]]
            turn.trainers_used.append(tile.id)
            player.markers -= tile.cost
            player.spent += tile.cost
            kind, n = tile.effect, tile.value
            reason = f"trainer:{tile.id}"
            self.emit("trainer_used", seat=seat, tile=tile.id, choice=option.id)
        if kind == "POWER":
            turn.power_bonus += n
        elif kind == "DIE_SHIFT":
            self._set_die_value(turn.die_value + payload["delta"])
        elif kind == "DIE_FLIP":
            self._set_die_value(7 - turn.die_value)
        elif kind == "DIE_SET":
            self._set_die_value(payload["value"])
        elif kind == "COINS":
            self._gain(seat, reason, coins=n)
        elif kind == "POINTS":
            self._gain(seat, reason, points=n)
        elif kind == "GEM_ANY":
            self._gain_gem(seat, payload["colour"])
        elif kind == "GEM_ACTING":
            for _ in range(max(n, 1)):
                self._gain_gem(seat, turn.acting)
        elif kind == "POSTER":
            self._schedule(("gain_poster", seat))
        elif kind == "EXTRA_SMALL_TILE":
            turn.extra_small += 1
        elif kind == "EXTRA_SHOW":
            turn.extra_show += 1
        elif kind == "POINTS_PER_SHOW":
            turn.points_per_show += n
        elif kind == "BUILD_COLOUR":
            turn.build_colour = payload["colour"]
        elif kind == "WAGON_COLOUR":
            turn.wagon_colour = payload["colour"]
        else:
            raise RuleError(f"magnificent: unknown effect {kind!r}")

    def _step_end_turn(self) -> None:
        assert self.turn is not None
        self.turn = None
        self.turn_count += 1
        self._schedule(("turn",))

    # ----- build ------------------------------------------------------------------------------
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

    # ----- travel -----------------------------------------------------------------------------
    def _step_travel(self) -> None:
        assert self.turn is not None
        self._ask("VD1", self.turn.seat)

    def _options_vd1(self, seat: int) -> list[Option]:
        return [opt.steps(k) for k in range(1, min(self._power(), 12) + 1)]

    def _apply_vd1(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        steps = option.payload["steps"]
        colour = turn.wagon_colour or turn.acting
        start = self.wagons[colour]
        end = (start + steps) % 12
        self.wagons[colour] = end
        self.emit("wagon_moved", seat=seat, colour=colour, start=start, end=end, steps=steps)
        self._schedule(*[("space", seat, colour, (start + i) % 12, i == steps) for i in range(1, steps + 1)])

    def _step_space(self, seat: int, colour: str, index: int, landing: bool) -> None:
        gem = self.c.track_spaces[colour][index]
        if gem is not None:
            self._gain_gem(seat, gem)
            return
        tent = self.track_tents[colour][index]
        if tent is None:
            self._schedule(("gain_poster", seat))
        elif landing and None in self.players_state[seat].tents[1:]:
            assert self.turn is not None
            self.turn.tent_space = (colour, index)
            self._ask("VD2", seat)

    def _options_vd2(self, seat: int) -> list[Option]:
        assert self.turn is not None
        options = [opt.slot("tent_slot", s + 1) for s, held in enumerate(self.players_state[seat].tents) if held is None and s > 0]
        options.append(opt.simple("decline", "leave the tent on the track"))
        return options

    def _apply_vd2(self, seat: int, option: Option) -> None:
        assert self.turn is not None
        if option.payload["kind"] == "decline":
            return
        colour, index = self.turn.tent_space
        slot = option.payload["slot"]
        tent = self.track_tents[colour][index]
        self.track_tents[colour][index] = None
        self.players_state[seat].tents[slot - 1] = tent
        self.emit("tent_taken", seat=seat, tent=tent, colour=colour, index=index, slot=slot)
        self._gain_bonus(seat, self.c.tent_slot_bonus[slot], f"tent_slot:{slot}")

    # ----- perform ----------------------------------------------------------------------------
    def _occupied(self) -> set[int]:
        return {hat for p in self.players_state for hat in p.hats if hat >= FIRST_SHOW}

    def _moving_hat(self, seat: int) -> int:
        hats = self.players_state[seat].hats
        for i, hat in enumerate(hats):
            if 0 <= hat < FIRST_SHOW:
                return i
        for i, hat in enumerate(hats):
            if hat == IN_HAND:
                return i
        return 0 if hats[0] < hats[1] else 1

    def _show_spaces(self) -> list[int]:
        power = self._power()
        occupied = self._occupied()
        return [s.space for s in self.c.show_spaces if s.power <= power and show_position(s.space) not in occupied]

    def _step_perform(self) -> None:
        turn = self.turn
        assert turn is not None
        if self._show_spaces():
            turn.hat = self._moving_hat(turn.seat)
            self._ask("PD1", turn.seat)
        else:
            self.emit("no_show", seat=turn.seat)

    def _options_pd1(self, seat: int) -> list[Option]:
        return [opt.space(m, self.c.show_spaces[m - 1].shows) for m in self._show_spaces()]

    def _apply_pd1(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        space = option.payload["space"]
        self.players_state[seat].hats[turn.hat] = show_position(space)
        turn.shows = self.c.show_spaces[space - 1].shows + turn.extra_show
        self.emit("hat_moved", seat=seat, space=space, shows=turn.shows)
        self._ask("PD2", seat)

    def _completable(self, player: Player, slots: Sequence[int], tiles: Mapping[str, int]) -> bool:
        need: dict[str, int] = {}
        required = [0, 0, 0]
        extra = 0
        for slot in slots:
            poster = self.c.posters[player.posters[slot]]  # type: ignore[index]
            for tile in poster.tiles:
                need[tile] = need.get(tile, 0) + 1
            for i in range(3):
                required[i] += poster.gems[i]
            extra += self.c.tents[player.tents[slot]].extra_gems  # type: ignore[index]
        for tile, count in need.items():
            if tiles.get(tile, 0) < count:
                return False
        gems = player.gems
        shortfall = sum(max(0, required[i] - gems[i]) for i in range(3))
        return shortfall <= gems[3] and sum(required) + extra <= sum(gems)

    def _poster_sets(self, seat: int) -> list[tuple[int, ...]]:
        turn = self.turn
        assert turn is not None
        player = self.players_state[seat]
        tiles = player.tile_counts()
        candidates = [s for s in range(5) if player.posters[s] is not None and player.tents[s] is not None]
        sets: list[tuple[int, ...]] = [()]
        for size in range(1, min(turn.shows, len(candidates)) + 1):
            for combo in combinations(candidates, size):
                if self._completable(player, combo, tiles):
                    sets.append(combo)
        return sorted(sets)

    def _options_pd2(self, seat: int) -> list[Option]:
        player = self.players_state[seat]
        options = []
        for combo in self._poster_sets(seat):
            slots = [s + 1 for s in combo]
            text = ",".join(str(s) for s in slots) or "-"
            names = ", ".join(str(player.posters[s]) for s in combo) or "no poster"
            options.append(Option(f"posters:{text}", f"complete {names}", {"kind": "posters", "slots": slots}))
        return options

    def _apply_pd2(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        player = self.players_state[seat]
        turn.chosen = [s - 1 for s in option.payload["slots"]]
        required = [0, 0, 0]
        extra = 0
        for slot in turn.chosen:
            poster = self.c.posters[player.posters[slot]]  # type: ignore[index]
            for i in range(3):
                required[i] += poster.gems[i]
            extra += self.c.tents[player.tents[slot]].extra_gems  # type: ignore[index]
        paid = [0, 0, 0, 0]
        for i in range(3):
            own = min(required[i], player.gems[i])
            paid[i] += own
            paid[3] += required[i] - own
        for i in range(4):
            player.gems[i] -= paid[i]
        self.emit(
            "posters_chosen",
            seat=seat,
            slots=[s + 1 for s in turn.chosen],
            paid={c: paid[i] for i, c in enumerate(COLOURS)},
        )
        turn.extra_gems_due = extra
        steps: list[Step] = [("extra_gem",)] if extra else []
        self._schedule(*steps, ("perform_gain",), ("arrange",))

    def _step_extra_gem(self) -> None:
        assert self.turn is not None
        self._ask("PD3", self.turn.seat)

    def _options_pd3(self, seat: int) -> list[Option]:
        gems = self.players_state[seat].gems
        return [opt.pay(c) for c in COLOURS if gems[COLOUR_INDEX[c]]]

    def _apply_pd3(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        colour = option.payload["colour"]
        self.players_state[seat].gems[COLOUR_INDEX[colour]] -= 1
        turn.extra_gems_due -= 1
        self.emit("extra_gem_paid", seat=seat, colour=colour)
        if turn.extra_gems_due:
            self._schedule(("extra_gem",))

    def _step_perform_gain(self) -> None:
        turn = self.turn
        assert turn is not None
        player = self.players_state[turn.seat]
        points = coins = 0
        done = []
        for slot in turn.chosen:
            poster = self.c.posters[player.posters[slot]]  # type: ignore[index]
            tent = self.c.tents[player.tents[slot]]  # type: ignore[index]
            points += poster.points + tent.points + turn.points_per_show
            coins += poster.coins + tent.coins
            done.append(poster.id)
            player.completed.append(poster.id)
            player.posters[slot] = None
        player.points += points
        player.coins += coins
        self.emit("posters_completed", seat=turn.seat, posters=done, points=points, coins=coins)

    def _step_arrange(self) -> None:
        turn = self.turn
        assert turn is not None
        posters = self.players_state[turn.seat].posters
        if None in posters and any(p is not None for p in posters):
            self._ask("PD4", turn.seat)

    def _options_pd4(self, seat: int) -> list[Option]:
        count = sum(1 for p in self.players_state[seat].posters if p is not None)
        return list(_arrangements(count))

    def _apply_pd4(self, seat: int, option: Option) -> None:
        player = self.players_state[seat]
        posters = [p for p in player.posters if p is not None]
        arranged: list[str | None] = [None] * 5
        for poster, slot in zip(posters, option.payload["slots"]):
            arranged[slot - 1] = poster
        player.posters = arranged
        self.emit("posters_arranged", seat=seat, posters=[p or "" for p in arranged])

    # ----- gaining a poster (§4.7) ------------------------------------------------------------
    def _step_gain_poster(self, seat: int) -> None:
        full = None not in self.players_state[seat].posters
        if full or self.poster_deck or self.poster_discard or any(self.poster_display):
            self._ask("GP1", seat)
        else:
            self.emit("poster_lost", seat=seat)

    def _options_gp1(self, seat: int) -> list[Option]:
        options = []
        if self.poster_deck or self.poster_discard:
            options.append(Option("deck", "draw the top poster of the deck", {"kind": "deck"}))
        for i, poster in enumerate(self.poster_display):
            if poster is not None:
                options.append(Option(f"display:{i + 1}", f"take {poster}", {"kind": "display", "slot": i + 1, "poster": poster}))
        if None not in self.players_state[seat].posters:
            options.append(Option("decline", "take no poster", {"kind": "decline"}))
        return options

    def _reshuffle_if_needed(self) -> None:
        if not self.poster_deck and self.poster_discard:
            self.poster_deck = sorted(self.poster_discard)
            self.poster_discard = []
            self.emit("posters_reshuffled", size=len(self.poster_deck))

    def _apply_gp1(self, seat: int, option: Option) -> None:
        kind = option.payload["kind"]
        if kind == "decline":
            self.emit("poster_declined", seat=seat)
        elif kind == "deck":
            self._reshuffle_if_needed()
            self._schedule(("chance", "poster_draw", seat), ("gp2", seat))
        else:
            slot = option.payload["slot"]
            self.poster_in_hand = self.poster_display[slot - 1]  # type: ignore[assignment]
            self.poster_display[slot - 1] = None
            self.emit("poster_taken", seat=seat, slot=slot, poster=self.poster_in_hand)
            self._schedule(("refill",), ("gp2", seat))

    def _chance_poster_draw(self, outcome: str, seat: int) -> None:
        self.poster_deck.remove(outcome)
        self.poster_in_hand = outcome
        self.emit("poster_drawn", seat=seat, poster=outcome)

    def _step_refill(self) -> None:
        for slot, poster in enumerate(self.poster_display):
            if poster is None:
                self._reshuffle_if_needed()
                if self.poster_deck:
                    self._schedule(("refill",))
                    self.chance = ("poster_display", slot)
                return

    def _chance_poster_display(self, outcome: str, slot: int) -> None:
        self.poster_deck.remove(outcome)
        self.poster_display[slot] = outcome
        self.emit("display_poster", slot=slot + 1, poster=outcome)

    def _step_gp2(self, seat: int) -> None:
        self._ask("GP2", seat)

    def _options_gp2(self, seat: int) -> list[Option]:
        posters = self.players_state[seat].posters
        new = self.poster_in_hand
        if None in posters:
            return [
                Option(f"slot:{s + 1}", f"put {new} in poster slot {s + 1}", {"kind": "slot", "slot": s + 1})
                for s, held in enumerate(posters)
                if held is None
            ]
        options = [
            Option(f"replace:{s + 1}", f"replace {posters[s]} with {new}", {"kind": "replace", "slot": s + 1})
            for s in range(5)
        ]
        options.append(Option("discard", f"discard {new}", {"kind": "discard"}))
        return options

    def _apply_gp2(self, seat: int, option: Option) -> None:
        posters = self.players_state[seat].posters
        new = self.poster_in_hand
        self.poster_in_hand = ""
        kind = option.payload["kind"]
        if kind == "discard":
            self.poster_discard.append(new)
            self.emit("poster_discarded", seat=seat, poster=new)
            return
        slot = option.payload["slot"]
        old = posters[slot - 1]
        if old is not None:
            self.poster_discard.append(old)
            self.emit("poster_discarded", seat=seat, poster=old)
        posters[slot - 1] = new
        self.emit("poster_placed", seat=seat, slot=slot, poster=new)

    # ----- round end (§4.10) ------------------------------------------------------------------
    def _step_round_end(self) -> None:
        penalty = self.c.penalty[self.round]
        for seat, player in enumerate(self.players_state):
            due = scoring.payment_due(player)
            paid = min(player.coins, due)
            missing = due - paid
            player.coins -= paid
            player.points -= missing * penalty
            self.emit("payment", seat=seat, due=due, paid=paid, penalty=missing * penalty)
        for seat, player in enumerate(self.players_state):
            if player.hats[0] >= FIRST_SHOW and player.hats[1] >= FIRST_SHOW:
                lower = 0 if player.hats[0] < player.hats[1] else 1
                self.emit("hat_returned", seat=seat, position=player.hats[lower] - FIRST_SHOW + 1)
                player.hats[lower] = IN_HAND
        order = sorted(range(self.players), key=lambda s: -max(self.players_state[s].hats))
        steps: list[Step] = [("pair", seat) for seat in order]
        steps.append(("score_masters",))
        steps.append(("round_prep",) if self.round < 3 else ("game_end",))
        self._schedule(*steps)

    def _step_pair(self, seat: int) -> None:
        if any(m is not None or t is not None for m, t in self.display):
            self._ask("RD1", seat)

    def _options_rd1(self, seat: int) -> list[Option]:
        return [
            Option(f"pair:{i + 1}", f"take {m} and {t}", {"kind": "pair", "slot": i + 1, "card": m or "", "trainer": t or ""})
            for i, (m, t) in enumerate(self.display)
            if m is not None or t is not None
        ]

    def _apply_rd1(self, seat: int, option: Option) -> None:
        slot = option.payload["slot"]
        card, tile = self.display[slot - 1]
        self.display[slot - 1] = [None, None]
        player = self.players_state[seat]
        if card is not None:
            player.masters.append(card)
            player.masters.sort(key=lambda m: self.c.masters[m].order)
        if tile is not None:
            self._add_trainer(seat, tile)
        self.emit("pair_taken", seat=seat, slot=slot, card=card or "", tile=tile or "")

    def _step_score_masters(self) -> None:
        self.pending = ("RD2", -1)

    def _options_rd2(self, seat: int) -> list[Option]:
        player = self.players_state[seat]
        return [
            Option(
                f"score:{card}",
                f"score {card} for {scoring.master_value(self.c, self.c.masters[card], player)}",
                {"kind": "score", "card": card},
            )
            for card in player.masters
        ]

    def _apply_rd2(self, chosen: Mapping[Seat, Option]) -> None:
        for seat in sorted(chosen):
            card = chosen[seat].payload["card"]
            player = self.players_state[seat]
            value = scoring.master_value(self.c, self.c.masters[card], player)
            player.points += value
            player.masters.remove(card)
            self.emit("master_scored", seat=seat, card=card, points=value)

    def _step_round_prep(self) -> None:
        for player in self.players_state:
            player.markers += player.spent
            player.spent = 0
        leftovers = [x for pair in self.display for x in pair if x is not None]
        if leftovers:
            self.emit("display_cleared", removed=leftovers)
        self.display = [[None, None] for _ in range(self.pairs)]
        hats = sorted(
            ((hat, seat, i) for seat, p in enumerate(self.players_state) for i, hat in enumerate(p.hats) if hat != IN_HAND)
        )
        for position, (_, seat, i) in enumerate(hats):
            self.players_state[seat].hats[i] = position
        self.start_player = hats[0][1]
        for player in self.players_state:
            player.dice = {}
        self.main_tent = {}
        self.emit("hats_reset", order=[seat for _, seat, _ in hats])
        steps: list[Step] = [("chance", "master_display", i) for i in range(self.pairs)]
        steps += [("chance", "trainer_display", i) for i in range(self.pairs)]
        steps += self._roll_steps()
        steps.append(("round_start",))
        self._schedule(*steps)

    def _step_game_end(self) -> None:
        self.final = [scoring.final_breakdown(self.c, p) for p in self.players_state]
        self.over = True
        self.turn = None
        scores = [entry["total"] for entry in self.final]
        ranks = scoring.final_ranks(scores, self.players_state)
        self.emit("game_end", scores=scores, ranks=list(ranks))

    # dispatch tables ----------------------------------------------------------------------
    _STEPS: dict[str, Callable[..., None]] = {
        "chance": _step_chance,
        "setup_masters": _step_setup_masters,
        "setup_players": _step_setup_players,
        "draft_hands": DraftMixin._step_draft_hands,
        "draft_pick": DraftMixin._step_draft_pick,
        "draft": _step_draft,
        "draft_end": _step_draft_end,
        "round_start": _step_round_start,
        "turn": _step_turn,
        "window": _step_window,
        "end_turn": _step_end_turn,
        "build": _step_build,
        "build_tile": _step_build_tile,
        "bonus": _step_bonus,
        "travel": _step_travel,
        "space": _step_space,
        "perform": _step_perform,
        "extra_gem": _step_extra_gem,
        "perform_gain": _step_perform_gain,
        "arrange": _step_arrange,
        "gain_poster": _step_gain_poster,
        "refill": _step_refill,
        "gp2": _step_gp2,
        "round_end": _step_round_end,
        "pair": _step_pair,
        "score_masters": _step_score_masters,
        "round_prep": _step_round_prep,
        "game_end": _step_game_end,
    }
    _CHANCE: dict[str, Callable[..., None]] = {
        "start": _chance_start,
        "board": _chance_board,
        "master_deal": DraftMixin._chance_master_deal,
        "master_display": _chance_master_display,
        "trainer_display": _chance_trainer_display,
        "trainer_pool": _chance_trainer_pool,
        "tent": _chance_tent,
        "start_poster": _chance_start_poster,
        "dice": _chance_dice,
        "poster_draw": _chance_poster_draw,
        "poster_display": _chance_poster_display,
    }
    _OPTIONS: dict[str, Callable[..., list[Option]]] = {
        "SD1": _options_sd1,
        "SD2": DraftMixin._options_sd2,
        "TD1": _options_td1,
        "TD2": _options_td2,
        "TD3": _options_td3,
        "TD4": _options_td4,
        "TD5": _options_td5,
        "TD6": _options_td6,
        "BD1": _options_bd1,
        "BD2": _options_bd2,
        "BD3": _options_bd3,
        "BD4": _options_bd4,
        "VD1": _options_vd1,
        "VD2": _options_vd2,
        "PD1": _options_pd1,
        "PD2": _options_pd2,
        "PD3": _options_pd3,
        "PD4": _options_pd4,
        "GP1": _options_gp1,
        "GP2": _options_gp2,
        "RD1": _options_rd1,
        "RD2": _options_rd2,
    }
    _APPLY: dict[str, Callable[..., None]] = {
        "SD1": _apply_sd1,
        "TD1": _apply_td1,
        "TD2": _apply_td2,
        "TD3": _apply_td3,
        "TD4": _apply_td4,
        "TD5": _apply_td5,
        "TD6": _apply_td6,
        "BD1": _apply_bd1,
        "BD2": _apply_bd2,
        "BD3": _apply_bd3,
        "BD4": _apply_bd4,
        "VD1": _apply_vd1,
        "VD2": _apply_vd2,
        "PD1": _apply_pd1,
        "PD2": _apply_pd2,
        "PD3": _apply_pd3,
        "PD4": _apply_pd4,
        "GP1": _apply_gp1,
        "GP2": _apply_gp2,
        "RD1": _apply_rd1,
    }
