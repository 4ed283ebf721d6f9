"""Fuji 99 heuristic reference bot: draw and stop from bust odds on the bag and deck, use cards when it pays.

It reads only the request (the seat's view, options and events) and the game's component data.
- How many cubes: the N that maximises expected spaces gained minus expected spaces lost
  (hypergeometric red-bust odds on the bag's counts).
- Continue or stop: continue while the best next cycle has positive expected value, counting the
  red-bust risk and the risk that the next Fuji card takes the hand to 7 or more (card bust), which
  loses the turn's movement and every card.
- Cards: use what moves (or wins), the Amulet with reds set aside, an Ill Omen on an opponent who
  leads alone, cube-gaining cards; keep Lucky Charms unless the hand is dangerous.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from math import comb
from typing import Any

from bots.heuristic import OptionLike
from referee.games.fuji99.data import CardType, FujiData, load_data
from sdk import Bot, Request


#: Spaces a card in hand is worth when lost in a card bust (rough future movement).
CARD_VALUE = 3.0
#: Spaces a Lucky Charm is worth while held (each S3 move is 3 longer).
CHARM_VALUE = 6.0


def red_bust_probability(bag: Mapping[str, int], count: int, reds_to_bust: int) -> float:
    """P(at least `reds_to_bust` red cubes among `count` drawn without replacement from `bag`)."""
    return _red_bust_probability(bag["clear"] + bag["yellow"], bag["red"], count, reds_to_bust)


@cache
def _red_bust_probability(others: int, reds: int, count: int, reds_to_bust: int) -> float:
    """`red_bust_probability` of a bag of `others` non-red and `reds` red cubes (a few hundred bags in all)."""
    if reds_to_bust <= 0:
        return 1.0
    total = others + reds
    if count > total:
        count = total
    ways = comb(total, count)
    hits = sum(comb(reds, k) * comb(total - reds, count - k) for k in range(reds_to_bust, min(reds, count) + 1))
    return hits / ways


class HeuristicBot(Bot):
    """Push-your-luck by expected value; card use by simple priorities."""

    name = "fuji99-heuristic"
    #: Expected spaces another cycle must be worth before the bot continues.
    continue_margin = 0.5

    def __init__(self, data: FujiData | None = None) -> None:
        self.data = data or load_data()

    # ----- entry point -------------------------------------------------------------------
    def choose(self, request: Request) -> str:
        return self.decide(request.view, request.decision, request.options)

    def decide(self, view: Mapping[str, Any], decision: str, options: Sequence[OptionLike]) -> str:
        """The option id for `decision` in `view` among `options` (a request's, or an engine's inside a search)."""
        if decision == "draw_count":
            return self._choose_count(view, options)
        if decision == "use_cards":
            return self._choose_card(view, options)
        if decision == "continue_or_stop":
            return "continue" if self._should_continue(view, options) else "stop"
        return self._choose_placement(view, options)

    # ----- reading the view --------------------------------------------------------------
    def _me(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        return view["seats"][view["active"]]

    def _reds_to_bust(self, view: Mapping[str, Any]) -> int:
        me = self._me(view)
        omens = sum(1 for omen in me["omens"] if omen["active"])
        return 3 - view["red_area"] - omens

    def _at_risk(self, view: Mapping[str, Any]) -> int:
        return view["movement"] - self._me(view)["position"]

    def _deck(self, view: Mapping[str, Any]) -> list[str]:
        """The cards that the next draw can give (the deck, or the discard pile when it is empty)."""
        if view["deck_size"] == 0:
            return list(view["discard"])
        seen = set(view["discard"]) | set(view["resolving_echoes"])
        for seat in view["seats"]:
            seen.update(card["card"] for card in seat["hand"])
            seen.update(omen["card"] for omen in seat["omens"])
        return [card for card in self.data.deck if card not in seen]

    def _card_bust_probability(self, view: Mapping[str, Any], danger: int) -> float:
        deck = self._deck(view)
        if not deck:
            return 0.0
        room = 7 - danger
        busting = 0
        for card in deck:
            kind = self.data.card_type[card]
            if kind.timing == "instant":
                continue  # an echo hands a card to everyone: roughly one more draw, ignored
            if (kind.danger or 0) >= room:
                busting += 1
        return busting / len(deck)

    # ----- D1 ----------------------------------------------------------------------------
    def _choose_count(self, view: Mapping[str, Any], options: Sequence[OptionLike]) -> str:
        """The count with the best expected spaces: gained if no red bust, lost (the turn so far) if one."""
        bag = self._me(view)["bag"]
        reds_to_bust = self._reds_to_bust(view)
        bonus, movement, at_risk = view["move_bonus"], view["movement"], self._at_risk(view)
        best_id, best_value = options[0].id, float("-inf")
        for option in options:
            count = int(option.payload["count"])
            bust = red_bust_probability(bag, count, reds_to_bust)
            gain = count + bonus
            if movement + gain >= 99:
                gain = 1000.0  # reaching the goal wins at once
            value = (1 - bust) * gain - bust * at_risk
            if value > best_value:
                best_id, best_value = option.id, value
        return best_id

    # ----- D3 ----------------------------------------------------------------------------
    def _hand_value(self, hand: Sequence[Mapping[str, Any]]) -> float:
        return sum(CHARM_VALUE if card["type"] == "lucky_charm" else CARD_VALUE for card in hand)

    def _should_continue(self, view: Mapping[str, Any], options: Sequence[OptionLike]) -> bool:
        if not any(option.id == "continue" for option in options):
            return False
        me = self._me(view)
        others = [seat["position"] for seat in view["seats"] if seat["seat"] != view["active"]]
        at_risk = self._at_risk(view)
        card_bust = self._card_bust_probability(view, me["hand_danger"])
        hand_loss = self._hand_value(me["hand"])
        bag = dict(me["bag"])
        bag["clear"] += view["current_draw"]["clear"]
        bag["yellow"] += view["available_yellow"]
        size = bag["clear"] + bag["yellow"] + bag["red"]
        reds_to_bust = self._reds_to_bust(view)
        best = float("-inf")
        for count in range(min(5, size), size + 1):
            red_bust = red_bust_probability(bag, count, reds_to_bust)
            gain = count + view["move_bonus"]
            if view["movement"] + gain >= 99:
                value = (1 - red_bust) * 1000.0 - red_bust * at_risk
            else:
                survive = (1 - red_bust) * (1 - card_bust)
                value = survive * gain - (1 - survive) * at_risk - (1 - red_bust) * card_bust * (gain + hand_loss)
            best = max(best, value)
        # when an opponent is about to win, banking small gains matters less than catching up
        urgency = 2.0 if max(others) >= 85 else 0.0
        return best + urgency > self.continue_margin

    # ----- D2 ----------------------------------------------------------------------------
    def _movement(self, view: Mapping[str, Any], kind: CardType, cubes: int) -> int:
        if kind.effect == "move":
            return int(kind.params["spaces"])
        if kind.effect == "move_by_drawn_clear":
            return int(view["current_draw"]["clear"])
        if kind.effect == "move_by_own_cubes":
            return cubes
        if kind.effect == "rope":
            bonus = int(kind.params["bonus"])
            if view["players"] == 2:
                return self.data.two_player_rope_spaces + bonus
            above = [
                seat["position"]
                for seat in view["seats"]
                if seat["seat"] != view["active"] and seat["position"] > view["movement"]
            ]
            return min(above) - view["movement"] + bonus if above else 0
        return 0

    def _card_score(self, view: Mapping[str, Any], card: Mapping[str, Any]) -> float:
        """How much using this card now is worth (<= 0: keep it)."""
        kind = self.data.card_type[card["card"]]
        me = self._me(view)
        danger = me["hand_danger"]
        moves = self._movement(view, kind, card["cubes"])
        if moves and view["movement"] + moves >= 99:
            return 10_000.0
        dump = card["danger"] if danger >= 4 else 0.0  # lowering a risky hand is worth something
        if kind.effect == "move_by_own_cubes":
            return moves + dump if moves >= 3 or card["danger"] >= 3 else dump - 1
        if moves:
            return moves + dump
        if kind.effect == "return_red":
            return 4.0 + dump if view["red_area"] > 0 else dump - 0.5
        if kind.effect == "omen_to_leader":
            standing = [view["movement"] if s["seat"] == view["active"] else s["position"] for s in view["seats"]]
            best = max(standing)
            leaders = [seat for seat, value in enumerate(standing) if value == best]
            if len(leaders) == 1 and leaders[0] != view["active"]:
                return 5.0 + dump
            if len(leaders) == 1:
                return -10.0  # it would land on us
            return dump - 0.5
        if kind.effect in ("take_clear", "all_take_clear"):
            return 2.0 + dump if view["pagoda"] > 0 else dump - 0.5
        if kind.effect == "s3_bonus":
            return dump - CHARM_VALUE + 4 if danger >= 5 else -1.0
        return dump - 1

    def _choose_card(self, view: Mapping[str, Any], options: Sequence[OptionLike]) -> str:
        hand = {card["card"]: card for card in self._me(view)["hand"]}
        best_id, best_score = "end_use", 0.0
        for option in options:
            if option.id == "end_use":
                continue
            score = self._card_score(view, hand[str(option.payload["card"])])
            if score > best_score:
                best_id, best_score = option.id, score
        return best_id

    # ----- D4 ----------------------------------------------------------------------------
    def _choose_placement(self, view: Mapping[str, Any], options: Sequence[OptionLike]) -> str:
        # Cubes on an X card raise its danger; put them on fixed-danger cards first.
        def key(option: OptionLike) -> tuple[int, int]:
            kind = self.data.card_type[str(option.payload["card"])]
            return (1 if kind.danger is None else 0, -kind.cap)

        return min(options, key=key).id

