"""The master card draft variant: dealing, simultaneous picks passed left, secrecy and determinize."""

from __future__ import annotations

import random

from referee import playout
from referee.games.magnificent import GAME
from tests import conformance
from tests.games.magnificent.helpers import ids, setup_game


def _draft_state(players: int):  # type: ignore[no-untyped-def]
    return setup_game(players, start=0, variants={"draft_master_cards": True}, draft=False)


def test_deal_and_first_pick_are_private() -> None:
    state = _draft_state(3)
    assert state.decision_code() == "SD2" and state.deciding_seats() == (0, 1, 2)
    hands = [ids(state, seat) for seat in range(3)]
    assert all(len(hand) == 5 for hand in hands)
    assert len({card for hand in hands for card in hand}) == 15
    assert len(state.master_deck) == 56 - 15  # the display is drawn after the draft
    for seat in range(3):
        view = state.private_view(seat)
        assert view["draft_hand"] == [o.split(":")[1] for o in hands[seat]]
        others = [state.private_view(s) for s in range(3) if s != seat]
        assert all(set(v["draft_hand"]).isdisjoint(view["draft_hand"]) for v in others)
    public = state.public_view()
    assert "draft_hand" not in public and "draft_picks" not in public
    dealt = [e for e in state.events if e.kind == "draft_hand"]
    assert all(e.audience is not None and len(e.audience) == 1 for e in dealt)


def test_hands_pass_left_and_picks_are_revealed_together() -> None:
    state = _draft_state(3)
    first_hands = [ids(state, seat) for seat in range(3)]
    state.apply_decisions({seat: first_hands[seat][0] for seat in range(3)})
    # seat 1 now holds what seat 0 passed on
    assert ids(state, 1) == first_hands[0][1:]
    assert all(p.masters == [] for p in state.players_state)
    for _ in range(3):
        state.apply_decisions({seat: ids(state, seat)[0] for seat in range(3)})
    picks = [p.masters for p in state.players_state]
    assert all(len(cards) == 4 for cards in picks)
    revealed = [e for e in state.events if e.kind == "draft_revealed"]
    assert [e.data["seat"] for e in revealed] == [0, 1, 2] and all(e.audience is None for e in revealed)
    removed = [e for e in state.events if e.kind == "draft_removed"]
    assert len(removed) == 3 and all(len(e.audience or ()) == 1 for e in removed)
    assert all(state.private_view(s)["draft_removed"] for s in range(3))
    assert state.is_chance_node() and state.chance[0] == "master_display"  # setup goes on with the display


def test_solo_draft_keeps_its_hand() -> None:
    state = _draft_state(1)
    hand = ids(state, 0)
    state.apply_decisions({0: hand[2]})
    assert ids(state, 0) == hand[:2] + hand[3:]


def test_determinize_keeps_what_the_seat_saw_at_every_draft_step() -> None:
    rng = random.Random(3)
    for players in (2, 3, 4):
        state = GAME.new_initial_state(GAME.make_config(players, {"draft_master_cards": True}))
        worlds: set[str] = set()
        for _ in range(120):
            if state.decision_code() not in ("", "SD2") or state.is_terminal():
                break
            for seat in range(players):
                observed = conformance.seat_observation(state, seat)
                for _ in range(2):
                    world = state.determinize(seat, rng)
                    assert conformance.seat_observation(world, seat) == observed
                    worlds.add(repr(conformance.fingerprint(world)))
                    picks = [card for p in world.draft_picks for card in p]
                    hands = [card for h in world.draft_hands for card in h]
                    shown = [m for m, _ in world.display if m] + [c for c in world.draft_removed if c]
                    cards = picks + hands + world.master_deck + shown
                    assert len(set(cards)) == len(cards) and len(cards) in (0, 56)
            playout.step(state, rng)
        assert len(worlds) > 1
        conformance._play_to_end(state.determinize(0, rng), rng, state, conformance.PlayRecord(state.config, 0))


def _after_draft(players: int, seed: int):  # type: ignore[no-untyped-def]
    """A game just past the draft's reveal, with random picks."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(GAME.make_config(players, {"draft_master_cards": True}))
    while state.draft_round < 4:
        playout.step(state, rng)
    return state


def test_worlds_after_the_draft_keep_everything_the_seat_can_deduce() -> None:
    """Removed cards follow from the hands a seat held and the revealed picks: worlds must keep them (and the deck)."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        for seed in range(3):
            state = _after_draft(players, seed)
            for seat in range(players):
                histories = set()
                for _ in range(10):
                    world = state.determinize(seat, rng)
                    assert world.draft_removed == state.draft_removed
                    assert world.master_deck == state.master_deck
                    assert world.draft_picks[seat] == state.draft_picks[seat]
                    assert [set(p) for p in world.draft_picks] == [set(p) for p in state.draft_picks]
                    for r in range(4):
                        held = (seat - r) % players
                        assert world.draft_history[held][r] == state.draft_history[held][r]
                    for hand in range(players):
                        for r in range(4):
                            picker = (hand + r) % players
                            after = set(world.draft_history[hand][r]) - {world.draft_picks[picker][r]}
                            assert len(after) == 4 - r
                            expected = set(world.draft_history[hand][r + 1]) if r < 3 else {world.draft_removed[hand]}
                            assert after == expected
                    histories.add(repr(world.draft_history))
                if players == 4:
                    assert len(histories) > 1  # what it never saw is redrawn, not copied from the truth
