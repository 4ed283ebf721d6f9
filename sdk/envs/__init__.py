"""Training environments over the game engines: PettingZoo, Gymnasium and OpenSpiel (docs/training.md).

    from sdk.envs import aec_env, gym_env
    env = aec_env("fuji99", players=4)               # PettingZoo AEC, every seat a learner
    env = gym_env("underground_dice", opponents=["random"])   # Gymnasium, one seat
    import sdk.envs.openspiel                         # registers pyspiel games b99_<id>

The encodings (sdk/envs/encodings/) need only numpy; the environments need the `rl` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sdk.envs.encodings import GameEncoding, game_encoding
from sdk.envs.table import Table, rewards_for

__all__ = ["GameEncoding", "Table", "aec_env", "game_encoding", "gym_env", "rewards_for"]


def aec_env(game: str, players: int | None = None, **variants: Any) -> Any:  # noqa: ANN401 - pettingzoo's AECEnv
    """A PettingZoo AEC environment of `game` (its default player count when `players` is None)."""
    from sdk.envs.pettingzoo_env import B99AECEnv

    return B99AECEnv(game, players, variants)


def gym_env(
    game: str,
    opponents: Sequence[Any] = ("random",),
    seat: int = 0,
    players: int | None = None,
    illegal: str = "raise",
    **variants: Any,
) -> Any:  # noqa: ANN401 - gymnasium's Env
    """A Gymnasium environment of one seat of `game` against `opponents` (bot names, Bot objects or callables).

    `illegal="lose"` ends the episode with reward -1 on an illegal action instead of raising."""
    from sdk.envs.gymnasium_env import B99GymEnv

    return B99GymEnv(game, opponents=list(opponents), seat=seat, players=players, variants=variants, illegal=illegal)
