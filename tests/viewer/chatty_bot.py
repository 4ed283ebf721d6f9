"""A random bot that says what it is doing at each decision: a `print` (stdout) and a line on stderr."""

from __future__ import annotations

import sys

from bots.random_bot import RandomBot
from sdk.run import run


class ChattyBot(RandomBot):
    name = "chatty"

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def choose(self, request):  # type: ignore[no-untyped-def]
        self.asked += 1
        print(f"printed at decision {self.asked}")
        print(f"stderr at decision {self.asked}", file=sys.stderr)
        return super().choose(request)


if __name__ == "__main__":
    run(ChattyBot(), name="chatty")
