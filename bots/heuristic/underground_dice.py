"""Underground Dice heuristic: guess the likeliest sum and stake by Kelly; hide sums as parent; cheat and accuse on the odds.

As child, the parent's choice is modelled as uniform over every (pins, 4-5-6 faces) set of k dice the
unused dice allow; the guess is that model's likeliest sum and the stake the Kelly fraction of the hand
for the payout M(k) (all-in when the sum is certain, one bill when the bet is unfavourable).
As parent, each round draws the sum uniformly from the possible sums of the chosen k, so no guess
beats 1/|PS|; k is chosen by a small dynamic programme over the unused dice that values a round at
1 - (M(k) + 1)/|PS| (heavily penalised when negative, since a good child then stakes big) and avoids
leaving dice that make the sum obvious (only pin dice left).
With counterfeits: the opponent's accusation and cheating rates are estimated from the transfers seen
(Beta(1, 1) priors); a group includes all the counterfeits it can when f(1 - r) > rA (r = the chance of
an accusation), and an offered group is accused when the expected doubled payment beats accepting.
"""

from __future__ import annotations

import os
import random
from collections import defaultdict
from functools import cache
from typing import Any

from referee.games.underground_dice.data import Components, components
from sdk import Bot, GameStartInfo, Request

DATA: Components = components()
#: How much worse a round is for the parent when the child's bet is favourable (a good child stakes big then).
FAVOURABLE_BET_PENALTY = 4.0
#: Accuse more readily when a caught cheat could not pay double (that ends the game in our favour).
WINNING_ACCUSATION_THRESHOLD = 0.15


def _faces_by_size_and_sum() -> dict[tuple[int, int], list[str]]:
    table: dict[tuple[int, int], list[str]] = defaultdict(list)
    for option in DATA.face_options:
        table[(option.dice, option.total)].append(option.name)
    return table


FACES = _faces_by_size_and_sum()


@cache
def sum_distribution(p: int, q: int, k: int) -> dict[int, float]:
    """P(S | p, q, k) when the parent picks uniformly among its (pins, face multiset) choices of k dice."""
    counts: dict[int, int] = defaultdict(int)
    for a in range(0, min(p, k) + 1):
        b = k - a
        if b > q:
            continue
        for option in DATA.face_options:
            if option.dice == b:
                counts[a * DATA.pin_value + option.total] += 1
    total = sum(counts.values())
    return {s: c / total for s, c in sorted(counts.items())}


def round_value(p: int, q: int, k: int) -> float:
    """The parent's edge per staked bill when the sum is uniform over PS(p, q, k)."""
    edge = 1.0 - (DATA.multipliers[k] + 1) / len(DATA.possible_sums[(p, q, k)])
    return edge if edge >= 0 else FAVOURABLE_BET_PENALTY * edge


def splits_for(p: int, q: int, k: int, total: int) -> list[tuple[int, str]]:
    """(pins, faces) choices of k dice among p pin and q 4-5-6 dice that show `total`."""
    result = []
    for a in range(0, min(p, k) + 1):
        b = k - a
        if b <= q:
            result.extend((a, faces) for faces in FACES.get((b, total - a * DATA.pin_value), []))
    return result


@cache
def parent_value(p: int, q: int) -> float:
    """Best total round value from unused (p, q) to the end of the parent turn."""
    if p + q == 0:
        return 0.0
    return max(_k_value(p, q, k) for k in range(1, p + q + 1))


def _k_value(p: int, q: int, k: int) -> float:
    sums = DATA.possible_sums[(p, q, k)]
    future = sum(max(parent_value(p - a, q - (k - a)) for a, _ in splits_for(p, q, k, s)) for s in sums) / len(sums)
    return round_value(p, q, k) + future


@cache
def best_k(p: int, q: int) -> int:
    return max(range(1, p + q + 1), key=lambda k: (_k_value(p, q, k), -k))


def kelly_fraction(hit: float, multiplier: int) -> float:
    """The Kelly fraction of the bankroll for a bet paying `multiplier` to 1 that wins with probability `hit`."""
    return max(0.0, (hit * (multiplier + 1) - 1) / multiplier)


class HeuristicBot(Bot):
    """Reference heuristic for Underground Dice (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        if seed is None and os.environ.get("B99_BOT_SEED"):
            seed = int(os.environ["B99_BOT_SEED"])
        self.rng = random.Random(seed)
        self.reset()

    def reset(self) -> None:
        self.plan: tuple[int, int, int, str] | None = None  # (p, q, pins, faces) chosen at set_pins
        self.transfer: dict[str, Any] | None = None
        # Opponent tendencies: accusations of our groups, counterfeits in its revealed groups.
        self.accused_by_them = 0
        self.accepted_by_them = 0
        self.their_cheats = 0
        self.their_honest = 0

    def on_game_start(self, start: GameStartInfo) -> None:
        self.reset()

    # ----- reading events ---------------------------------------------------------------
    def _observe(self, request: Request) -> None:
        me = request.seat
        for event in request.events:
            data = event.data
            if event.kind == "transfer_due":
                self.transfer = dict(data)
            elif event.kind in ("accepted", "accused") and self.transfer is not None:
                giver = self.transfer.get("giver", 0)
                if giver == me:
                    if event.kind == "accused":
                        self.accused_by_them += 1
                    else:
                        self.accepted_by_them += 1
                elif data.get("fakes", 0) > 0:
                    self.their_cheats += 1
                else:
                    self.their_honest += 1

    # ----- choosing ---------------------------------------------------------------------
    def choose(self, request: Request) -> str:
        self._observe(request)
        view = request.view
        decision = request.decision
        if decision == "set_pins":
            return self._set_pins(view)
        if decision == "set_faces":
            return self._set_faces(view, request.options)
        if decision == "stake":
            return self._stake(view, request.options)
        if decision == "guess":
            return self._guess(view, request.options)
        if decision in ("stake_fakes", "pay_fakes"):
            return self._fakes(view, request.options, decision)
        if decision == "accept_or_accuse":
            return self._accept_or_accuse(view, request.seat)
        return request.options[0].id

    def _set_pins(self, view: dict[str, Any]) -> str:
        p, q = view["unused_pins"], view["unused_shigoro"]
        k = best_k(p, q)
        total = self.rng.choice(DATA.possible_sums[(p, q, k)])
        splits = splits_for(p, q, k, total)
        best = max(parent_value(p - a, q - (k - a)) for a, _ in splits)
        a, faces = self.rng.choice([(a, f) for a, f in splits if parent_value(p - a, q - (k - a)) == best])
        self.plan = (p, q, a, faces)
        return f"pins:{a}"

    def _set_faces(self, view: dict[str, Any], options: Any) -> str:
        p, q, pins = view["unused_pins"], view["unused_shigoro"], view.get("set_pins", 0)
        if self.plan is not None and self.plan[:3] == (p, q, pins):
            return f"faces:{self.plan[3]}"
        # set_pins was forced (not asked): pick b like set_pins would, with the pins fixed.
        legal = {option.id for option in options}
        sizes = [b for b in range(0, q + 1) if any(f"faces:{o.name}" in legal for o in DATA.face_options if o.dice == b)]
        b = max(sizes, key=lambda size: (round_value(p, q, pins + size) + parent_value(p - pins, q - size), -size))
        names = [o.name for o in DATA.face_options if o.dice == b]
        return f"faces:{self.rng.choice(names)}"

    def _stake(self, view: dict[str, Any], options: Any) -> str:
        p, q, k = view["unused_pins"], view["unused_shigoro"], view["announced_dice"]
        hit = max(sum_distribution(p, q, k).values())
        me = view["seat"]
        hand = view["hands"][me]["bills"]
        stake = max(1, int(kelly_fraction(hit, DATA.multipliers[k]) * hand))
        most = max(option.payload["stake"] for option in options)
        return f"stake:{min(stake, most)}"

    def _guess(self, view: dict[str, Any], options: Any) -> str:
        p, q, k = view["unused_pins"], view["unused_shigoro"], view["announced_dice"]
        chances = sum_distribution(p, q, k)
        best = max(chances.values())
        return f"guess:{self.rng.choice([s for s, c in chances.items() if c == best])}"

    # ----- counterfeits -----------------------------------------------------------------
    def _accusation_rate(self) -> float:
        return (self.accused_by_them + 1) / (self.accused_by_them + self.accepted_by_them + 2)

    def _fakes(self, view: dict[str, Any], options: Any, decision: str) -> str:
        values = sorted(option.payload.get("fakes", 0) for option in options)
        amount = view.get("stake", 0) if decision == "stake_fakes" else view["transfer"]["amount"]
        me = view["seat"]
        # The staked bills are already on the table; a payment is still in the hand.
        holding = view["hands"][me]["bills"] + (amount if decision == "stake_fakes" else 0)
        rate = self._accusation_rate()
        most = values[-1]
        # Caught cheating doubles the debt: never risk it when double could not be paid.
        if most > 0 and 2 * amount <= holding and most * (1 - rate) > rate * amount:
            return f"fakes:{most}"
        return f"fakes:{values[0]}"

    def _accept_or_accuse(self, view: dict[str, Any], me: int) -> str:
        transfer = view["transfer"]
        amount = transfer["amount"]
        giver = transfer["giver"]
        my_fakes = view["hands"][me].get("counterfeit", 0)
        if my_fakes >= DATA.counterfeit_count:
            return "accept"  # the opponent cannot hold any counterfeit
        cheat = (self.their_cheats + 1) / (self.their_cheats + self.their_honest + 2)
        giver_holding = view["hands"][giver]["bills"] + view["pot"]  # the offered group is on the table
        if 2 * amount > giver_holding and cheat > WINNING_ACCUSATION_THRESHOLD:
            return "accuse"  # a caught cheat could not pay double: that ends the game for us
        expected_fakes = max(1.0, amount / 4)
        accuse = cheat * 2 * amount
        accept = amount - 2 * cheat * expected_fakes
        return "accuse" if accuse > accept else "accept"
