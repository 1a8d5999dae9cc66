"""A real Celery worker for tests: a thread with the solo pool, on the real
Redis, consuming one private queue, so what a test queues is run as the
deployed worker runs it."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator


def private_queue() -> str:
    return f"correo-test-{uuid.uuid4().hex[:10]}"


@contextlib.contextmanager
def real_worker(app, queue: str) -> Iterator[object]:
    """`app`'s worker consuming `queue` until the block ends; eager mode is
    off meanwhile, and the worker thread's database connection is closed
    after each task, so none is left open at teardown."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.db import connection

    def close_connection(**kwargs):
        connection.close()

    task_postrun.connect(close_connection, weak=False)
    app.conf.task_always_eager = False
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=[queue],
            loglevel="WARNING",
        ) as controller:  # fmt: skip
            yield controller
    finally:
        task_postrun.disconnect(close_connection)
