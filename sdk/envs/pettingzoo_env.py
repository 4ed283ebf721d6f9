"""The PettingZoo AEC environment of a B99 game (needs the `rl` extra: pip install -e '.[rl]').

Agents are `player_0` .. `player_{N-1}` (seat order). Each observation is a dict
`{"observation": float32 vector, "action_mask": int8 vector}` (from the game's encoder from the state
when it has one, sdk/envs/state_encoders); `infos[agent]` holds the typed view (built when first read),
the decision name and the legal options of the agent to move. Simultaneous decisions follow the AEC
turn order: the deciding seats choose one after another in seat order, and the choices are applied
together when the last one is in (none of them sees another's choice). Rewards come at the end
(`sdk.envs.table.rewards_for`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from sdk.envs.table import Table

OBSERVATION_BOUND = 1.0e6


def observation_space(table: Table) -> spaces.Dict:
    """The observation space every agent of a game shares."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, (table.encoding.view.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (table.encoding.actions.size,), np.int8),
        }
    )


class B99AECEnv(AECEnv):  # type: ignore[misc]
    """One B99 game as a PettingZoo AEC environment; chance is drawn from the seed given to `reset`."""

    metadata = {"render_modes": [], "name": "b99_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, variants: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.table = Table(game, players, variants)
        self.metadata = {**self.metadata, "name": f"b99_{game}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.table.players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        shared = observation_space(self.table)
        self.observation_spaces = {agent: shared for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.table.encoding.actions.size) for agent in self.possible_agents}
        self.render_mode = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observation(self.agent_seat[agent])

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's `last` (the agent to act's observation, cumulative reward, flags and info), in one go."""
        agent = self.agent_selection
        return (
            self.table.observation(self.agent_seat[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.act(self.agent_seat[agent], action)
        self._after_move()

    def _after_move(self) -> None:
        """Select the next agent; at the end, hand out rewards and mark everyone terminated.

        Rewards are zero until the end, so a step before it leaves `rewards` (all zeros since `reset`) as it is.
        """
        table = self.table
        seat, info = table.mover_info()
        if seat is not None:
            self.agent_selection = agent = self.possible_agents[seat]
            self.infos[agent] = info  # type: ignore[assignment]
            return
        for agent, reward in zip(self.possible_agents, table.rewards()):
            self.rewards[agent] = reward
            self.terminations[agent] = True
            self.infos[agent] = table.final_info(self.agent_seat[agent])
        self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """PettingZoo's `agent_iter` (the agent to act, while any agent is left, at most `max_iter` times), as a
        generator: resuming one costs less than the library's iterator object's `__next__`."""
        return _agents(self, max_iter)

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def _agents(env: B99AECEnv, max_iter: int) -> Iterator[str]:
    """The agent to act, while `env` has agents left, at most `max_iter` times."""
    while max_iter > 0 and env.agents:
        max_iter -= 1
        yield env.agent_selection
