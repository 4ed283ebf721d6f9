"""The replay viewer as plain functions: a request path and query in, a status, content type and body out.

Any web server can mount it (the local `b99 replay view` server, the ladder's pages): `ReplayPages.respond`
answers the page, its script and style, `timeline.json`, `step.json` and `frame.svg`; `LiveReplay` follows a
replay file a running match is still writing and yields server-sent events as decisions happen.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from referee.errors import ReplayError
from referee.replay import read_replay
from referee.viewer.timeline import ALL_SEATS, Timeline

STATIC = Path(__file__).with_name("static")
DOCS = Path(__file__).resolve().parents[2] / "docs"
CONTENT_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8"}


@dataclass(frozen=True)
class Reply:
    """An HTTP answer: status, content type and body."""

    status: int
    content_type: str
    body: bytes

    @staticmethod
    def json(data: Any, status: int = 200) -> Reply:  # noqa: ANN401 - any JSON value
        return Reply(status, "application/json", json.dumps(data, separators=(",", ":")).encode())

    @staticmethod
    def error(message: str, status: int = 400) -> Reply:
        return Reply.json({"error": message}, status)


def static_file(name: str) -> Reply | None:
    """viewer.js, viewer.css, seat.js and the other files beside this module."""
    file = STATIC / name
    if "/" in name or not file.is_file():
        return None
    return Reply(200, CONTENT_TYPES.get(file.suffix, "application/octet-stream"), file.read_bytes())


def docs_file(subpath: str) -> Reply | None:
    """A page of this project's docs/ (a game's rules page the viewer links to), as an HTML page."""
    if not subpath.startswith("docs/"):
        return None
    root = DOCS.resolve()
    file = (root / subpath.removeprefix("docs/")).resolve()
    if root not in file.parents or not file.is_file() or file.suffix != ".md":
        return Reply.error(f"no such page: {subpath} (the rules pages live in docs/games/)", 404)
    return Reply(200, "text/html; charset=utf-8", markdown_page(file.read_text(encoding="utf-8"), file.stem).encode())


def markdown_page(text: str, title: str) -> str:
    """Markdown as a small readable HTML page (raw HTML in the text is shown as text, never run)."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>body{{font-family:sans-serif;max-width:50em;margin:1em auto;padding:0 1em;"
        "line-height:1.45}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
        f"pre{{overflow-x:auto;background:#f4f1ea;padding:6px}}</style></head><body>{body}</body></html>"
    )


def rules_link(game_id: str) -> str:
    """Where a game's rules page is: docs/games/<id>.md (served by the local viewer)."""
    return f"docs/games/{game_id}.md"


def page(template: str, title: str, config: Mapping[str, Any], *, base: str = "", status: str = "", back: str = "", game_id: str = "", game_name: str = "") -> bytes:
    """Fill one of the HTML pages beside this module (the viewer or the browser seat)."""
    text = (STATIC / template).read_text(encoding="utf-8")
    script_safe = json.dumps(dict(config)).replace("</", "<\\/")
    values = {
        "{title}": escape(title),
        "{base}": escape(base),
        "{config}": script_safe,
        "{status}": escape(status),
        "{rules}": escape(config.get("rules", rules_link(game_id))),
        "{game_name}": escape(game_name),
        "{back}": back,
    }
    for key, value in values.items():
        text = text.replace(key, value)
    # Style and script are inlined: the page is one request, whatever path it is mounted under.
    text = text.replace("{style}", (STATIC / "viewer.css").read_text(encoding="utf-8"))
    for name in ("viewer.js", "seat.js"):
        text = text.replace("{script:" + name + "}", (STATIC / name).read_text(encoding="utf-8").replace("</", "<\\/"))
    return text.encode()


def _seat(query: Mapping[str, str]) -> int | None:
    """The perspective asked for: none (the spectator), a seat number, or 'all' (every seat)."""
    if query.get("seat") == "all":
        return ALL_SEATS
    seat = _int(query, "seat")
    if seat is not None and seat < 0:
        raise ReplayError(f"seat must be a seat number or 'all', not {seat}")
    return seat


def _int(query: Mapping[str, str], key: str) -> int | None:
    text = query.get(key, "")
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise ReplayError(f"{key} must be a whole number, not {text!r}") from None


@dataclass
class ReplayPages:
    """The viewer of one match: a finished replay, or a running one followed through `LiveReplay`."""

    timeline: Callable[[], Timeline]
    live: bool = False
    back_link: str = ""
    rules: str = ""
    start_step: int = 0
    #: How the replay is named in the commands "copy position" gives (its path for a local file).
    replay_name: str = "replay.jsonl"
    #: Show what each bot wrote while deciding (the owner's local viewer; never a public page).
    show_logs: bool = False

    def respond(self, subpath: str, query: Mapping[str, str]) -> Reply:
        """Answer `subpath` (relative to where the viewer is mounted, '' for its page)."""
        try:
            timeline = self.timeline()
            if subpath in ("", "index.html"):
                return self.index(timeline)
            if subpath == "timeline.json":
                return Reply.json(timeline.summary_json())
            if subpath in ("step.json", "frame.svg", "position.json"):
                index = _int(query, "n") or 0
                if index < 0:
                    index += len(timeline.steps)
                seat = _seat(query)
                if (seat is not None or subpath == "position.json") and self.live and not timeline.finished:
                    return Reply.error("while the match runs, only the spectator's view is shown", 403)
                if subpath == "position.json":
                    return Reply.json(self.position(timeline, index))
                if subpath == "frame.svg":
                    return Reply(200, "image/svg+xml", timeline.frame(index, seat).encode())
                return Reply.json(timeline.step_json(index, seat, reveal=timeline.finished, logs=self.show_logs))
        except ReplayError as error:
            return Reply.error(str(error))
        found = docs_file(subpath) or static_file(subpath)
        return found if found is not None else Reply.error(f"no such page: {subpath}", 404)

    def position(self, timeline: Timeline, index: int) -> dict[str, Any]:
        """The whole state after step `index` as `b99 replay position` writes it, and the commands that
        write it and play on from it."""
        from referee.position import position_json

        timeline.check_step(index)
        file = f"{timeline.game.id}-step{index}.json"
        players = " ".join(["random"] * timeline.players)
        return {
            "step": index,
            "position": position_json(timeline.state_at(index)),
            "commands": (
                f"b99 replay position {self.replay_name} --step {index} --out {file}\n"
                f"b99 match {timeline.game.id} {players} --from {file}"
            ),
        }

    def index(self, timeline: Timeline) -> Reply:
        config = {"live": self.live, "start": self.start_step, "rules": self.rules or rules_link(timeline.game.id)}
        back = f' <a href="{escape(self.back_link)}">back</a>' if self.back_link else ""
        status = "live" if self.live and not timeline.finished else ("finished" if timeline.finished else "unfinished")
        body = page("viewer.html", f"{timeline.game.name} replay", config, status=status, back=back, game_id=timeline.game.id, game_name=timeline.game.name)
        return Reply(200, "text/html; charset=utf-8", body)


@dataclass
class LiveReplay:
    """Follows a replay file that a running match appends to (and the finished file once it is written)."""

    live_path: Path
    final_path: Path | None = None
    #: Where the finished replay is found when neither file remains (a ladder keeps it in its database).
    finished_records: Callable[[], list[dict[str, Any]] | None] | None = None
    #: For a match running elsewhere (no file here): the text written after a cursor, and the new cursor.
    more_text: Callable[[int], tuple[str, int]] | None = None
    _timeline: Timeline | None = None
    _offset: int = 0
    _cursor: int = 0
    _buffer: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def timeline(self) -> Timeline:
        """The timeline so far, after reading whatever the match wrote since the last call."""
        with self._lock:
            self._read()
            if self._timeline is None:
                raise ReplayError("the match has not started writing its replay yet")
            return self._timeline

    def _read(self) -> None:
        source = self.live_path if self.live_path.exists() else self.final_path
        if source is None or not source.exists():
            if self._timeline is not None and self._timeline.finished:
                return
            if self.more_text is not None:
                text, self._cursor = self.more_text(self._cursor)
                if text:
                    self._feed(text)
                    return
            if self.finished_records is not None:
                records = self.finished_records()
                if records:
                    self._timeline = Timeline.from_records(records)
            return
        if source != self.live_path:
            # The match finished and its final file replaced the live one (whose last lines may be unread).
            if self._timeline is None or not self._timeline.finished:
                self._timeline = Timeline.from_records(read_replay(source))
            return
        with source.open("r", encoding="utf-8") as handle:
            handle.seek(self._offset)
            chunk = handle.read()
            self._offset = handle.tell()
        self._feed(chunk)

    def _feed(self, chunk: str) -> None:
        """Add text the match appended: complete lines become records, a partial line waits."""
        self._buffer += chunk
        lines = self._buffer.split("\n")
        self._buffer = lines.pop()
        records = [json.loads(line) for line in lines if line.strip()]
        if not records:
            return
        if self._timeline is None:
            self._timeline = Timeline(records[0])
            records = records[1:]
        self._timeline.feed(records)

    def stream(self, query: Mapping[str, str], poll_seconds: float = 0.2) -> Iterator[bytes]:
        """The `events` stream a page asked for: `?from=N` names the steps it already has."""
        try:
            from_step = _int(query, "from")
        except ReplayError:
            from_step = None
        return self.events(poll_seconds=poll_seconds, from_step=from_step)

    def events(self, poll_seconds: float = 0.2, idle_seconds: float = 3600.0, from_step: int | None = None) -> Iterator[bytes]:
        """Server-sent events: `step` events carrying every step from `from_step` on (the number of steps the
        page already has, so none is lost between loading the timeline and opening the stream; default: the
        steps so far), then `over` with the result and the number of steps once the match is over."""
        sent = from_step
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < idle_seconds:
            try:
                timeline = self.timeline()
            except ReplayError:
                time.sleep(poll_seconds)
                yield b": waiting\n\n"
                continue
            if sent is None:
                sent = len(timeline.steps)
            sent = max(0, min(sent, len(timeline.steps)))
            if len(timeline.steps) > sent:
                outline = [timeline.step_outline(step, reveal=False) for step in timeline.steps[sent:]]
                data = {"from": sent, "steps": outline, "step": timeline.step_json(len(timeline.steps) - 1, None, reveal=False)}
                sent = len(timeline.steps)
                quiet_since = time.monotonic()
                yield f"event: step\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()
            if timeline.finished:
                over = {"result": timeline.result, "steps": len(timeline.steps)}
                yield f"event: over\ndata: {json.dumps(over)}\n\n".encode()
                return
            time.sleep(poll_seconds)
            yield b": alive\n\n"
