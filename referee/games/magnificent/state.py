"""The Magnificent's rules: a game state driven by a stack of pending steps, decisions and chance draws.

Every resolution that can be interrupted (a poster gain in the middle of a build or a travel, a deck
draw, a display refill) is a step on `stack`; `_run` executes steps until a decision or a chance node
is pending or the game is over. Decisions carry the spec's codes (TD1..TD6, BD1..BD4, VD1..VD2,
PD1..PD4, GP1..GP2, SD1..SD2, RD1..RD2). Each part of the rules is a module of functions of the state
(setup, turn, build, travel, perform, posters, round_end, draft); steps, chance kinds, options and
applications are found by name in `RULES` (`step_<name>`, `chance_<kind>`, `options_<code>`, `apply_<code>`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Self

from referee.chance import uniform_outcomes
from referee.engine import ChanceOutcome, Game, GameConfig, GameResult, GameState, Option, Seat
from referee.errors import RuleError
from referee.games.magnificent import build, draft, perform, posters, round_end, scoring, setup, travel, turn
from referee.games.magnificent.data import COLOUR_INDEX, DIE_COLOURS, TILE_TYPES, Bonus, Components
from referee.games.magnificent.dice import roll_outcomes
from referee.games.magnificent.model import Player, Turn

if TYPE_CHECKING:
    from referee.games.magnificent.game import MagnificentGame

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
#: Decisions every seat takes at once.
SIMULTANEOUS = ("RD2", "SD2")
#: The methods listing and applying each decision's options (found by name, looked up once).
Step = tuple[Any, ...]


class MagnificentState(GameState):
    """One game of The Magnificent in progress."""

    game: MagnificentGame

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
        #: What changed: a fresh token replaces a part's wherever that part changes, copied by clone, so views and
        #: observations find a part they wrote before by its token alone (`TOKENS` names what each one covers).
        self.renew_tokens()
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
                self._outcomes = _one_of_each(self._chance_source(kind))
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
        if self.pending[0] in SIMULTANEOUS:
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
        cached = self._options.get(seat)  # only ever holds the seats deciding now
        if cached is not None:
            return cached
        if seat not in self.deciding_seats():
            return []
        assert self.pending is not None
        cached = RULES[OPTIONS_OF[self.pending[0]]](self, seat)
        if not cached:
            raise RuleError(f"magnificent: no legal option at {self.pending[0]} for seat {seat}")
        self._options[seat] = cached
        return cached

    def apply_decisions(self, choices: Mapping[Seat, str]) -> None:
        """Apply the options chosen; a one-seat decision is checked against the cached options directly.

        Anything else (a simultaneous decision, a wrong seat, an illegal id) goes to the base class.
        """
        pending = self.pending
        if pending is not None and len(choices) == 1 and pending[0] not in SIMULTANEOUS and not self.over:
            seat = pending[1]
            option_id = choices.get(seat)
            for option in self.legal_options(seat):
                if option.id == option_id:
                    self._apply_decisions({seat: option})
                    return
        super().apply_decisions(choices)

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        assert self.chance is not None
        chance, self.chance = self.chance, None
        self._options = {}
        self._outcomes = None
        RULES["chance_" + chance[0]](self, outcome.id, *chance[1:])
        self._run()

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        assert self.pending is not None
        code = self.pending[0]
        self.pending = None
        self._options = {}
        self._outcomes = None
        if code == "RD2":
            round_end.apply_rd2(self, chosen)
        elif code == "SD2":
            draft.apply_sd2(self, chosen)
        else:
            ((seat, option),) = chosen.items()
            RULES[APPLY_OF[code]](self, seat, option)
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
        twin.player_tokens = self.player_tokens.copy()
        return twin

    def renew_tokens(self) -> None:
        """A fresh token for every part: at the start, and after the state was edited from outside the rules (as a position is read)."""
        self.player_tokens: list[object] = [object() for _ in range(self.players)]
        self.tent_token = object()
        self.display_token = object()
        self.poster_token = object()
        self.deck_token = object()
        self.track_token = object()
        self.supply_token = object()
        self.turn_token = object()
        self.draft_token = object()

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """A clone with the draft cards `seat` has not seen redrawn (the only secrets; decks stay chance nodes)."""
        twin = self.clone()
        if self.draft:
            draft._determinize_draft(twin, seat, rng)
            twin.draft_token = twin.deck_token = object()  # the hands, picks and master deck redrawn
            twin._options = {}
            twin._outcomes = None
        return twin

    def private_view(self, seat: Seat) -> dict[str, Any]:
        """Everything is public in this game (§5); the seat's view is the public view plus its seat."""
        return self.game.build_view(self, seat)  # views.py (the state never imports its views)

    def public_view(self) -> dict[str, Any]:
        """The spectator's view: every public field (§5)."""
        return self.game.build_view(self, None)

    # ----- the step machine --------------------------------------------------------------
    def _schedule(self, *steps: Step) -> None:
        """Run `steps` next, in the given order, before anything already pending."""
        self.stack.extend(reversed(steps))

    def _run(self) -> None:
        while self.pending is None and self.chance is None and self.stack:
            step = self.stack.pop()
            RULES["step_" + step[0]](self, *step[1:])

    def _ask(self, code: str, seat: int) -> None:
        self.pending = (code, seat)

    # helpers -----------------------------------------------------------------------------
    def _legal_placements(self, seat: int, tile_type: str) -> list[Any]:
        """Where `seat` may lay a tile of this type now (build.py; kept on the state for its callers)."""
        return build.legal_placements(self, seat, tile_type)

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
        self.turn_token = self.player_tokens[turn.seat] = object()

    def _gain_gem(self, seat: int, colour: str) -> None:
        player = self.players_state[seat]
        self.player_tokens[seat] = object()
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
            self.player_tokens[seat] = object()
            self.emit("marker_gained", seat=seat, reason=reason)

    def _gain(self, seat: int, reason: str, points: int = 0, coins: int = 0) -> None:
        player = self.players_state[seat]
        player.points += points
        player.coins += coins
        if points or coins:
            self.player_tokens[seat] = object()
            self.emit("gained", seat=seat, points=points, coins=coins, reason=reason)

    def _gain_bonus(self, seat: int, bonus: Bonus, reason: str) -> None:
        """Points, coins, gem, marker at once; posters scheduled (each is a GP1/GP2 procedure)."""
        self._gain(seat, reason, bonus.points, bonus.coins)
        if bonus.gem:
            self._gain_gem(seat, bonus.gem)
        for _ in range(bonus.marker):
            self._gain_marker(seat, reason)
        self._schedule(*[("gain_poster", seat)] * bonus.poster)

    def _step_chance(self, kind: str, *args: Any) -> None:
        if kind not in ("start", "dice") and not self._chance_source(kind):
            return
        self.chance = (kind, *args)


def _one_of_each(source: Iterable[str]) -> list[ChanceOutcome]:
    """One of the distinct ids left, sorted, each equally likely (`draw_outcomes` with one of each)."""
    ids = sorted(set(source))
    distinct = len(ids)
    return [_one_of(item_id, distinct) for item_id in ids]


@cache
def _one_of(item_id: str, distinct: int) -> ChanceOutcome:
    """Drawing `item_id` among this many: few distinct pairs, so each is built once and shared."""
    return ChanceOutcome(item_id, 1 / distinct)


#: Every part of the rules by name, from its module (setup, turn, build, travel, perform, posters, round_end,
#: draft) and the state's own chance step: each is a function of the state, found by the step, chance kind or
#: decision code (`step_<name>`, `chance_<kind>`, `options_<code>`, `apply_<code>`).
RULES: dict[str, Callable[..., Any]] = {
    name: function
    for module in (setup, turn, build, travel, perform, posters, round_end, draft)
    for name, function in vars(module).items()
    if name.lstrip("_").startswith(("step_", "chance_", "options_", "apply_")) and callable(function)
}
RULES = {name.lstrip("_"): function for name, function in RULES.items()}
RULES["step_chance"] = MagnificentState._step_chance
OPTIONS_OF = {code: "options_" + code.lower() for code in DECISION_NAMES}
APPLY_OF = {code: "apply_" + code.lower() for code in DECISION_NAMES}

#: Each change token of a state and the state's fields it covers (a part changed by the rules gets a fresh token):
#: `player_tokens[seat]` covers every field of `players_state[seat]`.
TOKENS: dict[str, tuple[str, ...]] = {
    "tent_token": ("main_tent",),
    "display_token": ("display",),
    "poster_token": ("poster_display", "poster_deck", "poster_discard", "poster_in_hand"),
    "deck_token": ("master_deck", "trainer_deck", "draft_pool", "removed_trainers"),
    "track_token": ("track_tents", "wagons"),
    "supply_token": ("supply",),
    "turn_token": ("turn",),
    "draft_token": ("draft_hands", "draft_history", "draft_picks", "draft_removed", "draft_round"),
}
