"""The gRPC LadderService, with gRPC health checking and server reflection: a thin servicer over
the ladder's registry and queries."""

from __future__ import annotations

import hmac
import tempfile
import time
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

import b99.ladder_pb2 as pb
import b99.ladder_pb2_grpc as pb_grpc
from ladder import queries
from ladder.models import Bot
from ladder.registry import LadderError, add_bot, get_bot, issue_token
from ladder.replays import load_replay
from ladder.settings import LadderSettings
from referee.errors import ArenaError

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["LadderService"].full_name
CHUNK = 64 * 1024


def bot_message(bot: Bot) -> pb.Bot:
    return pb.Bot(id=bot.id or 0, name=bot.name, game=bot.game, owner=bot.owner, version=bot.version,
                  kind=bot.kind, status=bot.status, paused_reason=bot.paused_reason or "")


def match_message(row: queries.MatchRow) -> pb.Match:
    return pb.Match(
        id=row.id, uid=row.uid, game=row.game, status=row.status, seed=row.seed, attempts=row.attempts,
        finished_at=row.finished_at.isoformat() if row.finished_at else "", decisions=row.decisions or 0,
        duration_seconds=row.duration_seconds or 0.0, void_reason=row.void_reason or "",
        rating_seq=row.rating_seq or 0, has_replay=row.has_replay,
        seats=[
            pb.MatchSeat(
                seat=seat.seat, bot=seat.bot, bot_id=seat.bot_id, rank=seat.rank or 0, score=seat.score or 0.0,
                faults=[pb.Fault(kind=f["kind"], detail=f["detail"],
                                 decision_index=-1 if f.get("decision_index") is None else int(f["decision_index"]))
                        for f in seat.faults],
                replaced=seat.replaced, rating_before=seat.rating_before or 0.0, rating_after=seat.rating_after or 0.0,
            )
            for seat in row.seats
        ],
    )


class LadderServicer(pb_grpc.LadderServiceServicer):
    """LadderService over one ladder's settings."""

    def __init__(self, settings: LadderSettings, admin_token: str | None, poll_seconds: float = 0.25) -> None:
        self.settings = settings
        self.admin_token = admin_token
        self.poll_seconds = poll_seconds

    def _require_admin(self, context: grpc.ServicerContext) -> None:
        metadata = dict(context.invocation_metadata())
        given = str(metadata.get("authorization", "")).removeprefix("Bearer ").strip()
        if not self.admin_token or not hmac.compare_digest(given, self.admin_token):
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "this call needs the ladder's admin token")

    def RegisterBot(self, request: pb.RegisterBotRequest, context: grpc.ServicerContext) -> pb.Bot:
        self._require_admin(context)
        try:
            if request.archive:
                with tempfile.TemporaryDirectory() as scratch:
                    archive = Path(scratch) / "bot.archive"
                    archive.write_bytes(request.archive)
                    bot = add_bot(self.settings, request.name, request.game, command=list(request.command),
                                  upload=archive, owner=request.owner, version=request.version or "1")
            else:
                bot = add_bot(self.settings, request.name, request.game, command=list(request.command) or None,
                              remote=request.remote, owner=request.owner, version=request.version or "1")
        except (LadderError, ArenaError) as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
        return bot_message(bot)

    def IssueToken(self, request: pb.IssueTokenRequest, context: grpc.ServicerContext) -> pb.IssueTokenResponse:
        self._require_admin(context)
        try:
            return pb.IssueTokenResponse(token=issue_token(self.settings, request.bot))
        except LadderError as error:
            context.abort(grpc.StatusCode.NOT_FOUND, str(error))
            raise

    def GetLeaderboard(self, request: pb.LeaderboardRequest, context: grpc.ServicerContext) -> pb.Leaderboard:
        entries = []
        for row in queries.leaderboard(self.settings, request.game):
            bot = get_bot(self.settings, row.bot_id)
            entry = pb.LeaderboardEntry(position=row.position, bot=bot_message(bot), rating=row.rating, games=row.games)
            if row.interval is not None:
                entry.interval_low, entry.interval_high, entry.has_interval = row.interval[0], row.interval[1], True
            entries.append(entry)
        return pb.Leaderboard(game=request.game, entries=entries)

    def ListMatches(self, request: pb.ListMatchesRequest, context: grpc.ServicerContext) -> pb.MatchList:
        bot_id = None
        if request.bot:
            try:
                bot_id = get_bot(self.settings, request.bot).id
            except LadderError as error:
                context.abort(grpc.StatusCode.NOT_FOUND, str(error))
        rows = queries.matches(self.settings, game=request.game or None, bot_id=bot_id,
                               status=request.status or None, limit=request.limit or 50)
        return pb.MatchList(matches=[match_message(row) for row in rows])

    def _match(self, key: str, context: grpc.ServicerContext) -> queries.MatchRow:
        row = queries.match(self.settings, key)
        if row is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"no match {key!r}")
        assert row is not None
        return row

    def GetMatch(self, request: pb.GetMatchRequest, context: grpc.ServicerContext) -> pb.Match:
        return match_message(self._match(request.match, context))

    def FetchReplay(self, request: pb.GetMatchRequest, context: grpc.ServicerContext) -> Iterator[pb.ReplayChunk]:
        row = self._match(request.match, context)
        data = load_replay(self.settings, row.id)
        if data is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"match {request.match!r} has no replay")
        for start in range(0, len(data or b""), CHUNK):
            yield pb.ReplayChunk(data=data[start:start + CHUNK])  # type: ignore[index]

    def WatchResults(self, request: pb.WatchResultsRequest, context: grpc.ServicerContext) -> Iterator[pb.Match]:
        cursors: dict[str, int] = {}
        if request.game:
            cursors[request.game] = request.after_rating_seq
        else:
            for game in queries.games(self.settings):
                cursors[game] = _last_seq(self.settings, game)
        while context.is_active():
            sent = False
            games = [request.game] if request.game else queries.games(self.settings)
            for game in games:
                cursors.setdefault(game, 0)
                for row in queries.matches(self.settings, game=game, after_seq=cursors[game], limit=100):
                    cursors[game] = row.rating_seq or cursors[game]
                    sent = True
                    yield match_message(row)
            if not sent:
                time.sleep(self.poll_seconds)


def _last_seq(settings: LadderSettings, game: str) -> int:
    return queries.last_rating_seq(settings, game)


def serve_grpc(settings: LadderSettings, address: str, admin_token: str | None = None, workers: int = 16) -> tuple[Any, int]:
    """Start the LadderService with health checking and reflection on `address` ("127.0.0.1:0",
    "unix:/path"); returns the server and its port (0 for a Unix socket)."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers))
    pb_grpc.add_LadderServiceServicer_to_server(LadderServicer(settings, admin_token), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(address)
    server.start()
    return server, port
