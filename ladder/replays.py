"""Replays of finished matches, stored compressed in the database beside the result they belong to,
so that a worker needs no shared disk and a replay is never orphaned or lost."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from sqlmodel import select

from ladder.db import read_session
from ladder.models import Match, ReplayBlob
from ladder.settings import LadderSettings


class ReplayStoreError(ValueError):
    """A stored replay that cannot be read back (an unknown codec or corrupt data)."""


def decode(blob: ReplayBlob) -> bytes:
    """The replay's JSON lines from its stored form."""
    if blob.codec != "zlib":
        raise ReplayStoreError(f"replay of match {blob.match_id}: unknown codec {blob.codec!r}")
    try:
        return zlib.decompress(blob.data)
    except zlib.error as error:
        raise ReplayStoreError(f"replay of match {blob.match_id}: corrupt data ({error})") from None


def load_replay(settings: LadderSettings, match_id: int) -> bytes | None:
    """The replay of a match (JSON lines), from the database, else from the file older ladders
    wrote; None if it has none."""
    with read_session(settings.db_url) as session:
        blob = session.get(ReplayBlob, match_id)
        if blob is not None:
            return decode(blob)
        match = session.get(Match, match_id)
    if match is not None and match.replay_path and Path(match.replay_path).exists():
        return Path(match.replay_path).read_bytes()
    return None


def has_replay(settings: LadderSettings, match_id: int) -> bool:
    """Whether a match has a stored replay."""
    with read_session(settings.db_url) as session:
        if session.exec(select(ReplayBlob.match_id).where(ReplayBlob.match_id == match_id)).first() is not None:
            return True
        match = session.get(Match, match_id)
    return bool(match is not None and match.replay_path and Path(match.replay_path).exists())


def replay_file(settings: LadderSettings, match_id: int) -> Path | None:
    """A file holding the match's replay, for readers that take a path: the file an older ladder
    wrote, else the stored replay written once to <home>/replay-cache/<id>.jsonl; None if it has none."""
    with read_session(settings.db_url) as session:
        match = session.get(Match, match_id)
        if match is not None and match.replay_path and Path(match.replay_path).exists():
            return Path(match.replay_path)
        blob = session.get(ReplayBlob, match_id)
    if blob is None:
        return None
    path = settings.home / "replay-cache" / f"{match_id}-{blob.attempt}.jsonl"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(decode(blob))
        partial.replace(path)  # atomic: readers never see half a replay
    return path
