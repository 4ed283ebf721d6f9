"""B99 Arena Python SDK: write a bot by subclassing `Bot` and implementing `choose`."""

from sdk.bot import Bot
from sdk.seeds import seed_was_committed
from sdk.types import ClockInfo, EventInfo, GameOverInfo, GameStartInfo, OptionInfo, Request

__all__ = ["Bot", "ClockInfo", "EventInfo", "GameOverInfo", "GameStartInfo", "OptionInfo", "Request", "seed_was_committed"]
