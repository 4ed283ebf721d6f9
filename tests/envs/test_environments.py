"""The PettingZoo AEC and Gymnasium environments of every game: the libraries' own checks, determinism, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from referee.errors import ConfigError, RuleError
from referee.registry import all_games
from sdk.envs import aec_env, gym_env
from sdk.envs.actions import IllegalActionError

EXTREMES = [(game.id, count) for game in all_games() for count in sorted({game.min_players, game.max_players})]


@pytest.mark.parametrize(("game_id", "players"), EXTREMES)
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to use a Box observation: ours is the classic dict with a mask
        api_test(aec_env(game_id, players=players), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize(("game_id", "players"), EXTREMES)
def test_gymnasium_check_env(game_id: str, players: int) -> None:
    env = gym_env(game_id, opponents=["random"] * (players - 1), players=players, illegal="lose")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def play_aec(game_id: str, players: int, seed: int, variants: dict) -> list[bytes]:  # type: ignore[type-arg]
    """Observations along (the first 400 steps of) one game where each agent plays its first legal action."""
    env = aec_env(game_id, players=players, **variants)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = env.last()
        seen.append(observation["observation"].tobytes() + observation["action_mask"].tobytes())
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    return seen


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_same_seed_same_actions_same_observations(game) -> None:  # type: ignore[no-untyped-def]
    variants = dict(game.test_variants[-1])
    players = game.max_players if game.id != "underground_dice" else 2
    try:
        game.make_config(players, variants)
    except ConfigError:
        variants = {}
    first = play_aec(game.id, players, 5, variants)
    assert play_aec(game.id, players, 5, variants) == first
    assert play_aec(game.id, players, 6, variants) != first


def test_simultaneous_draft_takes_each_seat_in_turn_and_applies_together() -> None:
    env = aec_env("merchants", players=3)
    env.reset(seed=2)
    while env.infos[env.agent_selection].get("decision") != "choose_tile":
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    order = []
    before = env.observe("player_1")["observation"].copy()
    for _ in range(3):
        agent = env.agent_selection
        order.append(agent)
        assert env.infos[agent]["decision"] == "choose_tile"
        if agent == "player_1":
            assert np.array_equal(env.observe("player_1")["observation"], before), "player_0's pick leaked"
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2"]


def test_an_illegal_action_is_an_error_naming_it() -> None:
    env = aec_env("underground_dice")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \('[^']+'\) is not legal for seat \d at 'set_pins'"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="outside"):
        env.step(10_000)
    single = gym_env("underground_dice", opponents=["random"])
    observation, _ = single.reset(seed=3)
    with pytest.raises(IllegalActionError, match="is not legal"):
        single.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_gym_opponents_may_be_names_bots_or_callables() -> None:
    from bots.random_bot import RandomBot

    first_legal = lambda observation, info: int(np.flatnonzero(observation["action_mask"])[0])  # noqa: E731
    env = gym_env("fuji99", opponents=["heuristic", RandomBot(seed=1), first_legal], players=4, seat=2)
    observation, info = env.reset(seed=4)
    done = False
    while not done:
        assert info["options"], "the learner is asked only when it decides"
        observation, reward, done, _, info = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert sorted(info["result"].ranks)[0] == 1 and -1.0 <= reward <= 1.0
    with pytest.raises(ConfigError, match="needs 3 opponents"):
        gym_env("fuji99", opponents=["random"], players=4)
    with pytest.raises(RuleError, match="over"):
        env.table.act(0, 0)


@pytest.mark.parametrize("game_id", ["underground_dice", "merchants", "fuji99"])
def test_a_random_opponent_draws_as_the_random_bot_answering_its_request(game_id: str) -> None:
    """`random` opponents draw from the table's options without a Request: the games must be the same."""
    from bots.random_bot import RandomBot

    class ThroughRequests(RandomBot):  # not RandomBot itself: answers the Request a match would send
        pass

    players = 3 if game_id != "underground_dice" else 2
    fast = gym_env(game_id, opponents=[RandomBot() for _ in range(players - 1)], players=players)
    slow = gym_env(game_id, opponents=[ThroughRequests() for _ in range(players - 1)], players=players)
    for seed in (1, 2):
        seen = []
        for env in (fast, slow):
            observation, _ = env.reset(seed=seed)
            trace = [observation["observation"].tobytes()]
            for _ in range(60):
                action = int(np.flatnonzero(observation["action_mask"])[0])
                observation, _, terminated, _, _ = env.step(action)
                trace.append(observation["observation"].tobytes())
                if terminated:
                    break
            seen.append(trace)
        assert seen[0] == seen[1]


def test_gym_env_stays_the_function_after_an_environment_is_made() -> None:
    import sdk.envs

    gym_env("underground_dice", opponents=["random"])
    aec_env("underground_dice")
    assert sdk.envs.gym_env is gym_env and sdk.envs.aec_env is aec_env
