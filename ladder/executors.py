"""Where match attempts run: a local process pool (default) or Celery workers behind a Redis broker."""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from ladder.execute import execute_match
from ladder.matches import undispatch
from ladder.settings import LadderSettings

log = logging.getLogger(__name__)


class Executor(Protocol):
    """Runs `execute_match(settings, match_id)` somewhere; results go to the database, not back here."""

    name: str

    def submit(self, settings: LadderSettings, match_id: int) -> None: ...

    def shutdown(self) -> None: ...


class LocalExecutor:
    """A pool of worker processes on this machine."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # Not fork: the service runs gRPC and web threads, which fork would copy half-alive. A fork
        # server starts clean, imports the match code once, and forks each worker from that.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["ladder.execute", "referee.match", "ladder.matches"])
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=context)

    def submit(self, settings: LadderSettings, match_id: int) -> None:
        try:
            future = self.pool.submit(execute_match, settings, match_id)
        except BrokenProcessPool:
            # A worker process died (killed mid-match): its attempt is reaped; start a fresh pool.
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new_pool()
            future = self.pool.submit(execute_match, settings, match_id)
        future.add_done_callback(lambda done: _after(settings, match_id, done))

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _after(settings: LadderSettings, match_id: int, future: Future[str]) -> None:
    error = future.exception()
    if error is None:
        log.info("match %s: %s", match_id, future.result())
        return
    # The pool broke (a worker died). An attempt it had claimed stops sending heartbeats and is
    # reaped; a match it never claimed is handed back for dispatching.
    log.warning("match %s: worker failed: %s", match_id, error)
    try:
        undispatch(settings, match_id)
    except Exception:  # noqa: BLE001 - the service's next restart dispatches it anyway
        log.exception("match %s: could not hand it back", match_id)


class CeleryExecutor:
    """One Celery task per match attempt, acknowledged late (see ladder.celery_app)."""

    name = "celery"

    def __init__(self, broker_url: str) -> None:
        from ladder.celery_app import configure

        self.app = configure(broker_url)

    def submit(self, settings: LadderSettings, match_id: int) -> None:
        self.app.send_task(
            "ladder.execute_match", args=[str(settings.home), settings.db_url, match_id], queue="ladder"
        )

    def shutdown(self) -> None:
        self.app.close()
