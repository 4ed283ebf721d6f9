"""The ladder's web pages: leaderboards per game (with the game's settings), lists of bots and
matches a page at a time, a bot page with its rating chart, a match page with ranks, faults and the
replay download. Server-rendered (jinja2), served by Starlette on uvicorn: connections are asyncio
sockets, not threads, and pages are rendered on a small pool of threads.

`build_app(settings, routes)` makes the application; extra routes (live updates, a replay viewer...)
are passed in and can render with `render()` and the same templates."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ladder import queries
from ladder.game_settings import GameSettings, GamesFile, games_file
from ladder.models import MatchStatus
from ladder.registry import LadderError, get_bot, notices
from ladder.replays import load_replay
from ladder.settings import LadderSettings
from ladder.account_pages import account_routes, current_session
from ladder.sdk_pages import sdk_routes
from ladder.viewer_pages import viewer_routes
from referee.faults import fault_words

STATIC = Path(__file__).with_name("static")
environment = Environment(loader=PackageLoader("ladder", "templates"), autoescape=select_autoescape(["html"]))
environment.filters["fault_words"] = fault_words
environment.filters["when"] = lambda value: value.strftime("%Y-%m-%d %H:%M:%S") if value else "-"
#: Rows per page of a list (matches, bots, a leaderboard).
PAGE_SIZE = 50
#: The last page anyone may ask for (a bigger number is a 400, not a slow query).
MAX_PAGE = 100_000
MATCH_STATUSES = (*MatchStatus.OPEN, MatchStatus.DONE, MatchStatus.VOID)
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


#: Points drawn on a bot's rating chart at most (a bot with thousands of games gets every k-th one).
CHART_POINTS = 300
#: Rows of a bot's rating-history table (its latest rated matches; the matches list pages through all).
HISTORY_ROWS = 50


def thinned(points: list[float], most: int) -> list[float]:
    """At most `most` of `points`, evenly spread, always with the first and the last."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


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


def render(template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A page from the ladder's templates."""
    return HTMLResponse(environment.get_template(template).render(**context), status_code, headers=SECURITY_HEADERS)


@dataclass(frozen=True)
class Pager:
    """One page of a list: which rows to read, and the links to the pages around it."""

    page: int
    total: int
    size: int = PAGE_SIZE

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.size

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    def link(self, request: Request, page: int) -> str:
        """The current URL with another page number."""
        url = request.url.remove_query_params("token").include_query_params(page=page)  # never carry a secret along
        return str(url.replace(scheme="", netloc="")).removeprefix("//")


def page_number(request: Request) -> int:
    """The `page` query parameter (1 if absent); 400 if it is not a page number."""
    text = request.query_params.get("page", "1")
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_PAGE:
        raise HTTPException(400, f"page must be a number from 1 to {MAX_PAGE}")
    return int(text)


def choice(request: Request, name: str, allowed: Sequence[str]) -> str | None:
    """A query parameter that must be one of `allowed` (None if absent); 400 otherwise."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if value not in allowed:
        raise HTTPException(400, f"{name} must be one of {', '.join(allowed)}")
    return value


class Pages:
    """The ladder's pages over its queries; each handler is a plain function Starlette runs on its
    thread pool (the queries block)."""

    def __init__(self, settings: LadderSettings, games: GamesFile | None = None, page_size: int = PAGE_SIZE) -> None:
        self.settings = settings
        self.games = games or GamesFile(games_file(settings.home))
        self.page_size = page_size

    def routes(self) -> list[BaseRoute]:
        """Every page, the JSON endpoint and the static files."""
        return [
            Route("/", self.index, name="index"),
            Route("/games/{game}", self.game, name="game"),
            Route("/bots", self.bots, name="bots"),
            Route("/bots/{key}", self.bot, name="bot"),
            Route("/matches", self.matches, name="matches"),
            Route("/matches/{key}", self.match, name="match"),
            Route("/matches/{key}/replay.jsonl", self.replay, name="replay"),
            *viewer_routes(self.settings),
            *sdk_routes(self.settings),
            *account_routes(self.settings),
            Route("/api/games/{game}/leaderboard.json", self.leaderboard_json, name="leaderboard_json"),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]

    def known_game(self, game: str) -> str:
        if game not in queries.games(self.settings):
            raise HTTPException(404)
        return game

    def game_settings(self, game: str) -> GameSettings:
        try:
            return self.games.get(game)
        except Exception:  # noqa: BLE001 - a broken games file must not take the page down
            return GameSettings(game)

    def index(self, request: Request) -> Response:
        games = queries.games(self.settings)
        boards = {game: queries.leaderboard(self.settings, game)[:5] for game in games}
        return render("index.html", games=games, boards=boards, counts=queries.status_counts(self.settings))

    def game(self, request: Request) -> Response:
        game = self.known_game(request.path_params["game"])
        from ladder.status import unplayable

        rows = queries.leaderboard(self.settings, game)
        pager = Pager(page_number(request), len(rows), self.page_size)
        settings = self.game_settings(game)
        return render("game.html", request=request, game=game, rows=rows[pager.offset: pager.offset + pager.size],
                      pager=pager, settings=settings, reasons=queries.status_reasons(self.settings, game),
                      matches=queries.matches(self.settings, game=game, limit=20),
                      unplayable=unplayable(settings, sum(1 for row in rows if row.ranked)))

    def bots(self, request: Request) -> Response:
        game = choice(request, "game", queries.games(self.settings))
        pager = Pager(page_number(request), queries.count_bots(self.settings, game), self.page_size)
        return render("bots.html", request=request, game=game, pager=pager,
                      rows=queries.bots(self.settings, game, limit=pager.size, offset=pager.offset))

    def bot(self, request: Request) -> Response:
        """A bot's page: rating over time, head to head, by seat, faults; to its owner signed in (a
        session of the bot's account, or the admin's) also the faults' stderr and the notices."""
        try:
            bot = get_bot(self.settings, request.path_params["key"])
        except LadderError:
            raise HTTPException(404) from None
        history = queries.rating_history(self.settings, bot.id or 0)
        board = {row.bot_id: row for row in queries.leaderboard(self.settings, bot.game)}
        points = [1500.0] + [rating for _, _, rating in history]
        chart = rating_chart(thinned(points, CHART_POINTS))
        dated = [when for _, when, _ in history if when]
        chart["dates"] = [f"{when:%Y-%m-%d %H:%M}" for when in (dated[:1] + dated[-1:])] if dated else []
        web = current_session(self.settings, request)
        owner = web is not None and (web.admin or (bot.account_id is not None and web.account_id == bot.account_id))
        pager = Pager(page_number(request), queries.count_matches(self.settings, bot_id=bot.id), self.page_size)
        return render("bot.html", request=request, bot=bot, line=board.get(bot.id or 0), history=history,
                      latest=history[-HISTORY_ROWS:],
                      chart=chart, pager=pager, owner=owner, notices=notices(self.settings, bot.name) if owner else [],
                      faults=queries.bot_faults(self.settings, bot.id or 0),
                      head_to_head=queries.head_to_head(self.settings, bot.id or 0),
                      by_seat=queries.results_by_seat(self.settings, bot.id or 0),
                      matches=queries.matches(self.settings, bot_id=bot.id, limit=pager.size, offset=pager.offset))

    def matches(self, request: Request) -> Response:
        game = choice(request, "game", queries.games(self.settings))
        status = choice(request, "status", MATCH_STATUSES)
        bot_id = None
        if request.query_params.get("bot"):
            try:
                bot_id = get_bot(self.settings, request.query_params["bot"]).id
            except LadderError:
                raise HTTPException(400, "bot must be the name or id of a registered bot") from None
        pager = Pager(page_number(request), queries.count_matches(self.settings, game, bot_id, status), self.page_size)
        rows = queries.matches(self.settings, game=game, bot_id=bot_id, status=status, limit=pager.size, offset=pager.offset)
        return render("matches.html", request=request, game=game, status=status, pager=pager, matches=rows)

    def match(self, request: Request) -> Response:
        row = queries.match(self.settings, request.path_params["key"])
        if row is None:
            raise HTTPException(404)
        return render("match.html", match=row, has_replay=row.over and row.has_replay)

    def replay(self, request: Request) -> Response:
        row = queries.match(self.settings, request.path_params["key"])
        data = load_replay(self.settings, row.id) if row is not None and row.over else None
        if row is None or data is None:
            raise HTTPException(404)
        return Response(data, media_type="application/x-ndjson", headers={
            **SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="match-{row.id}.jsonl"'})

    def leaderboard_json(self, request: Request) -> Response:
        game = self.known_game(request.path_params["game"])
        rows = queries.leaderboard(self.settings, game, with_intervals=False)
        return JSONResponse([{"bot": r.name, "id": r.bot_id, "rating": r.rating, "games": r.games, "status": r.status}
                             for r in rows], headers=SECURITY_HEADERS)


async def http_error(request: Request, error: Exception) -> Response:
    """404 and 400 as pages (or JSON under /api/); 405 keeps its Allow header."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    detail = error.detail if isinstance(error, HTTPException) else "the ladder could not build this page"
    headers = dict(getattr(error, "headers", None) or {})
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status, headers=headers)
    template = "not_found.html" if status == 404 else "error.html"
    response = render(template, status, status=status, detail=detail)
    response.headers.update(headers)
    return response


def build_app(settings: LadderSettings, routes: Sequence[BaseRoute] = (), games: GamesFile | None = None,
              page_size: int = PAGE_SIZE) -> Starlette:
    """The web application: `routes` first (so they may add pages or replace one), then the ladder's pages."""
    pages = Pages(settings, games, page_size)
    return Starlette(routes=[*routes, *pages.routes()],
                     exception_handlers={HTTPException: http_error, 500: http_error})


def idle_closing_protocol() -> type:
    """uvicorn's h11 protocol, with its keep-alive timer armed as soon as a connection opens, so that a
    connection that never sends a request is closed like an idle kept-alive one (not held forever)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class IdleClosingH11Protocol(H11Protocol):
        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    return IdleClosingH11Protocol


class HttpServer:
    """uvicorn serving an ASGI app on its own event loop thread; shutdown() stops it."""

    def __init__(self, app: Any, address: str, keep_alive_seconds: float = 5.0) -> None:
        import uvicorn

        host, _, port = address.rpartition(":")
        host = (host or "127.0.0.1").strip("[]")
        if not port.isdigit():
            raise ValueError(f"bad address {address!r}: expected host:port")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, int(port)))
        self.port = int(self.socket.getsockname()[1])
        config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False, loop="asyncio",
                                http=idle_closing_protocol(), timeout_keep_alive=max(1, int(keep_alive_seconds)),
                                server_header=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="ladder-web", daemon=True)

    def _run(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.socket]))

    def start(self) -> int:
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            threading.Event().wait(0.01)
        return self.port

    def shutdown(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


def serve_http(settings: LadderSettings, address: str, routes: Sequence[BaseRoute] = (),
               games: GamesFile | None = None, keep_alive_seconds: float = 5.0,
               page_size: int = PAGE_SIZE) -> tuple[HttpServer, int]:
    """Serve the pages (and `routes`) on host:port (port 0 picks a free one) in a thread; returns the
    server and its port. A connection silent for `keep_alive_seconds` is closed."""
    server = HttpServer(build_app(settings, routes, games, page_size), address, keep_alive_seconds)
    return server, server.start()

