"""Turning a `--bot` argument (a reference bot name or a command line) into a BotSpec."""

from __future__ import annotations

import difflib
import functools
import shlex
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from referee.errors import BotLaunchError, ConfigError
from referee.match import BotSpec

#: Program names that mean "the referee's own Python" (the one with the SDK installed).
PYTHON_NAMES = ("python", "python3")
#: Program names that mean the Node on the referee's PATH (the one `npm install` put the JS SDK in with).
NODE_NAMES = ("node", "nodejs")


def did_you_mean(text: str, known: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest known name, or '' when none is close."""
    close = difflib.get_close_matches(text, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def own_program(argv: Sequence[str]) -> tuple[str, ...]:
    """The command with `python`/`python3`, `node` and `b99` as the referee's own runtimes and command line.

    A bot command written `python bot.py` means the Python that has the SDK, whatever the shell's PATH
    holds (or lacks: a shell without an activated environment may have no `python` at all); `node`
    means the Node the referee's PATH finds (a sandbox's own PATH is only the system's); `b99 bridge
    -- ...` means this installation's bridge even when `b99` is not on PATH. `b99 match`, `b99 play`,
    tournaments and every ladder worker (validation and rated games alike) map commands through here.
    """
    if not argv:
        return ()
    program, rest = argv[0], tuple(argv[1:])
    if program in PYTHON_NAMES:
        return (sys.executable, *rest)
    if program in NODE_NAMES:
        found = shutil.which(program)
        return (found, *rest) if found else tuple(argv)
    if program == "b99":
        own = Path(sys.executable).with_name("b99")
        if own.is_file():
            return (str(own), *rest)
        found = shutil.which("b99")
        return ((found, *rest) if found else (sys.executable, "-m", "referee.cli", *rest))
    return tuple(argv)


def resolve_bot(text: str, game: str, in_process: bool = False, sandbox: str = "none") -> BotSpec:
    """A reference bot name (random, heuristic, mcts) or a command line, as a BotSpec.

    Raises ConfigError for a reference bot that cannot play `game` or an unparsable command, and
    BotLaunchError for a command whose program does not exist (with the closest bot name, if any).
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
    command = own_program(argv)
    if shutil.which(command[0]) is None and not Path(command[0]).is_file():
        raise BotLaunchError(
            f"bot {text!r} is neither a reference bot ({', '.join(bot_names())}) nor a command that exists"
            + did_you_mean(text, bot_names())
        )
    from referee.launcher import missing_script

    script = missing_script(command, None)
    if script is not None:
        raise BotLaunchError(f"bot {text!r}: its script {script!r} does not exist (looked in {Path.cwd()})")
    return BotSpec(name=Path(argv[0]).name if len(argv) == 1 else text, command=command, sandbox=sandbox)
