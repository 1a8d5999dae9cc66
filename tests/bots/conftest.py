"""Bot fixtures: Celery runs eagerly and bots move at once unless a test
asks for `bot_worker` (a real Celery worker on the real Redis, consuming
private queues for the bots' moves and the mail)."""

from __future__ import annotations

import pytest

from tests.support.worker import private_queue, real_worker


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
    settings.CORREO_BOT_QUEUE = settings.NOTIFICATIONS_QUEUE = private_queue()
    with real_worker(eager_bots, settings.CORREO_BOT_QUEUE) as controller:
        yield controller
