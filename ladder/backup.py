"""Backing a ladder up to one archive and restoring it, on SQLite or PostgreSQL (either way round).

The archive (.tar.gz) holds `manifest.json` (format, schema revision, tables), every table's rows as
JSON lines read in one consistent snapshot, and the ladder's files (replays, uploaded bots). Restoring
needs an empty database: it brings the schema to the backup's revision, inserts the rows in
foreign-key order, moves id sequences past the restored ids, unpacks the files into the new home
(rewriting the stored paths), then migrates to the current schema.
"""

from __future__ import annotations

import base64
import io
import json
import tarfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import DateTime, LargeBinary, MetaData, Table, func, insert, select, text
from sqlalchemy.engine import Connection

from ladder.archives import extract_one
from ladder.db import current_revision, get_engine, is_postgres, migrate
from ladder.registry import LadderError
from ladder.settings import LadderSettings

FORMAT = 1
MANIFEST = "manifest.json"
#: The ladder's directories that go into a backup, beside the database.
FILE_DIRS = ("replays", "bots")
#: The ladder's files beside them (per-game settings).
FILE_NAMES = ("games.toml",)
#: Columns holding paths inside the ladder's home (rewritten on restore to the new home).
PATH_COLUMNS = {("match", "replay_path"), ("bot", "store_path")}
#: Not backed up: the schema's revision, and the scheduler's change counts (they mean nothing in another database).
SKIPPED_TABLES = {"alembic_version", "changecounter"}
BATCH = 500


@dataclass(frozen=True)
class BackupSummary:
    """What a backup or restore moved."""

    revision: str
    rows: dict[str, int]
    files: int

    def describe(self) -> str:
        tables = ", ".join(f"{name} {count}" for name, count in sorted(self.rows.items()) if count)
        return f"schema {self.revision}; rows: {tables or 'none'}; {self.files} files"


def _tables(connection: Connection) -> list[Table]:
    metadata = MetaData()
    metadata.reflect(bind=connection)
    return [table for table in metadata.sorted_tables if table.name not in SKIPPED_TABLES]


def _encode(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"base64": base64.b64encode(bytes(value)).decode()}
    return value


def _decode(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    decoded = {}
    for name, value in row.items():
        column = table.columns.get(name)
        if column is None:
            raise LadderError(f"backup has a column {table.name}.{name} the database at this revision lacks")
        if value is not None and isinstance(column.type, DateTime):
            value = datetime.fromisoformat(value)
        elif value is not None and isinstance(column.type, LargeBinary):
            value = base64.b64decode(value["base64"])
        decoded[name] = value
    return decoded


def _add_bytes(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), int(time.time()), 0o600
    archive.addfile(info, io.BytesIO(data))


def backup(settings: LadderSettings, target: Path, with_files: bool = True) -> BackupSummary:
    """Write the ladder's database (one consistent snapshot) and files to the archive `target`."""
    engine = get_engine(settings.db_url)
    revision = current_revision(settings.db_url)
    if revision is None:
        raise LadderError(f"{settings.db_url.split('@')[-1]}: no ladder here (run `b99 ladder init`)")
    rows: dict[str, int] = {}
    files = 0
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_name(target.name + ".partial")
    with tarfile.open(scratch, "w:gz") as archive:
        options = {"isolation_level": "REPEATABLE READ"} if is_postgres(engine) else {}
        with engine.connect().execution_options(**options) as connection, connection.begin():
            tables = _tables(connection)
            for table in tables:
                lines = [json.dumps({key: _encode(value) for key, value in row._mapping.items()})
                         for row in connection.execute(select(table).order_by(*table.primary_key.columns))]
                rows[table.name] = len(lines)
                _add_bytes(archive, f"tables/{table.name}.jsonl", ("\n".join(lines) + "\n" if lines else "").encode())
        if with_files:
            for directory in FILE_DIRS:
                root = settings.home / directory
                if root.is_dir():
                    archive.add(root, arcname=f"files/{directory}")
                    files += sum(1 for path in root.rglob("*") if path.is_file())
            for name in FILE_NAMES:
                if (settings.home / name).is_file():
                    archive.add(settings.home / name, arcname=f"files/{name}")
                    files += 1
        manifest = {"format": FORMAT, "revision": revision, "home": str(settings.home), "tables": [t.name for t in tables],
                    "rows": rows, "created": datetime.now().astimezone().isoformat()}
        _add_bytes(archive, MANIFEST, json.dumps(manifest, indent=2).encode())
    scratch.replace(target)
    return BackupSummary(revision, rows, files)


def _read_manifest(archive: tarfile.TarFile) -> dict[str, Any]:
    try:
        member = archive.extractfile(MANIFEST)
    except KeyError:
        member = None
    if member is None:
        raise LadderError("not a ladder backup: no manifest.json")
    manifest = json.loads(member.read())
    if manifest.get("format") != FORMAT:
        raise LadderError(f"backup format {manifest.get('format')!r} is not {FORMAT}")
    return manifest


def _rows(archive: tarfile.TarFile, table: str) -> Iterator[dict[str, Any]]:
    member = archive.extractfile(f"tables/{table}.jsonl")
    if member is None:
        raise LadderError(f"backup lacks the rows of table {table!r}")
    for line in io.TextIOWrapper(member, encoding="utf-8"):
        if line.strip():
            yield json.loads(line)


def _moved(value: Any, old_home: str, new_home: str) -> Any:
    if isinstance(value, str) and value.startswith(old_home.rstrip("/") + "/"):
        return new_home.rstrip("/") + value[len(old_home.rstrip("/")):]
    return value


def restore(settings: LadderSettings, source: Path) -> BackupSummary:
    """Restore a backup into the ladder at `settings` (its database must hold no rows)."""
    try:
        archive = tarfile.open(source, "r:gz")
    except (OSError, tarfile.TarError) as error:
        raise LadderError(f"{source}: not a ladder backup ({error})") from None
    with archive:
        manifest = _read_manifest(archive)
        settings.home.mkdir(parents=True, exist_ok=True)
        migrate(settings.db_url, manifest["revision"])
        engine = get_engine(settings.db_url)
        rows: dict[str, int] = {}
        old_home, new_home = str(manifest.get("home", "")), str(settings.home)
        with engine.connect() as connection, connection.begin():
            tables = {table.name: table for table in _tables(connection)}
            unknown = set(manifest["tables"]) - set(tables)
            if unknown:
                raise LadderError(f"backup has tables this schema lacks: {', '.join(sorted(unknown))}")
            for table in tables.values():
                if connection.execute(select(func.count()).select_from(table)).scalar():
                    raise LadderError(f"restore needs an empty ladder: table {table.name!r} has rows")
            for table in tables.values():
                if table.name not in manifest["tables"]:
                    continue
                batch: list[dict[str, Any]] = []
                count = 0
                for row in _rows(archive, table.name):
                    decoded = _decode(table, row)
                    for column in decoded:
                        if (table.name, column) in PATH_COLUMNS and old_home:
                            decoded[column] = _moved(decoded[column], old_home, new_home)
                    batch.append(decoded)
                    count += 1
                    if len(batch) >= BATCH:
                        connection.execute(insert(table), batch)
                        batch = []
                if batch:
                    connection.execute(insert(table), batch)
                rows[table.name] = count
                if is_postgres(engine) and "id" in table.columns and count:
                    connection.execute(text(f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), "
                                            f"(SELECT max(id) FROM \"{table.name}\"))"))
        files = 0
        for member in archive.getmembers():
            path = PurePosixPath(member.name)
            wanted = (len(path.parts) >= 3 and path.parts[1] in FILE_DIRS) or (len(path.parts) == 2 and path.parts[1] in FILE_NAMES)
            if path.parts[:1] != ("files",) or not wanted:
                continue
            member.name = str(PurePosixPath(*path.parts[1:]))
            extract_one(archive, member, settings.home)
            files += member.isfile()
    migrate(settings.db_url)
    return BackupSummary(str(manifest["revision"]), rows, files)
