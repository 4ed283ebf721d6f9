"""A running ladder: the scheduling loop plus, when asked, the gRPC API, the web pages and the
Arena gateway for remote bots, all in one process."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ladder.executors import CeleryExecutor, Executor, LocalExecutor
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings


class LadderServer:
    """Owns the executor, the loop and the servers; start() them, run() the loop, stop() it all."""

    def __init__(
        self,
        settings: LadderSettings,
        options: SchedulerOptions,
        executor: str = "local",
        broker: str | None = None,
        workers: int = 1,
        grpc_address: str | None = None,
        http_address: str | None = None,
        arena_address: str | None = None,
        arena_advertise: str | None = None,
        metrics_address: str | None = None,
        watch_limits: Any = None,
        private: bool = False,
        web_routes: Sequence[Any] = (),
        tls: Any = None,
        warm: bool = True,
    ) -> None:
        self.settings = settings
        self.executor: Executor = CeleryExecutor(broker or "") if executor == "celery" else LocalExecutor(workers, warm=warm)
        from ladder.remote import Presence

        self.online = Presence()
        self.ladder = Ladder(settings, self.executor, options, online=self.online)
        self.grpc_address, self.http_address, self.arena_address = grpc_address, http_address, arena_address
        self.arena_advertise = arena_advertise
        self.metrics_address = metrics_address
        self.watch_limits, self.private, self.web_routes = watch_limits, private, list(web_routes)
        self.tls = tls  # ladder.tls.TlsFiles: the LadderService and the Arena gateway serve TLS
        self.grpc_server: Any = None
        self.http_server: Any = None
        self.metrics_server: Any = None
        self.metrics_port: int | None = None
        self.arena: Any = None
        self.grpc_port: int | None = None
        self.http_port: int | None = None
        self._stopped = threading.Event()

    def start(self) -> None:
        """Start the servers that were asked for (the loop runs in run())."""
        self.settings.secure()
        if self.arena_address:
            from ladder.remote import ArenaGateway

            from ladder.service_info import GATEWAY, publish

            self.arena = ArenaGateway(self.settings, self.arena_address, self.online)
            self.arena.advertise = self.arena_advertise
            self.arena.tls = self.tls
            self.arena.start()
            self.settings = replace(self.settings, gateway=self.arena.relay_address)
            self.ladder.settings = self.settings
            publish(self.settings, GATEWAY, self.arena.relay_address)  # for workers on other machines
        if self.grpc_address:
            from ladder.api import serve_grpc

            self.grpc_server, self.grpc_port = serve_grpc(self.settings, self.grpc_address, self.settings.admin_token(),
                                                          limits=self.watch_limits, private=self.private, tls=self.tls)
        if self.http_address or self.metrics_address:
            from ladder.metrics import ladder_registry, metrics_app, metrics_route
            from ladder.web import HttpServer, serve_http

            registry = ladder_registry(self.settings)
            if self.http_address:
                routes = [*self.web_routes, metrics_route(registry)]
                self.http_server, self.http_port = serve_http(self.settings, self.http_address, routes,
                                                              games=self.ladder.games_file)
            if self.metrics_address:
                self.metrics_server = HttpServer(metrics_app(registry), self.metrics_address)
                self.metrics_port = self.metrics_server.start()

    def describe(self) -> list[str]:
        lines = [f"ladder in {self.settings.home}, executor {self.executor.name}"]
        if self.grpc_server is not None:
            lines.append(f"LadderService on port {self.grpc_port} ({self.grpc_address}){' over TLS' if self.tls else ''}")
        if self.http_server is not None:
            lines.append(f"web pages on http://{self.http_address.rsplit(':', 1)[0]}:{self.http_port}/")  # type: ignore[union-attr]
        if self.metrics_server is not None:
            lines.append(f"Prometheus metrics on port {self.metrics_port} ({self.metrics_address})")
        elif self.http_server is not None:
            lines.append("Prometheus metrics under /metrics of the web pages")
        if self.arena is not None:
            lines.append(f"Arena endpoint for remote bots on port {self.arena.port}{' over TLS' if self.tls else ''}")
        return lines

    def run(self, until_idle: bool = False) -> None:
        self.ladder.run(until_idle=until_idle)

    def stop(self) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.ladder.stop()
        if self.grpc_server is not None:
            self.grpc_server.stop(grace=0.5)
        if self.http_server is not None:
            self.http_server.shutdown()
        if self.metrics_server is not None:
            self.metrics_server.shutdown()
        if self.arena is not None:
            self.arena.stop()
        self.executor.shutdown()
