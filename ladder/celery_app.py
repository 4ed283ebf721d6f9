"""The Celery application of distributed ladders: one task per dispatch of a match, acknowledged late.

A worker that dies mid-match never acknowledges its task, so the broker hands it to another
worker; a task lost with the broker is sent again by the service's reconciler when its dispatch
lease runs out. The database's claim and its once-per-match result make duplicates harmless.
"""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery
from celery.signals import worker_process_init

from ladder.db import DatabaseUnavailable
from ladder.execute import die_with_parent, execute_match
from ladder.settings import LadderSettings

#: Seconds between tries of a task whose claim found the database away (for longer than the
#: claim's own retry window).
RETRY_SECONDS = float(os.environ.get("B99_LADDER_TASK_RETRY", "2"))

app = Celery("b99_ladder")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    task_acks_on_failure_or_timeout=True,
    worker_prefetch_multiplier=1,
    task_default_queue="ladder",
    task_serializer="json",
    accept_content=["json"],
    result_backend=None,
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
    broker_connection_max_retries=None,  # a worker waits for a restarted broker, however long
    # A task running when the broker's connection is lost can never be acknowledged on its channel (acknowledging it
    # later broke the worker's consumer inside kombu): it is cancelled and the broker hands it out again; the match's
    # claim in the database makes the new attempt the only one that records a result.
    worker_cancel_long_running_tasks_on_connection_loss=True,
    # An unacknowledged task returns to the queue after this long (its worker is presumed dead).
    broker_transport_options={"visibility_timeout": float(os.environ.get("B99_LADDER_VISIBILITY", "3600"))},
    worker_hijack_root_logger=False,
)


def configure(broker_url: str) -> Celery:
    """The app, pointed at `broker_url` (redis://...)."""
    app.conf.broker_url = broker_url
    return app


@worker_process_init.connect
def _die_with_worker(**_: object) -> None:
    """A pool process dies with the worker that forked it: no match plays on unsupervised."""
    os.environ["B99_LADDER_WORKER_KIND"] = "celery"
    die_with_parent(os.getppid())


@app.task(name="ladder.execute_match", bind=True, max_retries=None)
def execute_match_task(self, home: str, db_url: str, match_id: int, gateway: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """Play one attempt. A claim the database cannot answer is tried again, never taken as played;
    a match another attempt holds is left to it (the reconciler sends it again if that attempt dies).
    $B99_LADDER_WORKER_HOME replaces the service's home as this machine's scratch and bot cache."""
    settings = LadderSettings(Path(os.environ.get("B99_LADDER_WORKER_HOME") or home), db_url, gateway=gateway)
    try:
        return execute_match(settings, match_id)
    except DatabaseUnavailable as error:
        raise self.retry(exc=error, countdown=RETRY_SECONDS)
