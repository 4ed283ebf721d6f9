"""Underground Dice rules: setup, rounds (set, stake, guess, reveal, settle), transfers, bankruptcy and the end."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from math import comb
from typing import TYPE_CHECKING, Any, Self

from referee.engine import ChanceOutcome, GameConfig, GameResult, GameState, Option, Seat
from referee.errors import GameOverError, NotDecidingError, RuleError
from referee.games.underground_dice.data import Components
from referee.games.underground_dice.options import OptionTables
from referee.games.underground_dice.scoring import final_result, hand_value

if TYPE_CHECKING:
    from referee.games.underground_dice.game import UndergroundDiceGame

# Phases: two chance phases of setup, the seven decision points, and the end.
DEAL = "deal"
FIRST_PARENT = "first_parent"
SET_PINS = "set_pins"
SET_FACES = "set_faces"
STAKE = "stake"
STAKE_FAKES = "stake_fakes"
GUESS = "guess"
PAY_FAKES = "pay_fakes"
ACCEPT_OR_ACCUSE = "accept_or_accuse"
OVER = "over"
CHANCE_PHASES = (DEAL, FIRST_PARENT)

CANNOT_PAY = "cannot_pay"
NO_BILLS = "no_bills"


def deal_outcomes(bills: int, counterfeits: int, hand: int) -> list[ChanceOutcome]:
    """Counterfeits in a hand of `hand` bills dealt from `bills` shuffled bills holding `counterfeits` (hypergeometric)."""
    total = comb(bills, hand)
    outcomes = []
    for fakes in range(0, min(counterfeits, hand) + 1):
        ways = comb(counterfeits, fakes) * comb(bills - counterfeits, hand - fakes)
        if ways:
            outcomes.append(ChanceOutcome(f"counterfeits:{fakes}", ways / total, f"{fakes} counterfeit bills"))
    return outcomes


def known(seat: Seat | None) -> Seat:
    """The seat, which the current phase guarantees is set (a RuleError names the broken invariant otherwise)."""
    if seat is None:
        raise RuleError("underground_dice: no seat holds this role in the current phase")
    return seat


class UndergroundDiceState(GameState):
    """One game of Underground Dice. Hands are genuine/counterfeit counts; the pot holds one group of bills at most."""

    game: UndergroundDiceGame

    def __init__(self, game: UndergroundDiceGame, config: GameConfig, data: Components, tables: OptionTables) -> None:
        super().__init__(game, config)
        variants = config.variants
        self.data = data
        self.tables = tables
        self.counterfeit: bool = bool(variants["counterfeit"])
        self.stake_cap: int | None = variants["stake_cap"]
        self.until_bankruptcy: bool = bool(variants["until_bankruptcy"])
        self.max_parent_turns: int = variants["max_parent_turns"]
        self.first_parent_flag: Any = variants["first_parent"]

        self.phase = DEAL if self.counterfeit else FIRST_PARENT
        # Hands: bills are genuine[s] + fakes[s]; in the base game every bill is genuine.
        self.genuine = [data.bills_per_player, data.bills_per_player]
        self.fakes = [0, 0]
        self.dealt_fakes: list[int | None] = [None, None]  # counterfeits each seat was dealt
        self.set_aside_fakes: int | None = None
        self.parent: Seat | None = None
        self.completed = [0, 0]
        self.turns_done = 0
        self.turn_number = 0  # the current parent turn, 1-based; 0 before the first
        self.p = data.pin_count
        self.q = data.shigoro_count
        self.used_dice: tuple[tuple[str, int], ...] = ()
        # The current round.
        self.pins_set: int | None = None
        self.faces_set: str | None = None
        self.announced: int | None = None
        self.stake: int | None = None
        self.guess: int | None = None
        self.revealed_total: int | None = None
        self.hit: bool | None = None
        # The pot: at most one group of bills on the table, owned by `pot_owner`.
        self.pot = 0
        self.pot_fakes = 0
        self.pot_owner: Seat | None = None
        # A transfer in progress (4.2).
        self.giver: Seat | None = None
        self.receiver: Seat | None = None
        self.amount = 0
        self.from_stake = False
        # Groups whose f became public (accept or accuse): (giver, receiver, amount, fakes, accepted).
        self.revealed_groups: tuple[tuple[Seat, Seat, int, int, bool], ...] = ()
        self.bankrupt: Seat | None = None
        self.bankrupt_reason: str | None = None
        self._result: GameResult | None = None
        if not self.counterfeit and self.first_parent_flag != "random":
            self._begin(int(self.first_parent_flag))

    # ----- node kind -----------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        """True during setup's deal and random first-parent draw."""
        return self.phase in CHANCE_PHASES

    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        """The counterfeits in the next dealt hand, or the first parent's seat."""
        data = self.data
        if self.phase == DEAL:
            if self.dealt_fakes[0] is None:
                return deal_outcomes(data.bills_total, data.counterfeit_count, data.bills_per_player)
            remaining = data.bills_total - data.bills_per_player
            return deal_outcomes(remaining, data.counterfeit_count - self.dealt_fakes[0], data.bills_per_player)
        if self.phase == FIRST_PARENT:
            return [ChanceOutcome("parent:0", 0.5, "P0 is the first parent"), ChanceOutcome("parent:1", 0.5, "P1 is the first parent")]
        return []

    def deciding_seats(self) -> tuple[Seat, ...]:
        """The one seat that decides now (parent, child, giver or receiver)."""
        seat = self._decider()
        return () if seat is None else (seat,)

    def _decider(self) -> Seat | None:
        phase = self.phase
        if phase in (SET_PINS, SET_FACES):
            return self.parent
        if phase in (STAKE, STAKE_FAKES, GUESS):
            return self.child
        if phase == PAY_FAKES:
            return self.giver
        if phase == ACCEPT_OR_ACCUSE:
            return self.receiver
        return None

    def decision_name(self, seat: Seat) -> str:
        """The decision point `seat` faces now."""
        if seat != self._decider():
            raise NotDecidingError(f"underground_dice: seat {seat} is not deciding (phase {self.phase})")
        return self.phase

    def legal_options(self, seat: Seat) -> Sequence[Option]:
        """The seat's legal options in the spec's order."""
        if seat != self._decider():
            raise NotDecidingError(f"underground_dice: seat {seat} is not deciding (phase {self.phase})")
        tables = self.tables
        phase = self.phase
        if phase == SET_PINS:
            return tables.pins[(self.p, self.q)]
        if phase == SET_FACES:
            return tables.faces[(self.q, bool(self.pins_set))]
        if phase == STAKE:
            most = self.hand(self.child)
            if self.stake_cap is not None:
                most = min(most, self.stake_cap)
            return tables.stakes[: most - self.data.min_stake + 1]
        if phase == STAKE_FAKES:
            low, high = self.fakes_range(self.child, self.stake or 0)
            return tables.fakes[low : high + 1]
        if phase == GUESS:
            return tables.guesses[(self.p, self.q, self.announced or 0)]
        if phase == PAY_FAKES:
            low, high = self.fakes_range(self.giver, self.amount)
            return tables.fakes[low : high + 1]
        return tables.accept_or_accuse

    # ----- derived facts ---------------------------------------------------------------
    @property
    def child(self) -> Seat | None:
        return None if self.parent is None else 1 - self.parent

    def hand(self, seat: Seat | None) -> int:
        """Bills in the seat's hand now (a stake whose make-up is not chosen yet is already in the pot)."""
        if seat is None:
            return 0
        bills = self.genuine[seat] + self.fakes[seat]
        if self.phase == STAKE_FAKES and seat == self.child:
            bills -= self.stake or 0
        return bills

    def fakes_range(self, seat: Seat | None, amount: int) -> tuple[int, int]:
        """The legal counterfeit counts of a group of `amount` bills from `seat`'s genuine/counterfeit split."""
        if seat is None:
            raise RuleError("underground_dice: no seat owes a group of bills")
        return max(0, amount - self.genuine[seat]), min(amount, self.fakes[seat])

    def score(self, seat: Seat) -> int:
        """Hand value in P (scoring.py)."""
        return hand_value(self.data, self.counterfeit, self.genuine[seat], self.fakes[seat])

    # ----- applying ----------------------------------------------------------------------
    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        _, _, value = outcome.id.partition(":")
        if self.phase == DEAL:
            seat = 0 if self.dealt_fakes[0] is None else 1
            fakes = int(value)
            self.dealt_fakes[seat] = fakes
            self.fakes[seat] = fakes
            self.genuine[seat] = self.data.bills_per_player - fakes
            self.emit("counterfeit_dealt", to=seat, seat=seat, genuine=self.genuine[seat], counterfeit=fakes)
            if seat == 1:
                self.set_aside_fakes = self.data.counterfeit_count - self.fakes[0] - fakes
                if self.first_parent_flag == "random":
                    self.phase = FIRST_PARENT
                else:
                    self._begin(int(self.first_parent_flag))
            return
        self._begin(int(value))

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        ((_, option),) = chosen.items()
        payload = option.payload
        phase = self.phase
        if phase == SET_PINS:
            self.pins_set = payload["pins"]
            self.phase = SET_FACES
        elif phase == SET_FACES:
            self._announce(payload["faces"])
        elif phase == STAKE:
            self._stake(payload["stake"])
        elif phase == STAKE_FAKES:
            self._split_stake(payload["fakes"])
        elif phase == GUESS:
            self.guess = payload["guess"]
            self.emit("guess", guess=self.guess)
            self._reveal()
        elif phase == PAY_FAKES:
            self._offer_group(payload["fakes"])
        elif phase == ACCEPT_OR_ACCUSE:
            if payload["accuse"]:
                self._accuse()
            else:
                self._accept()

    # ----- setup and turns -------------------------------------------------------------
    def _begin(self, first_parent: Seat) -> None:
        self.parent = first_parent
        self.emit("game_start", first_parent=first_parent, hands=[self.hand(0), self.hand(1)])
        self._start_parent_turn()

    def _start_parent_turn(self) -> None:
        self.p = self.data.pin_count
        self.q = self.data.shigoro_count
        self.used_dice = ()
        self.turn_number = self.turns_done + 1
        self.emit("parent_turn_start", parent=self.parent, number=self.turn_number)
        self._start_round()

    def _start_round(self) -> None:
        self.pins_set = None
        self.faces_set = None
        self.announced = None
        self.stake = None
        self.guess = None
        self.revealed_total = None
        self.hit = None
        self.phase = SET_PINS

    # ----- a round ------------------------------------------------------------------------
    def _announce(self, faces: str) -> None:
        self.faces_set = faces
        chosen = self.data.face_option(faces)
        self.announced = (self.pins_set or 0) + chosen.dice
        self.emit("dice_set", to=self.parent, k=self.announced, pins=self.pins_set, faces=faces)
        self.emit("dice_set", to=self.child, k=self.announced)
        self.phase = STAKE

    def _stake(self, bills: int) -> None:
        self.stake = bills
        self.pot = bills
        self.pot_owner = self.child
        self.emit("stake", bills=bills)
        if self.counterfeit:
            self.phase = STAKE_FAKES
        else:
            self.genuine[known(self.child)] -= bills
            self.pot_fakes = 0
            self.phase = GUESS

    def _split_stake(self, fakes: int) -> None:
        child = known(self.child)
        bills = self.stake or 0
        self.genuine[child] -= bills - fakes
        self.fakes[child] -= fakes
        self.pot_fakes = fakes
        self.emit("stake_fakes", to=child, fakes=fakes)
        self.phase = GUESS

    def _reveal(self) -> None:
        pins = self.pins_set or 0
        option = self.data.face_option(self.faces_set or "none")
        total = pins * self.data.pin_value + option.total
        self.p -= pins
        self.q -= option.dice
        self.used_dice = self.used_dice + (("pin", self.data.pin_value),) * pins + tuple(("shigoro", f) for f in option.faces)
        self.revealed_total = total
        self.hit = total == self.guess
        self.emit(
            "reveal",
            pins=pins,
            faces=list(option.faces),
            total=total,
            hit=self.hit,
            unused_pins=self.p,
            unused_shigoro=self.q,
        )
        child, parent = known(self.child), known(self.parent)
        if self.hit:
            self._return_pot()
            self.emit("stake_returned", seat=child, bills=self.stake)
            self._start_transfer(parent, child, self.data.multipliers[self.announced or 0] * (self.stake or 0))
        elif self.counterfeit:
            # The stake on the table is the first group of a transfer (starts at T3).
            self.giver, self.receiver, self.amount = child, parent, self.pot
            self.from_stake = True
            self.emit("transfer_due", giver=child, receiver=parent, amount=self.amount)
            self.phase = ACCEPT_OR_ACCUSE
        else:
            bills = self.pot
            self._pot_to(parent)
            self.emit("bills_moved", giver=child, receiver=parent, bills=bills)
            self._after_settlement()

    # ----- the pot ------------------------------------------------------------------------
    def _return_pot(self) -> None:
        self._pot_to(known(self.pot_owner))

    def _pot_to(self, seat: Seat) -> None:
        self.genuine[seat] += self.pot - self.pot_fakes
        self.fakes[seat] += self.pot_fakes
        self.pot = 0
        self.pot_fakes = 0
        self.pot_owner = None

    # ----- transfers (4.2) -----------------------------------------------------------------
    def _start_transfer(self, giver: Seat, receiver: Seat, amount: int) -> None:
        self.giver, self.receiver, self.amount = giver, receiver, amount
        self.from_stake = False
        self.emit("transfer_due", giver=giver, receiver=receiver, amount=amount)
        if self.hand(giver) < amount:
            self._go_bankrupt(giver, CANNOT_PAY)
        elif self.counterfeit:
            self.phase = PAY_FAKES
        else:
            self.genuine[giver] -= amount
            self.genuine[receiver] += amount
            self.emit("bills_moved", giver=giver, receiver=receiver, bills=amount)
            self._end_transfer()
            self._after_settlement()

    def _offer_group(self, fakes: int) -> None:
        giver = known(self.giver)
        self.genuine[giver] -= self.amount - fakes
        self.fakes[giver] -= fakes
        self.pot, self.pot_fakes, self.pot_owner = self.amount, fakes, giver
        self.emit("pay_fakes", to=giver, fakes=fakes)
        self.phase = ACCEPT_OR_ACCUSE

    def _accept(self) -> None:
        giver, receiver, amount, fakes = known(self.giver), known(self.receiver), self.amount, self.pot_fakes
        self.emit("accepted", fakes=fakes)
        self._pot_to(receiver)
        self.emit("bills_moved", giver=giver, receiver=receiver, bills=amount, fakes=fakes)
        self.revealed_groups = self.revealed_groups + ((giver, receiver, amount, fakes, True),)
        self._end_transfer()
        self._after_settlement()

    def _accuse(self) -> None:
        giver, receiver, amount, fakes = known(self.giver), known(self.receiver), self.amount, self.pot_fakes
        found = fakes >= 1
        self.emit("accused", fakes=fakes, counterfeit_found=found, new_amount=2 * amount if found else 0)
        self._return_pot()
        self.revealed_groups = self.revealed_groups + ((giver, receiver, amount, fakes, False),)
        if found:
            self._start_transfer(giver, receiver, 2 * amount)
        else:
            self._end_transfer()
            self._after_settlement()

    def _end_transfer(self) -> None:
        self.giver = self.receiver = None
        self.amount = 0
        self.from_stake = False

    # ----- after a settlement: bankruptcy (R8), next round or parent turn (R9), the end ---------
    def _after_settlement(self) -> None:
        for seat in (0, 1):
            if self.hand(seat) == 0:
                self._go_bankrupt(seat, NO_BILLS)
                return
        if self.p + self.q > 0:
            self._start_round()
            return
        parent = known(self.parent)
        self.completed[parent] += 1
        self.turns_done += 1
        self.emit("parent_turn_end", parent=parent, number=self.turns_done)
        if self.until_bankruptcy:
            finished = self.turns_done >= self.max_parent_turns
        else:
            finished = min(self.completed) >= self.data.parent_turns_per_player
        if finished:
            self._finish()
            return
        self.parent = 1 - parent
        self._start_parent_turn()

    def _go_bankrupt(self, seat: Seat, reason: str) -> None:
        self._end_transfer()
        self.bankrupt = seat
        self.bankrupt_reason = reason
        self.emit("bankrupt", seat=seat, reason=reason)
        self._finish()

    def _finish(self) -> None:
        self._result = self.final_result()
        self.phase = OVER
        self.emit("game_end", ranks=list(self._result.ranks), scores=[self.score(0), self.score(1)])

    def final_result(self) -> GameResult:
        """The result of a game ending now (scoring.py)."""
        return final_result((self.score(0), self.score(1)), self.bankrupt, self.bankrupt_reason, self.turns_done)

    def result(self) -> GameResult:
        """Ranks (bankrupt seat last; otherwise by score, equal scores draw) and scores in P."""
        if self._result is None:
            raise GameOverError("underground_dice: the game is not over yet")
        return self._result

    # ----- information -------------------------------------------------------------------
    def private_view(self, seat: Seat) -> dict[str, Any]:
        """What `seat` may know (spec section 5)."""
        return self.game.build_view(self, seat)  # views.py (the state never imports its views)

    def public_view(self) -> dict[str, Any]:
        """What a spectator may know."""
        return self.game.build_view(self, None)

    # ----- search support ----------------------------------------------------------------
    def clone(self) -> Self:
        """An independent copy: shares data, option tables and immutable tuples; copies the small lists."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.events = self.events.copy()
        twin.genuine = self.genuine.copy()
        twin.fakes = self.fakes.copy()
        twin.dealt_fakes = self.dealt_fakes.copy()
        twin.completed = self.completed.copy()
        return twin

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """A full state consistent with what `seat` knows: the parent's hidden dice and the opponent's split resampled."""
        from referee.games.underground_dice.determinize import determinize

        return determinize(self, seat, rng)
