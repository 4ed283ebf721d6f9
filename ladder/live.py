"""Live replays across machines: a worker writes the lines its running match appends to the replay
into the database, a chunk at a time, so that the service's live page can follow a match played on
any machine (it needs nothing shared but the database). Chunks go when the match closes."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, col, delete, select

from ladder.db import read_session, write_session
from ladder.models import LiveChunk
from ladder.settings import LadderSettings
from ladder.ticker import Ticker

#: How often a worker sends the new lines of a running replay.
PUBLISH_SECONDS = 0.5
#: The most bytes one chunk carries (a longer backlog goes in several).
CHUNK_BYTES = 256 * 1024


def drop_live_chunks(session: Session, match_id: int) -> None:
    """Delete a match's live chunks (every attempt's), in the caller's transaction."""
    # No chunk is ever loaded as an object in the transactions that close a match: nothing to synchronise.
    session.exec(  # type: ignore[call-overload]
        delete(LiveChunk).where(col(LiveChunk.match_id) == match_id).execution_options(synchronize_session=False))


def live_text(settings: LadderSettings, match_id: int, attempt: int, after: int) -> tuple[str, int]:
    """The replay lines of `attempt` written after chunk `after`, and the last chunk's number."""
    with read_session(settings.db_url) as session:
        chunks = session.exec(
            select(LiveChunk).where(LiveChunk.match_id == match_id, LiveChunk.attempt == attempt, LiveChunk.seq > after)
            .order_by(col(LiveChunk.seq))
        ).all()
    if not chunks:
        return "", after
    return b"".join(chunk.data for chunk in chunks).decode("utf-8"), chunks[-1].seq


class LivePublisher(Ticker):
    """A thread that sends the complete lines a running match appended to its live replay file."""

    what = "live replay"

    def __init__(self, settings: LadderSettings, match_id: int, attempt: int, live_path: Path,
                 interval: float = PUBLISH_SECONDS) -> None:
        super().__init__(f"live-{match_id}", interval)
        self.settings, self.match_id, self.attempt, self.live_path = settings, match_id, attempt, live_path
        self.offset = 0
        self.seq = 0

    def describe(self) -> str:
        return f"match {self.match_id}"

    def tick(self) -> bool:
        self.publish()
        return True

    def publish(self) -> None:
        """Send whatever complete lines were appended since the last call."""
        if not self.live_path.exists():
            return
        with self.live_path.open("rb") as handle:
            handle.seek(self.offset)
            data = handle.read(CHUNK_BYTES)
        complete = data[: data.rfind(b"\n") + 1]
        if not complete:
            return
        with write_session(self.settings.db_url) as session:
            session.add(LiveChunk(match_id=self.match_id, attempt=self.attempt, seq=self.seq + 1, data=complete))
        self.seq += 1
        self.offset += len(complete)
