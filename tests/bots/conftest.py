"""Bot fixtures: Celery runs eagerly and bots move at once unless a test
asks for `bot_worker` (a real Celery worker on the real Redis, consuming
private queues for the bots' moves and the mail)."""

from __future__ import annotations

import uuid

import pytest


@pytest.fixture(autouse=True)
def eager_bots(settings):
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.CORREO_BOT_PACE_SECONDS = 0
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def bot_worker(eager_bots, settings):
    """A real Celery worker (thread, solo pool) on the real Redis."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.db import connection

    def close_connection(**kwargs):
        connection.close()  # the worker thread's own: none is left open at teardown

    task_postrun.connect(close_connection, weak=False)
    app = eager_bots
    app.conf.task_always_eager = False
    queue = f"correo-test-{uuid.uuid4().hex[:10]}"
    settings.CORREO_BOT_QUEUE = settings.NOTIFICATIONS_QUEUE = queue
    with start_worker(
        app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=[queue],
        loglevel="WARNING",
    ) as controller:  # fmt: skip
        yield controller
    task_postrun.disconnect(close_connection)
