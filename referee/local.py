"""Fast in-process matches (no gRPC, no processes) through the same runner, for simulation and tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee import messages
from referee.clock import SeatClock, TimeControl
from referee.engine import GameState, Seat
from referee.match import BotSpec, MatchReport, MatchSpec, run_match
from referee.wire import get_wire
from sdk.bot import Bot
from sdk.decode import game_start_info, request_info
from sdk.types import Request

UNLIMITED = TimeControl(per_decision_seconds=3600.0, bank_seconds=0.0, startup_seconds=1.0)


def play_local(
    game_id: str,
    bots: Sequence[Bot],
    seed: int,
    players: int | None = None,
    variants: Mapping[str, Any] | None = None,
    replay_path: str | None = None,
    position: Mapping[str, Any] | None = None,
) -> MatchReport:
    """Play one game between Bot objects in this process; seats in the order given.

    `position` (referee.position JSON, for example from `b99 replay position`) starts the game there:
    the way to test a bot on the exact position where it blundered."""
    if players is not None and players != len(bots):
        from referee.errors import ConfigError

        raise ConfigError(f"{players} players but {len(bots)} bots")
    specs = [BotSpec(name=getattr(bot, "name", type(bot).__name__), factory=_constant(bot)) for bot in bots]
    return run_match(
        MatchSpec(
            game=game_id,
            bots=specs,
            seed=seed,
            variants=dict(variants or {}),
            time_control=UNLIMITED,
            replay_path=replay_path,
            position=position,
        )
    )


def _constant(bot: Bot):  # type: ignore[no-untyped-def]
    return lambda: bot


def request_for(state: GameState, seat: Seat, since_event: int | None = None) -> Request:
    """The Request `seat` would receive now in a match, built and decoded exactly as on the wire.

    Events are those the seat may see from log position `since_event` on (default: none).
    """
    control = TimeControl()
    start = game_start_info(messages.game_start("local", state.config, seat, control).game_start)
    events = [] if since_event is None else messages.seat_events(state, seat, since_event)
    message = messages.decision_request(
        get_wire(state.game.id), 1, state, seat, list(state.legal_options(seat)), events, SeatClock.start(control)
    )
    return request_info(start, message)
