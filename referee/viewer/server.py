"""A small local HTTP server (standard library) around a plain `respond(method, path, query, body)` function.

Used by `b99 replay view` and `b99 play --web`; a function may answer with a `Reply` or, for server-sent
events, an iterator of byte chunks that is streamed until it ends or the browser goes away.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from referee.viewer.app import Reply

Responder = Callable[[str, str, Mapping[str, str], bytes], "Reply | Iterator[bytes]"]


def make_handler(respond: Responder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "b99-viewer"
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def handle_any(self, method: str) -> None:
            parts = urlsplit(self.path)
            path = unquote(parts.path)
            query = dict(parse_qsl(parts.query))
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            try:
                answer = respond(method, path, query, body)
            except Exception as error:  # noqa: BLE001 - a page error is a 500, never a dead server
                answer = Reply.error(f"{type(error).__name__}: {error}", 500)
            if isinstance(answer, Reply):
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(answer.body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(answer.body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                for chunk in answer:
                    self.wfile.write(chunk)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.handle_any("GET")

        def do_POST(self) -> None:  # noqa: N802
            self.handle_any("POST")

    return Handler


def serve(respond: Responder, host: str = "127.0.0.1", port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Serve in a daemon thread; returns the server and its base URL (port 0 picks a free port)."""
    server = ThreadingHTTPServer((host, port), make_handler(respond))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="b99-viewer", daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/"
