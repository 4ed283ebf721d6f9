"""B99 Arena Python SDK: write a bot by subclassing `Bot` and implementing `choose`."""

from typing import TYPE_CHECKING, Any

from sdk.bot import Bot
from sdk.types import ClockInfo, EventInfo, GameOverInfo, GameStartInfo, OptionInfo, Request

if TYPE_CHECKING:
    from sdk.seeds import seed_was_committed

__all__ = ["Bot", "ClockInfo", "EventInfo", "GameOverInfo", "GameStartInfo", "OptionInfo", "Request", "seed_was_committed"]


def __getattr__(name: str) -> Any:  # noqa: ANN401 - the lazily imported attribute
    """`seed_was_committed` is imported when first used: a bot process that never checks its seed does not pay for it."""
    if name == "seed_was_committed":
        from sdk.seeds import seed_was_committed

        return seed_was_committed
    raise AttributeError(f"module 'sdk' has no attribute {name!r}")
