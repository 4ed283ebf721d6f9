"""Test bot: writes every request as the Python SDK decoded it to $B99_DUMP (one JSON line each), takes option 0."""

import json
import os

from sdk import Bot, Request
from sdk.run import run


class DumpBot(Bot):
    name = "dump-py"

    def choose(self, request: Request) -> int:
        record = {
            "decision": request.decision,
            "view": dict(request.view),
            "options": [{"id": o.id, "label": o.label, "payload": dict(o.payload)} for o in request.options],
            "events": [{"sequence": e.sequence, "kind": e.kind, "data": dict(e.data)} for e in request.events],
        }
        with open(os.environ["B99_DUMP"], "a") as dump:
            dump.write(json.dumps(record) + "\n")
        return 0


if __name__ == "__main__":
    run(DumpBot())
