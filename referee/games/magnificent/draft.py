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


def draft_start(state: MagnificentState) -> None:
    """Shuffle all 56 master cards into the deck and deal 5 to each seat (S, S+1, ... in turn)."""
    state.master_deck = list(state.c.starting_masters) + list(state.c.regular_masters)
    for player in state.players_state:
        player.masters = []
    n = state.players
    state.draft_hands = [[] for _ in range(n)]
    state.draft_history = [[] for _ in range(n)]
    state.draft_picks = [[] for _ in range(n)]
    state.draft_removed = [""] * n
    state.draft_round = 0
    state.player_tokens = [object() for _ in state.players_state]
    state.deck_token = state.draft_token = object()
    seats = state._seats_from(state.start_player)
    steps: list[tuple[Any, ...]] = [("chance", "master_deal", seat) for _ in range(HAND_SIZE) for seat in seats]
    steps += [("draft_hands",), ("draft_pick",)]
    state._schedule(*steps)


def chance_master_deal(state: MagnificentState, outcome: str, seat: int) -> None:
    state.master_deck.remove(outcome)
    state.draft_hands[seat].append(outcome)
    state.deck_token = state.draft_token = object()


def held_hand(state: MagnificentState, seat: int) -> int:
    """The hand `seat` holds in the current pick round (hands pass to the left)."""
    return (seat - state.draft_round) % state.players


def step_draft_hands(state: MagnificentState) -> None:
    for hand in range(state.players):
        state.draft_hands[hand].sort(key=lambda m: state.c.masters[m].order)
        state.draft_history[hand].append(tuple(state.draft_hands[hand]))
    state.draft_token = object()
    for seat in range(state.players):
        state.emit("draft_hand", to=seat, cards=list(state.draft_hands[held_hand(state, seat)]))


def step_draft_pick(state: MagnificentState) -> None:
    state.pending = ("SD2", -1)


def options_sd2(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.draft(card) for card in state.draft_hands[held_hand(state, seat)]]


def apply_sd2(state: MagnificentState, chosen: Mapping[int, Option]) -> None:
    for seat in sorted(chosen):
        card = chosen[seat].payload["card"]
        state.draft_hands[held_hand(state, seat)].remove(card)
        state.draft_picks[seat].append(card)
        state.emit("draft_pick", to=seat, seat=seat, card=card)
        state.emit("draft_picked", seat=seat)
    state.draft_round += 1
    state.draft_token = object()
    if state.draft_round < PICKS:
        state._schedule(("draft_hands",), ("draft_pick",))
        return
    for hand in range(state.players):
        (last,) = state.draft_hands[hand]
        state.draft_removed[hand] = last
        state.draft_hands[hand] = []
        state.emit("draft_removed", to=(hand + PICKS - 1) % state.players, card=last)
    for seat, player in enumerate(state.players_state):
        player.masters = sorted(state.draft_picks[seat], key=lambda m: state.c.masters[m].order)
        state.player_tokens[seat] = object()
        state.emit("draft_revealed", seat=seat, cards=list(player.masters))


def removed_by(state: MagnificentState, seat: int) -> str:
    """The card `seat` removed at the end of the draft ('' before then or without the variant)."""
    if not state.draft or state.draft_round < PICKS:
        return ""
    return state.draft_removed[(seat - PICKS + 1) % state.players]


def _determinize_draft(state: MagnificentState, seat: int, rng: random.Random) -> None:
    """Redraw, in place, every draft card `seat` has not seen, keeping all it has seen."""
    n = state.players
    if state.draft_round >= PICKS:
        determinize_after_draft(state, seat, rng)
        return
    if not state.master_deck and not any(state.draft_hands):
        return  # the cards are not shuffled yet
    rounds = state.draft_round
    dealing = not state.draft_history[0]
    seen: set[str] = set(state.draft_hands[seat]) if dealing else set()
    held: dict[int, list[int]] = {h: [] for h in range(n)}
    for r in range(len(state.draft_history[0])):
        h = (seat - r) % n
        held[h].append(r)
        seen.update(state.draft_history[h][r])
    unseen = [card for card in state.c.masters if card not in seen]
    rng.shuffle(unseen)
    if dealing:
        state.draft_hands = [
            list(state.draft_hands[h]) if h == seat else [unseen.pop() for _ in state.draft_hands[h]] for h in range(n)
        ]
        state.master_deck = sorted(unseen)
        return
    order = state.c.masters
    histories: list[list[tuple[str, ...]]] = []
    for h in range(n):
        contents: list[set[str] | None] = [None] * (rounds + 1)
        for r in held[h]:
            contents[r] = set(state.draft_history[h][r])
        if contents[rounds] is None:
            last_seen = max(held[h], default=-1)
            if last_seen >= 0:
                passed_on = sorted(contents[last_seen] - {pick_of(state, h, last_seen)})  # type: ignore[operator]
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
                left = contents[prior] - {pick_of(state, h, prior)} - later  # type: ignore[operator]
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
    state.draft_history = histories
    state.draft_hands = [list(history[rounds]) for history in histories]
    state.draft_picks = picks
    state.master_deck = sorted(unseen)


def determinize_after_draft(state: MagnificentState, seat: int, rng: random.Random) -> None:
    """Redraw, in place, the one thing `seat` cannot know once all picks are revealed: which card left which
    hand before the seat first held it. Everything else follows from what it saw: a card of a hand it held
    left that hand with the seat whose revealed picks hold it, and the card no pick holds was removed, so
    every removed card and the master deck stay exactly as they are."""
    n = state.players
    owner = {card: x for x in range(n) for card in state.draft_picks[x]}
    sighted = {h: [r for r in range(PICKS) if (seat - r) % n == h] for h in range(n)}
    slots: dict[tuple[int, int], str] = {}  # (hand, round) -> the card picked from that hand in that round
    contents: dict[tuple[int, int], set[str]] = {}
    for h in range(n):
        first = sighted[h][0]
        hand = set(state.draft_history[h][first])
        for r in range(first, PICKS):
            picker = (h + r) % n
            if picker == seat:
                card = state.draft_picks[seat][r]
            else:
                # the picker's card from this hand: one of its revealed picks still here, not in a later sighting
                later = next((set(state.draft_history[h][x]) for x in sighted[h] if x > r), None)
                candidates = sorted(c for c in hand if owner.get(c) == picker and (later is None or c not in later))
                card = rng.choice(candidates)
            contents[h, r] = set(hand)
            slots[h, r] = card
            hand.discard(card)
        (state.draft_removed[h],) = hand
    placed = set(slots.values())
    unplaced = {x: sorted(set(state.draft_picks[x]) - placed) for x in range(n)}
    for cards in unplaced.values():
        rng.shuffle(cards)
    for h in range(n):
        for r in range(sighted[h][0] - 1, -1, -1):
            slots[h, r] = unplaced[(h + r) % n].pop()
            contents[h, r] = contents[h, r + 1] | {slots[h, r]}
    order = state.c.masters
    state.draft_history = [
        [tuple(sorted(contents[h, r], key=lambda m: order[m].order)) for r in range(PICKS)] for h in range(n)
    ]
    state.draft_picks = [[slots[(x - r) % n, r] for r in range(PICKS)] for x in range(n)]


def pick_of(state: MagnificentState, hand: int, r: int) -> str:
    """The card picked from `hand` at round r (the engine's own record)."""
    before = state.draft_history[hand][r]
    after = set(state.draft_history[hand][r + 1]) if r + 1 < len(state.draft_history[hand]) else set(state.draft_hands[hand])
    (card,) = [c for c in before if c not in after]
    return card
