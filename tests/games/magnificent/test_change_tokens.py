"""The Magnificent's change tokens: every part the rules change gets a fresh token in that step.

Views and observations written before are found again by a part's token alone (referee/games/magnificent/wire.py,
sdk/envs/state_encoders/magnificent.py), so a change that kept its part's token would hand out a stale part. Random
whole games at every player count and variant compare each part after every step (a decision or a chance outcome)
with a deep copy taken before it: a part whose contents differ must hold a new token.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from referee import playout
from referee.games.magnificent import GAME
from referee.games.magnificent.state import TOKENS, MagnificentState
from referee.position import load_position, position_json

VARIANTS: tuple[dict[str, Any], ...] = ({}, {"side_b": True}, {"draft_master_cards": True})


def _parts(state: MagnificentState) -> dict[str, Any]:
    """Each token's name (a player's as `player_tokens[seat]`) -> (the token, a deep copy of what it covers)."""
    parts = {name: (getattr(state, name), copy.deepcopy([getattr(state, field) for field in fields])) for name, fields in TOKENS.items()}
    for seat, player in enumerate(state.players_state):
        parts[f"player_tokens[{seat}]"] = (state.player_tokens[seat], copy.deepcopy(player))
    return parts


def _check_step(state: MagnificentState, rng: random.Random, where: str) -> int:
    """One step, each part compared with its copy from before; how many parts changed."""
    before = _parts(state)
    playout.step(state, rng)
    after = _parts(state)
    changed = 0
    for name, (token, contents) in before.items():
        new_token, new_contents = after[name]
        if new_contents != contents:
            changed += 1
            assert new_token is not token, f"{where}: {name} changed ({contents!r} -> {new_contents!r}) but kept its token"
    return changed


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS, ids=["base", "side_b", "draft"])
def test_every_part_changed_by_a_step_has_a_new_token(players: int, variant: dict[str, Any]) -> None:
    rng = random.Random(players * 10 + len(variant) + ("draft_master_cards" in variant))
    steps = changed = 0
    for game in range(3):
        state = GAME.new_initial_state(GAME.make_config(players, variant))
        while not state.is_terminal():
            changed += _check_step(state, rng, f"{players} players {variant} game {game} step {steps}")
            steps += 1
            if rng.random() < 0.02:
                state = state.clone()  # a clone's parts keep their tokens until the clone changes them
    assert steps > 500 and changed > steps


def test_a_poster_reshuffle_has_a_new_poster_token() -> None:
    """Random games never empty the poster deck: here it is emptied into the discard before a draw from it."""
    rng = random.Random(6)
    state = GAME.new_initial_state(GAME.make_config(2))
    while state.decision_code() != "GP1" or "deck" not in [o.id for o in state.legal_options(state.deciding_seats()[0])]:
        playout.step(state, rng)
    state.poster_discard = state.poster_discard + state.poster_deck
    state.poster_deck = []
    state.renew_tokens()  # edited outside the rules
    before = _parts(state)
    state.apply_decisions({state.deciding_seats()[0]: "deck"})
    assert state.events[-1].kind == "posters_reshuffled" and state.poster_deck and not state.poster_discard
    assert state.poster_token is not before["poster_token"][0]


def test_a_clone_shares_tokens_until_one_of_them_changes_a_part() -> None:
    rng = random.Random(3)
    state = GAME.new_initial_state(GAME.make_config(3))
    for _ in range(60):
        playout.step(state, rng)
    twin = state.clone()
    assert twin.player_tokens == state.player_tokens and twin.player_tokens is not state.player_tokens
    assert all(getattr(twin, name) is getattr(state, name) for name in TOKENS)
    kept = _parts(state)
    while twin.player_tokens == state.player_tokens:
        playout.step(twin, rng)
    assert _parts(state).keys() == kept.keys()
    for name, (token, contents) in _parts(state).items():
        assert token is kept[name][0] and contents == kept[name][1], f"{name} of the source changed with its clone"


def test_determinized_draft_worlds_have_new_draft_and_deck_tokens() -> None:
    rng = random.Random(4)
    state = GAME.new_initial_state(GAME.make_config(3, {"draft_master_cards": True}))
    while state.decision_code() != "SD2":
        playout.step(state, rng)
    playout.step(state, rng)  # one pick made: hands the seat has not seen are redrawn
    world = state.determinize(0, rng)
    assert world.draft_token is not state.draft_token and world.deck_token is not state.deck_token


def test_a_position_read_or_renewed_has_a_new_token_for_every_part() -> None:
    rng = random.Random(5)
    state = GAME.new_initial_state(GAME.make_config(4))
    for _ in range(120):
        playout.step(state, rng)
    loaded = load_position(position_json(state))
    assert isinstance(loaded, MagnificentState)
    for name in TOKENS:
        assert getattr(loaded, name) is not getattr(state, name), name
    assert all(a is not b for a, b in zip(loaded.player_tokens, state.player_tokens, strict=True))
    tokens = [getattr(state, name) for name in TOKENS] + state.player_tokens
    state.renew_tokens()
    assert all(getattr(state, name) not in tokens for name in TOKENS)
    assert all(token not in tokens for token in state.player_tokens)
