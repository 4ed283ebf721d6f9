"""DEEP DIVE's change tokens: every part of the state that changes gets a new token, so a View writer or an
encoder that finds a part by its token (referee/games/deep_dive/wire.py, sdk/envs/state_encoders/deep_dive.py)
never hands out a part written before the change."""

from __future__ import annotations

import random
from typing import Any

from referee import playout
from referee.games.deep_dive import GAME
from referee.games.deep_dive.state import DeepDiveState
from referee.position import load_position, position_json


def _parts(state: DeepDiveState) -> dict[tuple[str, int], tuple[Any, object]]:
    """Each part's contents (copied) with its token."""
    parts: dict[tuple[str, int], tuple[Any, object]] = {}
    for index in range(5):
        inert = list(state.inert[index])
        shown = (state.face_down[index], list(state.unseen[index]), list(state.available[index]), inert,
                 [state.penguin_on.get(t) for t in inert])
        parts[("depth", index)] = (shown, state.depth_tokens[index])
    for player in range(state.players):
        shown = ([list(c) for c in state.columns[player]], list(state.rocks[player]), list(state.captured[player]))
        parts[("board", player)] = (shown, state.board_tokens[player])
    ai = ([list(c) for c in state.ai_columns], list(state.ai_rocks), list(state.ai_open_water))
    parts[("ai", 0)] = (ai, state.ai_token)
    parts[("discarded", 0)] = (list(state.discarded), state.discarded_token)
    return parts


def test_a_part_that_changes_gets_a_new_token_and_clones_share_tokens_until_they_differ() -> None:
    changed = 0
    for players in range(1, 7):
        rng = random.Random(players)
        for _ in range(3):
            state = GAME.new_initial_state(GAME.make_config(players))
            while not state.is_terminal():
                before = _parts(state)
                twin = state.clone()
                assert _parts(twin) == before
                playout.step(state, rng)
                after = _parts(state)
                for name, (shown, token) in after.items():
                    old_shown, old_token = before[name]
                    if shown != old_shown:
                        assert token is not old_token, f"{players} players: {name} changed but kept its token"
                        changed += 1
                assert _parts(twin) == before  # the clone is untouched by the original's step
                if not twin.is_terminal():
                    playout.step(twin, rng)
                    for name, (shown, token) in _parts(twin).items():
                        if shown != before[name][0]:
                            assert token is not before[name][1] and token is not after[name][1]
    assert changed > 1000


def test_a_state_read_from_a_position_has_tokens_of_its_own() -> None:
    rng = random.Random(7)
    state = GAME.new_initial_state(GAME.make_config(3))
    for _ in range(40):
        playout.step(state, rng)
    loaded = load_position(position_json(state))
    assert "depth_tokens" not in position_json(state)["state"]
    tokens = {id(t) for t in (*state.depth_tokens, *state.board_tokens, state.ai_token, state.discarded_token)}
    assert not tokens & {id(t) for t in (*loaded.depth_tokens, *loaded.board_tokens, loaded.ai_token, loaded.discarded_token)}
