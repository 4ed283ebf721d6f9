"""The Celery application of distributed ladders: one task per match attempt, acknowledged late.

A worker that dies mid-match never acknowledges its task, so the broker hands it to another
worker; the database's attempt counter makes sure only one attempt's result is ever written.
"""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery

from ladder.execute import LEASE_SECONDS, execute_match
from ladder.settings import LadderSettings

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
    # An unacknowledged task returns to the queue after this long (its worker is presumed dead).
    broker_transport_options={"visibility_timeout": float(os.environ.get("B99_LADDER_VISIBILITY", "3600"))},
    worker_hijack_root_logger=False,
)


def configure(broker_url: str) -> Celery:
    """The app, pointed at `broker_url` (redis://...)."""
    app.conf.broker_url = broker_url
    return app


@app.task(name="ladder.execute_match", bind=True, max_retries=20)
def execute_match_task(self, home: str, db_url: str, match_id: int) -> str:  # type: ignore[no-untyped-def]
    """Play one attempt; if another attempt still looks alive, come back when its lease runs out."""
    outcome = execute_match(LadderSettings(Path(home), db_url), match_id)
    if outcome == "busy":
        raise self.retry(countdown=LEASE_SECONDS)
    return outcome
