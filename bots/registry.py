"""Reference bots by name: `random` for any game, `heuristic` for each game that has one, `learned` for the trained games."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable

import bots.heuristic
from sdk import Bot, GameOverInfo, GameStartInfo, Request


class UnknownBotError(LookupError):
    """No reference bot has this name (or none for this game)."""


class PerGameBot(Bot):
    """Picks the game's own implementation when the game starts (a process does not know its game before)."""

    def __init__(self, name: str, package: str) -> None:
        self.name = name
        self.package = package
        self.inner: Bot | None = None

    def on_game_start(self, start: GameStartInfo) -> None:
        self.inner = per_game_bot(self.package, start.game)
        self.inner.on_game_start(start)

    def choose(self, request: Request):  # type: ignore[no-untyped-def]
        if self.inner is None:
            self.inner = per_game_bot(self.package, request.game)
        return self.inner.choose(request)

    def on_game_over(self, over: GameOverInfo) -> None:
        if self.inner is not None:
            self.inner.on_game_over(over)


def per_game_bot(package: str, game: str) -> Bot:
    try:
        module = importlib.import_module(f"{package}.{game}")
    except ModuleNotFoundError:
        raise UnknownBotError(f"{package.rsplit('.', 1)[-1]} has no bot for {game!r}") from None
    bot_class = getattr(module, "HeuristicBot")
    return bot_class()


def heuristic_games() -> list[str]:
    """Games with a heuristic: the package's public modules (a leading underscore marks a helper module)."""
    return sorted(info.name for info in pkgutil.iter_modules(bots.heuristic.__path__) if not info.name.startswith("_"))


def _random() -> Bot:
    from bots.random_bot import RandomBot

    return RandomBot()


def _mcts() -> Bot:
    from bots.ismcts import ISMCTSBot  # type: ignore[import-not-found]

    return ISMCTSBot()


def _search() -> Bot:
    from bots.search.bot import SearchBot

    return SearchBot()


def _learned() -> Bot:
    from bots.learned.bot import LearnedBot

    return LearnedBot()


FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": _random,
    "search": _search,
    "heuristic": lambda: PerGameBot("heuristic", "bots.heuristic"),
    "learned": _learned,
}


def bot_names() -> list[str]:
    names = list(FACTORIES)
    if importlib.util.find_spec("bots.ismcts") is not None:
        names.append("mcts")
    return names


def make_bot(name: str) -> Bot:
    """A fresh reference bot by name."""
    if name == "mcts" and "mcts" in bot_names():
        return _mcts()
    if name not in FACTORIES:
        raise UnknownBotError(f"no reference bot {name!r} (known: {', '.join(bot_names())})")
    return FACTORIES[name]()


def supports(name: str, game: str) -> bool:
    """True if the named reference bot can play `game`."""
    if name == "heuristic":
        return game in heuristic_games()
    if name == "learned":
        from bots.learned.bot import TRAINED_GAMES

        return game in TRAINED_GAMES
    return name in bot_names()
