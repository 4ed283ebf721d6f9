"""Prometheus metrics of a ladder, read from its database at each scrape, so that they count the
results of every worker on every machine, not only this process's.

- `b99_ladder_matches_total{game,status}`: matches done (rated) or void, ever (a counter);
- `b99_ladder_matches_per_minute{game}`: matches that finished in the last 60 seconds;
- `b99_ladder_queue_depth{game}` and `b99_ladder_matches_running{game}`;
- `b99_ladder_match_duration_seconds{game}`: a histogram of rated matches since this process started;
- `b99_ladder_faults_total{game,kind}`: bot faults (timeout, crash, illegal option...) in those matches.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func
from sqlmodel import col, select

from ladder import queries
from ladder.db import read_session
from ladder.models import Match, MatchStatus, utcnow
from ladder.settings import LadderSettings

log = logging.getLogger(__name__)
DURATION_BUCKETS = (0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800)
#: Rated matches read per game and scrape (the rest are read at the next scrape).
CATCH_UP_LIMIT = 1000


class LadderCollector(Collector):
    """Collects a ladder's metrics on each scrape (a few aggregate queries plus the new results)."""

    def __init__(self, settings: LadderSettings) -> None:
        self.settings = settings
        self.duration = Histogram("b99_ladder_match_duration_seconds", "Wall time of rated matches", ["game"],
                                  buckets=DURATION_BUCKETS, registry=None)
        self.faults = Counter("b99_ladder_faults", "Bot faults in rated matches, by kind", ["game", "kind"], registry=None)
        self.cursors: dict[str, int] | None = None
        self.lock = threading.Lock()

    def catch_up(self) -> None:
        """Observe every match rated since the last scrape (counting from this process's start)."""
        latest = queries.last_rating_seqs(self.settings)
        if self.cursors is None:
            self.cursors = latest
            return
        for game, seq in latest.items():
            after = self.cursors.get(game, 0)
            if seq <= after:
                continue
            for row in queries.matches(self.settings, game=game, after_seq=after, limit=CATCH_UP_LIMIT):
                if row.duration_seconds is not None:
                    self.duration.labels(game).observe(row.duration_seconds)
                for seat in row.seats:
                    for fault in seat.faults:
                        self.faults.labels(game, str(fault.get("kind", "unknown"))).inc()
                after = row.rating_seq or after
            self.cursors[game] = after

    def collect(self) -> Iterator[Metric]:
        with self.lock:
            try:
                self.catch_up()
                counts = self.counts()
            except Exception:  # noqa: BLE001 - a database away: the scrape says so instead of failing
                log.exception("metrics: database unavailable")
                yield GaugeMetricFamily("b99_ladder_database_up", "Whether the last scrape reached the database", value=0)
                return
        yield GaugeMetricFamily("b99_ladder_database_up", "Whether the last scrape reached the database", value=1)
        by_status, per_minute = counts
        total = CounterMetricFamily("b99_ladder_matches", "Matches finished: done (rated) or void", labels=["game", "status"])
        queue = GaugeMetricFamily("b99_ladder_queue_depth", "Matches queued, waiting for a worker", labels=["game"])
        running = GaugeMetricFamily("b99_ladder_matches_running", "Matches being played", labels=["game"])
        for (game, status), count in sorted(by_status.items()):
            if status in (MatchStatus.DONE, MatchStatus.VOID):
                total.add_metric([game, status], count)
            elif status == MatchStatus.QUEUED:
                queue.add_metric([game], count)
            elif status == MatchStatus.RUNNING:
                running.add_metric([game], count)
        rate = GaugeMetricFamily("b99_ladder_matches_per_minute", "Matches finished in the last 60 seconds", labels=["game"])
        for game in sorted({game for game, _ in by_status} | set(per_minute)):
            rate.add_metric([game], per_minute.get(game, 0))
        yield from (total, queue, running, rate)
        yield from self.duration.collect()
        yield from self.faults.collect()

    def counts(self) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
        """Matches per (game, status), and per game those finished in the last minute."""
        since = utcnow() - timedelta(seconds=60)
        with read_session(self.settings.db_url) as session:
            by_status = {(game, status): int(count) for game, status, count in session.exec(
                select(Match.game, Match.status, func.count()).group_by(Match.game, Match.status)).all()}
            per_minute = {game: int(count) for game, count in session.exec(
                select(Match.game, func.count()).where(col(Match.finished_at) > since).group_by(Match.game)).all()}
        return by_status, per_minute


def ladder_registry(settings: LadderSettings) -> CollectorRegistry:
    """A registry with the ladder's metrics (one per server, so that tests can run several)."""
    registry = CollectorRegistry()
    registry.register(LadderCollector(settings))
    return registry


def metrics_route(registry: CollectorRegistry) -> Any:
    """GET /metrics: `registry` in Prometheus's text format (the scrape runs on a worker thread)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
    from starlette.responses import Response
    from starlette.routing import Route

    def metrics(request: Any) -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    return Route("/metrics", metrics, name="metrics")


def metrics_app(registry: CollectorRegistry) -> Any:
    """An ASGI app that serves only /metrics (for a metrics port of its own)."""
    from starlette.applications import Starlette

    return Starlette(routes=[metrics_route(registry)])
