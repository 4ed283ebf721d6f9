"""Turning a `--bot` argument (a reference bot name or a command line) into a BotSpec."""

from __future__ import annotations

import functools
import shlex
import shutil
import sys
from pathlib import Path

from referee.errors import BotLaunchError, ConfigError
from referee.match import BotSpec


def resolve_bot(text: str, game: str, in_process: bool = False, sandbox: str = "none") -> BotSpec:
    """A reference bot name (random, heuristic, mcts) or a command line, as a BotSpec.

    Raises ConfigError for a reference bot that cannot play `game` or an unparsable command, and
    BotLaunchError for a command whose program does not exist.
    """
    from bots.registry import bot_names, make_bot, supports

    if text in bot_names():
        if not supports(text, game):
            raise ConfigError(f"reference bot {text!r} cannot play {game}")
        if in_process:
            return BotSpec(name=text, factory=functools.partial(make_bot, text), sandbox=sandbox)
        return BotSpec(name=text, command=(sys.executable, "-m", "bots", text), sandbox=sandbox)
    try:
        argv = shlex.split(text)
    except ValueError as error:
        raise ConfigError(f"bot command {text!r} cannot be parsed: {error}") from None
    if not argv:
        raise ConfigError("empty bot command")
    if shutil.which(argv[0]) is None and not Path(argv[0]).is_file():
        raise BotLaunchError(f"bot {text!r} is neither a reference bot ({', '.join(bot_names())}) nor a command that exists")
    return BotSpec(name=Path(argv[0]).name if len(argv) == 1 else text, command=tuple(argv), sandbox=sandbox)
