"""`/sdk/` on the ladder's web server: the SDK's Python wheel, the JavaScript SDK's npm tarball and
the protocol's .proto files, so that a bot's machine needs nothing but the ladder's address.

The files come from $B99_SDK_DIST (set-up writes them to dist/sdk) or, when that holds no wheel,
are built once into <home>/sdk (sdk.wheel; the tarball only where npm is installed)."""

from __future__ import annotations

import html
import os
import threading
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from ladder.settings import LadderSettings

_building = threading.Lock()


def sdk_dir(settings: LadderSettings) -> Path:
    """The directory holding the wheel and the tarball, built on first use."""
    configured = os.environ.get("B99_SDK_DIST")
    if configured and any(Path(configured).glob("*.whl")):
        return Path(configured)
    target = settings.home / "sdk"
    with _building:
        if not any(target.glob("*.whl")):
            from sdk.wheel import build_npm, build_wheel

            build_wheel(target)
            try:
                build_npm(target)
            except (RuntimeError, OSError):  # the wheel is what matters; the page says the tarball is missing
                pass
    return target


def proto_files() -> list[str]:
    """The .proto files, relative to the protocol package's parent (b99/arena.proto, b99/games/fuji99.proto, ...)."""
    from sdk.wheel import PROTO_DIR

    return sorted(path.relative_to(PROTO_DIR).as_posix() for path in (PROTO_DIR / "b99").rglob("*.proto"))


def sdk_routes(settings: LadderSettings) -> list[BaseRoute]:
    """The /sdk/ index, its files and the .proto files."""

    def index(request: Request) -> Response:
        directory = sdk_dir(settings)
        packages = sorted(path.name for path in directory.iterdir() if path.suffix in (".whl", ".tgz"))
        items = "".join(f'<li><a href="/sdk/{name}">{name}</a></li>' for name in packages)
        protos = "".join(f'<li><a href="/sdk/proto/{name}">{name}</a></li>' for name in proto_files())
        wheel = next((name for name in packages if name.endswith(".whl")), "")
        scheme = "https" if request.headers.get("x-forwarded-proto") == "https" else request.url.scheme
        base = html.escape(f"{scheme}://{request.url.netloc}")
        page = (
            "<!doctype html><html><head><meta charset='utf-8'><title>B99 Arena SDK</title>"
            "<link rel='stylesheet' href='/static/ladder.css'></head><body><main>"
            "<h1>SDK for this ladder</h1>"
            f"<p>Python (needs only grpcio and protobuf): <code>pip install {base}/sdk/{wheel}</code> "
            "installs the SDK and a <code>b99</code> command with <code>login</code>, <code>submit</code>, <code>mybots</code>.</p>"
            f"<ul>{items}</ul><h2>Protocol</h2><ul>{protos}</ul></main></body></html>"
        )
        return HTMLResponse(page, headers={"X-Content-Type-Options": "nosniff"})

    def package(request: Request) -> Response:
        name = request.path_params["name"]
        if "/" in name or name.startswith(".") or not name.endswith((".whl", ".tgz")):
            raise HTTPException(404)
        path = sdk_dir(settings) / name
        if not path.is_file():
            raise HTTPException(404)
        return FileResponse(path, filename=name, media_type="application/octet-stream")

    def proto(request: Request) -> Response:
        name = request.path_params["path"]
        if name not in proto_files():
            raise HTTPException(404)
        from sdk.wheel import PROTO_DIR

        return FileResponse(PROTO_DIR / name, media_type="text/plain; charset=utf-8")

    return [Route("/sdk/", index), Route("/sdk", index), Route("/sdk/proto/{path:path}", proto), Route("/sdk/{name}", package)]
