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


@contextlib.contextmanager
def worker_process(queues: list[str], log, **env: str) -> Iterator[object]:
    """A Celery worker as deployed (its own process, the prefork pool, so
    task time limits are enforced) on the test database and the real Redis,
    consuming `queues`, with `env` on top of this process's environment; its
    output goes to `log` (a path).  Stopped, and its process group killed,
    on exit."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    environment = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        REDIS_URL=settings.REDIS_URL,
        CORREO_EXTRA_ENGINES="tests.support.duel:DUEL",
        CORREO_EMBEDDED_SWEEP="0",
        LOG_FORMAT="text",
    )
    environment.update(env)
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", ",".join(queues),
               "--pool", "prefork", "--concurrency", environment.get("WORKER_CONCURRENCY", "1"),
               "--loglevel", "INFO", "--without-gossip", "--without-mingle",
               "--without-heartbeat"]  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            command, cwd=root, env=environment, stdout=sink, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
