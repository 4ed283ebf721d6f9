"""B99 Arena Python SDK: write a bot by subclassing `Bot` and implementing `choose`."""

from sdk.bot import Bot
from sdk.types import ClockInfo, EventInfo, GameOverInfo, GameStartInfo, OptionInfo, Request

__all__ = ["Bot", "ClockInfo", "EventInfo", "GameOverInfo", "GameStartInfo", "OptionInfo", "Request"]
