"""The replay viewer inside the ladder's pages: a finished match's replay from every perspective, and a
running match followed live (spectator only). Plain functions over `referee.viewer.app`, for any web server."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ladder import queries
from ladder.live import live_text
from ladder.replays import replay_file
from ladder.settings import LadderSettings
from referee.errors import ReplayError
from referee.replay import live_path_of, read_replay
from referee.viewer.app import LiveReplay, Reply, ReplayPages
from referee.viewer.timeline import Timeline

_LIVE: dict[str, LiveReplay] = {}
_LOCK = threading.Lock()
#: Bytes of replay files whose timelines are kept in memory for the finished-match viewer.
FINISHED_CACHE_BYTES = 64 * 2**20


@dataclass
class TimelineCache:
    """Finished matches' timelines, least recently used dropped first once their replays' sizes (a timeline
    holds about as much as its file) pass `limit_bytes`; a replay alone bigger than the limit is not kept."""

    limit_bytes: int
    entries: OrderedDict[str, tuple[float, int, Timeline]] = field(default_factory=OrderedDict)
    held_bytes: int = 0

    def get(self, path: str, load: Callable[[str], Timeline] = lambda path: Timeline.from_records(read_replay(path))) -> Timeline:
        stat = Path(path).stat()
        with _LOCK:
            cached = self.entries.get(path)
            if cached is not None and cached[0] == stat.st_mtime:
                self.entries.move_to_end(path)
                return cached[2]
        timeline = load(path)
        with _LOCK:
            self._drop(path)
            if stat.st_size <= self.limit_bytes:
                self.entries[path] = (stat.st_mtime, stat.st_size, timeline)
                self.held_bytes += stat.st_size
            while self.held_bytes > self.limit_bytes and self.entries:
                self._drop(next(iter(self.entries)))
        return timeline

    def _drop(self, path: str) -> None:
        old = self.entries.pop(path, None)
        if old is not None:
            self.held_bytes -= old[1]


_FINISHED = TimelineCache(FINISHED_CACHE_BYTES)


def running_replay_path(settings: LadderSettings, uid: str, attempt: int) -> Path:
    """Where the attempt now running writes its replay (the same name the executor gives it)."""
    return settings.replays_dir / f"{uid}-{attempt}.jsonl"


def _stored_records(settings: LadderSettings, match_id: int) -> list[dict[str, Any]] | None:
    """The finished replay's records once the ladder has stored it (the running file is gone by then)."""
    path = replay_file(settings, match_id)
    return read_replay(path) if path is not None else None


def _finished_timeline(path: str) -> Timeline:
    return _FINISHED.get(path)


def viewer_reply(settings: LadderSettings, key: str, mode: str, subpath: str, query: Mapping[str, str]) -> Reply | Iterator[bytes] | None:
    """Answer /matches/<key>/view/<subpath> (finished) or /matches/<key>/live/<subpath> (running); None = no such match."""
    row = queries.match(settings, key)
    if row is None:
        return None
    back = f"/matches/{row.id}"
    finished = replay_file(settings, row.id) if row.has_replay else None
    if finished is not None:
        if mode == "live" and subpath == "events":
            timeline = _finished_timeline(str(finished))
            over = {"result": timeline.result, "steps": len(timeline.steps)}
            return iter([f"event: over\ndata: {json.dumps(over)}\n\n".encode()])
        pages = ReplayPages(lambda: _finished_timeline(str(finished)), live=False, back_link=back)
        return pages.respond(subpath, query)
    if mode != "live":
        return Reply.error("this match has no replay yet; watch it live", 404)
    path = running_replay_path(settings, row.uid, row.attempts)
    with _LOCK:
        live = _LIVE.get(str(path))
        if live is None:
            live = _LIVE[str(path)] = LiveReplay(
                live_path_of(path), path, finished_records=lambda match_id=row.id: _stored_records(settings, match_id),
                # A match played on another machine: its worker writes the replay's lines into the database.
                more_text=lambda after, match_id=row.id, attempt=row.attempts: live_text(settings, match_id, attempt, after),
            )
    if subpath == "events":
        return live.stream(query)
    try:
        live.timeline()
    except ReplayError as error:
        return Reply.error(str(error), 404)
    return ReplayPages(live.timeline, live=True, back_link=back).respond(subpath, query)


def viewer_routes(settings: LadderSettings) -> list[BaseRoute]:
    """Starlette routes for /matches/{key}/view/... and /matches/{key}/live/... over `viewer_reply`."""

    def endpoint(mode: str) -> Any:  # noqa: ANN401 - a Starlette endpoint
        def answer(request: Request) -> Response:
            reply = viewer_reply(settings, request.path_params["key"], mode, request.path_params["rest"], dict(request.query_params))
            if reply is None:
                raise HTTPException(404)
            if isinstance(reply, Reply):
                return Response(reply.body, reply.status, media_type=reply.content_type, headers={"Cache-Control": "no-store"})
            return StreamingResponse(reply, media_type="text/event-stream", headers={"Cache-Control": "no-store"})

        return answer

    return [
        Route("/matches/{key}/view/{rest:path}", endpoint("view"), name="match_viewer"),
        Route("/matches/{key}/live/{rest:path}", endpoint("live"), name="match_live"),
    ]
