"""The ladder's web pages: leaderboards per game, a bot page with its rating chart, a match page
with ranks, faults and the replay download. Server-rendered (jinja2), served by the standard library."""

from __future__ import annotations

import json
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from jinja2 import Environment, PackageLoader, select_autoescape

from ladder import queries
from ladder.registry import LadderError, get_bot, notices
from ladder.replays import load_replay
from ladder.settings import LadderSettings

STATIC = Path(__file__).with_name("static")
environment = Environment(loader=PackageLoader("ladder", "templates"), autoescape=select_autoescape(["html"]))
environment.filters["when"] = lambda value: value.strftime("%Y-%m-%d %H:%M:%S") if value else "-"


def rating_chart(points: list[float], width: int = 640, height: int = 220, pad: int = 32) -> dict[str, Any]:
    """Coordinates of an SVG line chart of ratings (index on x, rating on y)."""
    if not points:
        return {"width": width, "height": height, "path": "", "dots": [], "ticks": []}
    low, high = min(points), max(points)
    if high - low < 20:
        low, high = low - 10, high + 10
    span_x = max(1, len(points) - 1)

    def xy(index: int, value: float) -> tuple[float, float]:
        x = pad + (width - 2 * pad) * index / span_x
        y = height - pad - (height - 2 * pad) * (value - low) / (high - low)
        return round(x, 1), round(y, 1)

    coordinates = [xy(i, value) for i, value in enumerate(points)]
    ticks = [(round(height - pad - (height - 2 * pad) * f, 1), round(low + (high - low) * f)) for f in (0, 0.5, 1)]
    return {
        "width": width,
        "height": height,
        "path": " ".join(f"{'M' if i == 0 else 'L'}{x},{y}" for i, (x, y) in enumerate(coordinates)),
        "dots": coordinates if len(coordinates) <= 60 else [],
        "ticks": ticks,
        "pad": pad,
    }


class Pages:
    """Renders each page from the ladder's queries; None means not found."""

    def __init__(self, settings: LadderSettings) -> None:
        self.settings = settings

    def render(self, template: str, **context: Any) -> bytes:
        return environment.get_template(template).render(**context).encode()

    def index(self) -> bytes:
        games = queries.games(self.settings)
        boards = {game: queries.leaderboard(self.settings, game, with_intervals=False)[:5] for game in games}
        return self.render("index.html", games=games, boards=boards, counts=queries.status_counts(self.settings))

    def game(self, game: str) -> bytes | None:
        if game not in queries.games(self.settings):
            return None
        return self.render("game.html", game=game, rows=queries.leaderboard(self.settings, game),
                           matches=queries.matches(self.settings, game=game, limit=20))

    def bot(self, key: str) -> bytes | None:
        try:
            bot = get_bot(self.settings, key)
        except LadderError:
            return None
        history = queries.rating_history(self.settings, bot.id or 0)
        board = {row.bot_id: row for row in queries.leaderboard(self.settings, bot.game)}
        return self.render("bot.html", bot=bot, line=board.get(bot.id or 0), history=history,
                           chart=rating_chart([1500.0] + [rating for _, _, rating in history]),
                           matches=queries.matches(self.settings, bot_id=bot.id, limit=30),
                           notices=notices(self.settings, bot.name))

    def match(self, key: str) -> bytes | None:
        row = queries.match(self.settings, key)
        if row is None:
            return None
        return self.render("match.html", match=row, has_replay=row.has_replay)

    def leaderboard_json(self, game: str) -> bytes:
        rows = queries.leaderboard(self.settings, game, with_intervals=False)
        return json.dumps([{"bot": r.name, "id": r.bot_id, "rating": r.rating, "games": r.games, "status": r.status} for r in rows]).encode()


ROUTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^/$"), "index"),
    (re.compile(r"^/games/(?P<key>[\w.-]+)$"), "game"),
    (re.compile(r"^/bots/(?P<key>[\w.+-]+)$"), "bot"),
    (re.compile(r"^/matches/(?P<key>[\w-]+)$"), "match"),
    (re.compile(r"^/matches/(?P<key>[\w-]+)/replay\.jsonl$"), "replay"),
    (re.compile(r"^/api/games/(?P<key>[\w.-]+)/leaderboard\.json$"), "leaderboard_json"),
    (re.compile(r"^/static/(?P<key>[\w.-]+)$"), "static"),
]


def make_handler(pages: Pages) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "b99-ladder"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def send(self, status: HTTPStatus, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            path = unquote(self.path.split("?", 1)[0])
            for pattern, name in ROUTES:
                found = pattern.match(path)
                if found is None:
                    continue
                key = found.groupdict().get("key", "")
                try:
                    self.route(name, key)
                except Exception as error:  # noqa: BLE001 - a page error is a 500, never a dead server
                    self.send(HTTPStatus.INTERNAL_SERVER_ERROR, f"error: {type(error).__name__}".encode(), "text/plain")
                return
            self.not_found()

        def not_found(self) -> None:
            self.send(HTTPStatus.NOT_FOUND, pages.render("not_found.html"), "text/html; charset=utf-8")

        def route(self, name: str, key: str) -> None:
            if name == "static":
                file = STATIC / key
                if not file.is_file():
                    return self.not_found()
                kind = {"css": "text/css", "js": "text/javascript"}.get(file.suffix.lstrip("."), "application/octet-stream")
                return self.send(HTTPStatus.OK, file.read_bytes(), kind)
            if name == "replay":
                row = queries.match(pages.settings, key)
                data = load_replay(pages.settings, row.id) if row is not None else None
                if row is None or data is None:
                    return self.not_found()
                return self.send(HTTPStatus.OK, data, "application/x-ndjson",
                                 {"Content-Disposition": f'attachment; filename="match-{row.id}.jsonl"'})
            if name == "leaderboard_json":
                return self.send(HTTPStatus.OK, pages.leaderboard_json(key), "application/json")
            body = pages.index() if name == "index" else getattr(pages, name)(key)
            if body is None:
                return self.not_found()
            return self.send(HTTPStatus.OK, body, "text/html; charset=utf-8")

    return Handler


def serve_http(settings: LadderSettings, address: str) -> tuple[ThreadingHTTPServer, int]:
    """Serve the pages on host:port (port 0 picks a free one) in a thread; returns the server and port."""
    host, _, port = address.rpartition(":")
    server = ThreadingHTTPServer((host or "127.0.0.1", int(port)), make_handler(Pages(settings)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="ladder-web", daemon=True).start()
    return server, int(server.server_address[1])
