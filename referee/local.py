"""Fast in-process matches (no gRPC, no processes) through the same runner, for simulation and tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.clock import TimeControl
from referee.match import BotSpec, MatchReport, MatchSpec, run_match
from sdk.bot import Bot

UNLIMITED = TimeControl(per_decision_seconds=3600.0, bank_seconds=0.0, startup_seconds=1.0)


def play_local(
    game_id: str,
    bots: Sequence[Bot],
    seed: int,
    players: int | None = None,
    variants: Mapping[str, Any] | None = None,
    replay_path: str | None = None,
) -> MatchReport:
    """Play one game between Bot objects in this process; seats in the order given."""
    if players is not None and players != len(bots):
        from referee.errors import ConfigError

        raise ConfigError(f"{players} players but {len(bots)} bots")
    specs = [BotSpec(name=getattr(bot, "name", type(bot).__name__), factory=_constant(bot)) for bot in bots]
    return run_match(
        MatchSpec(game=game_id, bots=specs, seed=seed, variants=dict(variants or {}), time_control=UNLIMITED, replay_path=replay_path)
    )


def _constant(bot: Bot):  # type: ignore[no-untyped-def]
    return lambda: bot
