"""The Bot base class: implement `choose`; the hooks are optional."""

from __future__ import annotations

from sdk.types import GameOverInfo, GameStartInfo, OptionInfo, Request


class Bot:
    """A bot plays one seat. The same object works in-process and over gRPC (see sdk.run)."""

    #: Shown in match reports and replays.
    name: str = "bot"
    #: True to receive a world from the seat's information set with each request (`Request.world`,
    #: see sdk.forward): for Python bots that search with the game engines.
    wants_world: bool = False

    def choose(self, request: Request) -> str | int | OptionInfo:
        """Return the chosen option: its id, its index, or the OptionInfo itself."""
        raise NotImplementedError

    def on_game_start(self, start: GameStartInfo) -> None:
        """Called once before the first request."""

    def on_game_over(self, over: GameOverInfo) -> None:
        """Called once with the final ranks and scores."""
