"""Uploaded bots' files in the database, by content hash: the registry stores them once, and any
worker (on any machine) unpacks them into its own cache before it plays a match."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

from sqlmodel import Session

from ladder.archives import extract_all
from ladder.db import read_session
from ladder.models import BotBlob
from ladder.settings import LadderSettings


class BotStoreError(ValueError):
    """An uploaded bot's files cannot be found or unpacked."""


def pack_directory(directory: Path) -> bytes:
    """A gzipped tar of `directory`'s contents, the same bytes for the same files (sorted, no times or owners)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in sorted(directory.rglob("*")):
            info = archive.gettarinfo(str(path), arcname=str(path.relative_to(directory)))
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if info.isfile():
                with path.open("rb") as file:
                    archive.addfile(info, file)
            elif info.isdir() or info.issym():
                archive.addfile(info)
    return buffer.getvalue()


def store_directory(session: Session, directory: Path) -> str:
    """Store `directory`'s files (once per content) in the open transaction; returns the content hash."""
    data = pack_directory(directory)
    content_hash = hashlib.sha256(data).hexdigest()
    if session.get(BotBlob, content_hash) is None:
        session.add(BotBlob(content_hash=content_hash, size=len(data), data=data))
    return content_hash


def cache_dir(settings: LadderSettings) -> Path:
    """Where this machine keeps unpacked bots: $B99_LADDER_BOT_CACHE, else <home>/bot-cache."""
    return Path(os.environ.get("B99_LADDER_BOT_CACHE") or settings.home / "bot-cache")


def materialize(settings: LadderSettings, content_hash: str) -> Path:
    """The unpacked files of the bot with `content_hash` on this machine (fetched and unpacked once,
    then reused; the hash is checked, so a cached copy is exactly what was uploaded)."""
    target = cache_dir(settings) / content_hash
    if target.is_dir():
        return target
    with read_session(settings.db_url) as session:
        blob = session.get(BotBlob, content_hash)
    if blob is None:
        raise BotStoreError(f"no uploaded bot with content hash {content_hash} in the store")
    if hashlib.sha256(blob.data).hexdigest() != content_hash:
        raise BotStoreError(f"stored bot {content_hash} does not match its hash")
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # strict binds a bot's copy; no uid walks in
    staging = Path(tempfile.mkdtemp(prefix=f".{content_hash[:12]}-", dir=target.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(blob.data), mode="r:gz") as archive:
            extract_all(archive, staging)
        staging.chmod(0o755)  # mkdtemp's 0700 would hide the files from a sandboxed bot's own uid
        try:
            staging.rename(target)  # atomic: two workers unpacking at once both end with one copy
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
