"""Building the SDK's own distributions: a Python wheel holding only what a bot's machine needs
(the bot run loop, the typed views, the ladder client and its `b99` command, the protocol code and
.proto files; it depends on grpcio and protobuf alone), and the JavaScript SDK as an npm tarball.

    python -m sdk.wheel OUT_DIR   # writes OUT_DIR/b99_arena_sdk-<version>-py3-none-any.whl and, with npm, the .tgz

The wheel is written directly (a zip with its dist-info), so building it needs no build tools."""

from __future__ import annotations

import base64
import importlib.util
import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

SDK_DIR = Path(__file__).resolve().parent
#: Where the generated protocol package `b99` lives (proto/ in a checkout, site-packages when installed).
PROTO_DIR = Path(importlib.util.find_spec("b99").origin or "").resolve().parent.parent  # type: ignore[union-attr]
DISTRIBUTION = "b99-arena-sdk"
VERSION = "0.1.0"
REQUIRES = ("grpcio>=1.60", "protobuf>=5.26")
#: The SDK modules a remote bot and the ladder client need (the rest import the referee).
SDK_MODULES = ("__init__.py", "answer.py", "bot.py", "commitment.py", "decode.py", "run.py", "seeds.py", "types.py")


def wheel_name() -> str:
    return f"{DISTRIBUTION.replace('-', '_')}-{VERSION}-py3-none-any.whl"


def wheel_files() -> dict[str, bytes]:
    """Archive name -> contents of every file the wheel installs (dist-info aside)."""
    files: dict[str, bytes] = {}
    for name in SDK_MODULES:
        files[f"sdk/{name}"] = (SDK_DIR / name).read_bytes()
    for path in sorted((SDK_DIR / "client").glob("*.py")):
        files[f"sdk/client/{path.name}"] = path.read_bytes()
    proto = PROTO_DIR
    for path in sorted((proto / "b99").rglob("*")):
        if path.is_file() and (path.suffix in (".py", ".proto", ".pyi")) and "__pycache__" not in path.parts:
            files[path.relative_to(proto).as_posix()] = path.read_bytes()
    return files


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(out_dir: Path) -> Path:
    """Write the SDK's wheel into `out_dir`; returns its path. The same sources give the same bytes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    info = f"{DISTRIBUTION.replace('-', '_')}-{VERSION}.dist-info"
    metadata = "\n".join([
        "Metadata-Version: 2.1", f"Name: {DISTRIBUTION}", f"Version: {VERSION}",
        "Summary: B99 Arena SDK: write a bot, play it on a hosted ladder (b99 login, submit, mybots)",
        "Requires-Python: >=3.11", *(f"Requires-Dist: {requirement}" for requirement in REQUIRES), "",
    ]).encode()
    files = wheel_files()
    files[f"{info}/METADATA"] = metadata
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: sdk.wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\nb99 = sdk.client.cli:entry\n"
    files[f"{info}/top_level.txt"] = b"b99\nsdk\n"
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    target = out_dir / wheel_name()
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return target


def build_npm(out_dir: Path) -> Path | None:
    """`npm pack` of the JavaScript SDK into `out_dir`; None when npm is not installed."""
    npm = shutil.which("npm")
    if npm is None or not (SDK_DIR / "js" / "package.json").is_file():
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([npm, "pack", "--silent", "--pack-destination", str(out_dir.resolve())], cwd=SDK_DIR / "js",
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"npm pack failed: {(result.stderr or result.stdout).strip()[-300:]}")
    return out_dir / result.stdout.strip().splitlines()[-1]


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0] if argv else "dist/sdk")
    print(f"SDK wheel: {build_wheel(out_dir)}")
    tarball = build_npm(out_dir)
    print(f"JS SDK: {tarball}" if tarball else "JS SDK: npm not found; no tarball")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
