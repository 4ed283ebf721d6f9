"""A random bot that thinks for B99_SLOW_SECONDS (default 0.08) per decision: matches that last
long enough to kill something in the middle of one."""

from __future__ import annotations

import os
import time

from bots.random_bot import RandomBot
from sdk.run import run


class SlowBot(RandomBot):
    name = "slow"

    def choose(self, request):  # type: ignore[no-untyped-def]
        time.sleep(float(os.environ.get("B99_SLOW_SECONDS", "0.08")))
        return super().choose(request)


if __name__ == "__main__":
    run(SlowBot(), name="slow")
