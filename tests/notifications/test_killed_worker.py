"""A worker process killed in the middle of a delivery does not lose the
notification: the row stays claimed, the sweep hands it to another worker once
the claim's lease has run out, and it goes out once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings as django_settings
from django.db import connection

from notifications import tasks
from notifications.models import Notification
from tests.notifications.conftest import free_port, new_duel
from tests.support.waiting import wait_until

# slow: kills a real worker and waits for the lease.
pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]

ROOT = Path(__file__).resolve().parents[2]


class StallingSink:
    """Holds the first message in DATA until released; records the ones it accepts."""

    def __init__(self) -> None:
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.accepted: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        if not self.stalled.is_set():
            self.stalled.set()
            while not self.release.is_set():
                await __import__("asyncio").sleep(0.05)
            return "451 4.3.0 the sender went away"
        self.accepted.append(envelope.original_content)
        return "250 OK"


def start_worker_process(queue: str, smtp_port: int) -> subprocess.Popen:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": django_settings.REDIS_URL,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
        "NOTIFICATIONS_QUEUE": queue,
        "REPLY_DOMAIN": "play.correo.test",
    }
    argv = ["worker", "-Q", queue, "--pool", "solo", "--concurrency", "1", "--loglevel",
            "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"]  # fmt: skip
    # The worker needs the test engine too: register it, then run Celery's worker.
    boot = (
        "import django; django.setup(); "
        "from games.engines import base; from tests.support.duel import DUEL; "
        "base.register(DUEL); from config.celery import app; "
        f"app.worker_main({argv!r})"
    )
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    command = [sys.executable, "-c", boot]
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


@pytest.fixture
def stalling_sink():
    handler, port = StallingSink(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    handler.port = port
    yield handler
    handler.release.set()
    controller.stop()


def test_a_worker_killed_mid_delivery_does_not_lose_the_notification(
    eager_celery, stalling_sink, settings, alice, bob
):
    eager_celery.conf.task_always_eager = False
    settings.NOTIFICATIONS_QUEUE = queue = f"correo-test-{uuid.uuid4().hex[:10]}"
    bob.notify_mode = "off"  # one notification only: alice's
    bob.save()
    first = start_worker_process(queue, stalling_sink.port)
    second = None
    try:
        new_duel(alice, bob)
        [row] = Notification.objects.all()
        wait_until(stalling_sink.stalled.is_set, timeout=30)  # the worker is inside the SMTP DATA
        row.refresh_from_db()
        assert row.status == "sending"
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        stalling_sink.release.set()
        assert stalling_sink.accepted == []

        second = start_worker_process(queue, stalling_sink.port)
        settings.NOTIFICATIONS_CLAIM_LEASE = 1
        time.sleep(1.1)
        assert tasks.sweep_outbox() == 1
        wait_until(lambda: Notification.objects.get(pk=row.pk).status == "sent", timeout=30)
        assert len(stalling_sink.accepted) == 1
        assert f"Message-ID: <correo.{row.pk}.your_turn@".encode() in stalling_sink.accepted[0]
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=15)
