"""OpenSpiel games `b99_<id>`: OpenSpiel's own random-simulation test at every player count, and its ISMCTS bot."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is in the rl extra, which scripts/setup installs")

import sdk.envs.openspiel  # noqa: E402,F401 - registers the games
from referee.registry import all_games  # noqa: E402
from sdk.envs.openspiel import ismcts_bot  # noqa: E402

COUNTS = [(game.id, count) for game in all_games() for count in range(game.min_players, game.max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), COUNTS)
def test_openspiel_random_simulation(game_id: str, players: int) -> None:
    game = pyspiel.load_game(f"b99_{game_id}", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_variants_are_game_parameters() -> None:
    game = pyspiel.load_game("b99_underground_dice", {"counterfeit": True, "stake_cap": "3"})
    assert game.config.variants["counterfeit"] is True and game.config.variants["stake_cap"] == 3
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("b99_underground_dice", {"no_such_flag": 1})


def test_tensors_and_strings_are_the_seat_view() -> None:
    game = pyspiel.load_game("b99_fuji99", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node() or state.current_player() != 1:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    encoding = game.encoding
    view = state.table.state.private_view(1)
    assert np.array_equal(np.asarray(state.observation_tensor(1), np.float32), encoding.view.encode(view))
    assert np.array_equal(np.asarray(state.information_state_tensor(1), np.float32), encoding.view.encode(view))
    assert '"view"' in state.information_state_string(1) and state.observation_string(1).startswith("{")
    assert all(encoding.actions.ids[action] for action in state.legal_actions())


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_ismcts_plays_a_whole_game(game) -> None:  # type: ignore[no-untyped-def]
    players = 2 if game.min_players <= 2 <= game.max_players else game.min_players
    spiel = pyspiel.load_game(f"b99_{game.id}", {"players": players})
    bots = [ismcts_bot(spiel, simulations=2, seed=seat) for seat in range(players)]
    state = spiel.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert len(state.returns()) == players
