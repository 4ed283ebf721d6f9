"""Run a reference bot as a process: `python -m bots NAME` (the referee sets the address and token)."""

from __future__ import annotations

import os
import sys

from bots.registry import UnknownBotError, make_bot
from bots.search.budget import SearchSettingsError
from sdk.run import ConnectionSettingsError, run


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bots NAME", file=sys.stderr)
        return 2
    try:
        bot = make_bot(argv[0])
        try:
            run(bot, name=argv[0])
        finally:
            close = getattr(bot, "close", None)
            if callable(close):
                close()  # helper processes of a search bot stop with it, even when the game ended early
    except (UnknownBotError, SearchSettingsError, ConnectionSettingsError) as error:
        print(f"bots: {error}", file=sys.stderr)
        return 2
    return 0


def exit_now(code: int) -> None:
    """Exit at once once the game is over: the referee waits for its bots to exit, and the interpreter's
    own tear-down (grpc's included) costs a reference bot more than its whole game (docs/benchmarks.md)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    exit_now(main(sys.argv[1:]))
