"""Run a reference bot as a process: `python -m bots NAME` (the referee sets the address and token)."""

from __future__ import annotations

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
        run(bot, name=argv[0])
    except (UnknownBotError, SearchSettingsError, ConnectionSettingsError) as error:
        print(f"bots: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
