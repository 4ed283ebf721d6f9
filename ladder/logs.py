"""The ladder's logs: readable lines for a terminal, or one JSON object per line for a log pipeline
(`--log-format json`): time, level, logger, message, and any `extra=` fields (match_id, game...)."""

from __future__ import annotations

import logging
import sys

FORMATS = ("text", "json")


def configure_logging(format_name: str = "text", level: int = logging.INFO) -> None:
    """Send the root logger's records to stderr in `format_name` ("text" or "json")."""
    handler = logging.StreamHandler(sys.stderr)
    if format_name == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                                           rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
                                           datefmt="%Y-%m-%dT%H:%M:%S%z"))
    elif format_name == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    else:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {format_name!r}")
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("alembic").setLevel(logging.WARNING)
