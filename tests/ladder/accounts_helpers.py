"""Shared pieces of the account tests: a bot folder as an author writes one, and a ladder served
with its loop running in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ladder.server import LadderServer
from ladder.service import SchedulerOptions
from ladder.settings import LadderSettings

GOOD_BOT = '''"""A bot folder's entry point: plays a random legal option."""
import random

from sdk import Bot, Request
from sdk.run import run


class Picker(Bot):
    name = "picker"

    def choose(self, request: Request) -> str:
        return random.choice(list(request.options)).id


if __name__ == "__main__":
    run(Picker())
'''

#: A version that dies at its first decision, saying why on stderr.
FAULTY_BOT = GOOD_BOT.replace("        return random.choice(list(request.options)).id",
                              "        raise RuntimeError('version 2 forgot how to count')")


def write_bot(folder: Path, source: str = GOOD_BOT) -> Path:
    """A bot folder: bot.py, a helper file, and files .b99ignore leaves out."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(source)
    (folder / "notes.txt").write_text("kept\n")
    (folder / "big.bin").write_bytes(b"\0" * 1000)
    (folder / "cache").mkdir(exist_ok=True)
    (folder / "cache" / "x.dat").write_text("left out")
    (folder / ".b99ignore").write_text("# not uploaded\n*.bin\ncache/\n")
    return folder


@contextmanager
def running_ladder(settings: LadderSettings, workers: int = 2, **servers: Any) -> Iterator[LadderServer]:
    """A ladder with its loop running (local executor) and the servers asked for; stopped after."""
    server = LadderServer(settings, SchedulerOptions(concurrency=workers, seed=3, tick_seconds=0.05), workers=workers, **servers)
    server.start()
    loop = threading.Thread(target=server.run, daemon=True)
    loop.start()
    try:
        yield server
    finally:
        server.stop()
        loop.join(30)


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1 and its key (openssl), as PEM files."""
    import subprocess

    directory.mkdir(parents=True, exist_ok=True)
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True, timeout=60,
    )
    return cert, key
