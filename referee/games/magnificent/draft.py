"""The `draft_master_cards` variant (spec §7): deal 5 master cards per player, pick 4 passing left, reveal.

The engine knows every hand's history; a seat knows its own picks, the hands it has held (as they were
when it held them) and the card it removed last. `determinize_draft` redraws everything else.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import Option
from referee.games.magnificent import options as opt

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState

HAND_SIZE = 5
PICKS = 4


class DraftMixin:
    """Steps, options and applications of the master card draft, mixed into the game state."""

    def _draft_start(self: MagnificentState) -> None:
        """Shuffle all 56 master cards into the deck and deal 5 to each seat (S, S+1, ... in turn)."""
        self.master_deck = list(self.c.starting_masters) + list(self.c.regular_masters)
        for player in self.players_state:
            player.masters = []
        n = self.players
        self.draft_hands = [[] for _ in range(n)]
        self.draft_history = [[] for _ in range(n)]
        self.draft_picks = [[] for _ in range(n)]
        self.draft_removed = [""] * n
        self.draft_round = 0
        seats = self._seats_from(self.start_player)
        steps: list[tuple[Any, ...]] = [("chance", "master_deal", seat) for _ in range(HAND_SIZE) for seat in seats]
        steps += [("draft_hands",), ("draft_pick",)]
        self._schedule(*steps)

    def _chance_master_deal(self: MagnificentState, outcome: str, seat: int) -> None:
        self.master_deck.remove(outcome)
        self.draft_hands[seat].append(outcome)

    def _held_hand(self: MagnificentState, seat: int) -> int:
        """The hand `seat` holds in the current pick round (hands pass to the left)."""
        return (seat - self.draft_round) % self.players

    def _step_draft_hands(self: MagnificentState) -> None:
        for hand in range(self.players):
            self.draft_hands[hand].sort(key=lambda m: self.c.masters[m].order)
            self.draft_history[hand].append(tuple(self.draft_hands[hand]))
        for seat in range(self.players):
            self.emit("draft_hand", to=seat, cards=list(self.draft_hands[self._held_hand(seat)]))

    def _step_draft_pick(self: MagnificentState) -> None:
        self.pending = ("SD2", -1)

    def _options_sd2(self: MagnificentState, seat: int) -> list[Option]:
        return [opt.draft(card) for card in self.draft_hands[self._held_hand(seat)]]

    def _apply_sd2(self: MagnificentState, chosen: Mapping[int, Option]) -> None:
        for seat in sorted(chosen):
            card = chosen[seat].payload["card"]
            self.draft_hands[self._held_hand(seat)].remove(card)
            self.draft_picks[seat].append(card)
            self.emit("draft_pick", to=seat, seat=seat, card=card)
            self.emit("draft_picked", seat=seat)
        self.draft_round += 1
        if self.draft_round < PICKS:
            self._schedule(("draft_hands",), ("draft_pick",))
            return
        for hand in range(self.players):
            (last,) = self.draft_hands[hand]
            self.draft_removed[hand] = last
            self.draft_hands[hand] = []
            self.emit("draft_removed", to=(hand + PICKS - 1) % self.players, card=last)
        for seat, player in enumerate(self.players_state):
            player.masters = sorted(self.draft_picks[seat], key=lambda m: self.c.masters[m].order)
            self.emit("draft_revealed", seat=seat, cards=list(player.masters))

    def removed_by(self: MagnificentState, seat: int) -> str:
        """The card `seat` removed at the end of the draft ('' before then or without the variant)."""
        if not self.draft or self.draft_round < PICKS:
            return ""
        return self.draft_removed[(seat - PICKS + 1) % self.players]

    def _determinize_draft(self: MagnificentState, seat: int, rng: random.Random) -> None:
        """Redraw, in place, every draft card `seat` has not seen, keeping all it has seen."""
        n = self.players
        if self.draft_round >= PICKS:
            self._determinize_after_draft(seat, rng)
            return
        if not self.master_deck and not any(self.draft_hands):
            return  # the cards are not shuffled yet
        rounds = self.draft_round
        dealing = not self.draft_history[0]
        seen: set[str] = set(self.draft_hands[seat]) if dealing else set()
        held: dict[int, list[int]] = {h: [] for h in range(n)}
        for r in range(len(self.draft_history[0])):
            h = (seat - r) % n
            held[h].append(r)
            seen.update(self.draft_history[h][r])
        unseen = [card for card in self.c.masters if card not in seen]
        rng.shuffle(unseen)
        if dealing:
            self.draft_hands = [
                list(self.draft_hands[h]) if h == seat else [unseen.pop() for _ in self.draft_hands[h]] for h in range(n)
            ]
            self.master_deck = sorted(unseen)
            return
        order = self.c.masters
        histories: list[list[tuple[str, ...]]] = []
        for h in range(n):
            contents: list[set[str] | None] = [None] * (rounds + 1)
            for r in held[h]:
                contents[r] = set(self.draft_history[h][r])
            if contents[rounds] is None:
                last_seen = max(held[h], default=-1)
                if last_seen >= 0:
                    passed_on = sorted(contents[last_seen] - {self._pick_of(h, last_seen)})  # type: ignore[operator]
                    contents[rounds] = set(rng.sample(passed_on, HAND_SIZE - rounds))
                else:
                    contents[rounds] = {unseen.pop() for _ in range(HAND_SIZE - rounds)}
            for r in range(rounds - 1, -1, -1):
                if contents[r] is not None:
                    continue
                later: set[str] = contents[r + 1]  # type: ignore[assignment]
                prior = max((x for x in held[h] if x < r), default=-1)
                if prior >= 0:
                    # the picks between two sightings are what the seat passed on and did not see again
                    left = contents[prior] - {self._pick_of(h, prior)} - later  # type: ignore[operator]
                    pick = rng.choice(sorted(left))
                else:
                    pick = unseen.pop()
                contents[r] = later | {pick}
            histories.append([tuple(sorted(c, key=lambda m: order[m].order)) for c in contents])  # type: ignore[arg-type]
        picks: list[list[str]] = [[] for _ in range(n)]
        for r in range(rounds):
            for h in range(n):
                (card,) = set(histories[h][r]) - set(histories[h][r + 1])
                picks[(h + r) % n].append(card)
        self.draft_history = histories
        self.draft_hands = [list(history[rounds]) for history in histories]
        self.draft_picks = picks
        self.master_deck = sorted(unseen)

    def _determinize_after_draft(self: MagnificentState, seat: int, rng: random.Random) -> None:
        """Redraw, in place, the one thing `seat` cannot know once all picks are revealed: which card left which
        hand before the seat first held it. Everything else follows from what it saw: a card of a hand it held
        left that hand with the seat whose revealed picks hold it, and the card no pick holds was removed, so
        every removed card and the master deck stay exactly as they are."""
        n = self.players
        owner = {card: x for x in range(n) for card in self.draft_picks[x]}
        sighted = {h: [r for r in range(PICKS) if (seat - r) % n == h] for h in range(n)}
        slots: dict[tuple[int, int], str] = {}  # (hand, round) -> the card picked from that hand in that round
        contents: dict[tuple[int, int], set[str]] = {}
        for h in range(n):
            first = sighted[h][0]
            hand = set(self.draft_history[h][first])
            for r in range(first, PICKS):
                picker = (h + r) % n
                if picker == seat:
                    card = self.draft_picks[seat][r]
                else:
                    # the picker's card from this hand: one of its revealed picks still here, not in a later sighting
                    later = next((set(self.draft_history[h][x]) for x in sighted[h] if x > r), None)
                    candidates = sorted(c for c in hand if owner.get(c) == picker and (later is None or c not in later))
                    card = rng.choice(candidates)
                contents[h, r] = set(hand)
                slots[h, r] = card
                hand.discard(card)
            (self.draft_removed[h],) = hand
        placed = set(slots.values())
        unplaced = {x: sorted(set(self.draft_picks[x]) - placed) for x in range(n)}
        for cards in unplaced.values():
            rng.shuffle(cards)
        for h in range(n):
            for r in range(sighted[h][0] - 1, -1, -1):
                slots[h, r] = unplaced[(h + r) % n].pop()
                contents[h, r] = contents[h, r + 1] | {slots[h, r]}
        order = self.c.masters
        self.draft_history = [
            [tuple(sorted(contents[h, r], key=lambda m: order[m].order)) for r in range(PICKS)] for h in range(n)
        ]
        self.draft_picks = [[slots[(x - r) % n, r] for r in range(PICKS)] for x in range(n)]

    def _pick_of(self: MagnificentState, hand: int, r: int) -> str:
        """The card picked from `hand` at round r (the engine's own record)."""
        before = self.draft_history[hand][r]
        after = set(self.draft_history[hand][r + 1]) if r + 1 < len(self.draft_history[hand]) else set(self.draft_hands[hand])
        (card,) = [c for c in before if c not in after]
        return card
