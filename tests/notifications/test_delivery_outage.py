"""A mail is sent once: the database connection lost right after the SMTP
server accepted a mail does not send it again.  The mark "sent" is retried
across the reconnect; only a database away for longer than
NOTIFICATIONS_MARK_RETRY_SECONDS (or a worker killed at that moment) leaves
the row claimed, and then the mail goes out again after the lease with the
same Message-ID."""

from __future__ import annotations

import contextlib
import logging

import psycopg
import pytest
from django.db import OperationalError, connection

from notifications import delivery, tasks
from notifications.models import Notification
from tests.notifications.conftest import new_duel, serving_smtp
from tests.support.dbproxy import DatabaseProxy
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def admin_connection() -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"],
                           password=db.get("PASSWORD") or None, dbname=db["NAME"],
                           autocommit=True)  # fmt: skip


class FaultySink:
    """Accepts every mail; right after taking in the first one, before its 250
    reaches the sender, it runs `fault` (the database goes away)."""

    def __init__(self) -> None:
        self.accepted: list[bytes] = []
        self.fault = None

    async def handle_DATA(self, server, session, envelope):
        self.accepted.append(envelope.original_content)
        fault, self.fault = self.fault, None
        if fault is not None:
            fault()
        return "250 OK"

    def message_ids(self) -> list[bytes]:
        return [line for raw in self.accepted for line in raw.splitlines()
                if line.lower().startswith(b"message-id:")]  # fmt: skip


@pytest.fixture
def faulty_sink(settings):
    handler = FaultySink()
    controller = serving_smtp(handler, settings)
    yield handler
    controller.stop()


@pytest.mark.redis
def test_a_connection_terminated_after_the_smtp_accept_does_not_send_the_mail_twice(
    worker, faulty_sink, alice, bob, settings
):
    connection.ensure_connection()
    spared = connection.connection.info.backend_pid  # this test's own connection
    terminated: list[int] = []

    def terminate_the_workers_connection():
        with admin_connection() as admin:
            pids = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND pid <> %s",
                [spared],
            ).fetchall()
            for (pid,) in pids:
                admin.execute("SELECT pg_terminate_backend(%s)", [pid])
                terminated.append(pid)

    faulty_sink.fault = terminate_the_workers_connection
    bob.notify_mode = "off"  # one notification: alice's
    bob.save()
    new_duel(alice, bob)  # a real worker on the real Redis delivers it
    [row] = Notification.objects.all()
    wait_until(lambda: Notification.objects.get(pk=row.pk).status == "sent")
    assert terminated  # the worker's connection really was cut after the accept
    # the lease runs out at once: nothing is left claimed for the sweep to send again
    settings.NOTIFICATIONS_CLAIM_LEASE = 0
    assert tasks.sweep_outbox() == 0
    assert faulty_sink.message_ids() == [f"Message-ID: <correo.{row.pk}.your_turn@".encode()
                                         + b"play.correo.test>"]  # fmt: skip


@contextlib.contextmanager
def through(proxy: DatabaseProxy):
    """This process's database connection goes through the proxy."""
    saved = {key: connection.settings_dict[key] for key in ("HOST", "PORT")}
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(proxy.port))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)


def test_a_database_away_past_the_retries_sends_the_mail_again_with_the_same_message_id(
    faulty_sink, alice, bob, settings, monkeypatch, caplog
):
    bob.notify_mode = "off"
    bob.save()
    monkeypatch.setattr(tasks, "enqueue", lambda *args, **kwargs: False)  # left pending
    new_duel(alice, bob)
    monkeypatch.undo()
    [row] = Notification.objects.all()
    settings.NOTIFICATIONS_MARK_RETRY_SECONDS = 0.5
    proxy = DatabaseProxy.for_test_database()
    faulty_sink.fault = proxy.cut  # the database is gone right after the accept
    try:
        with (
            through(proxy),
            caplog.at_level(logging.WARNING, "notifications.delivery"),
            pytest.raises(OperationalError),
        ):
            delivery.deliver(row.pk)
    finally:
        proxy.close()
    retried = [r for r in caplog.records if "retrying" in r.getMessage()]
    assert len(retried) >= 2  # the mark was tried again before the row was given up
    row.refresh_from_db()
    assert row.status == "sending"  # the mail is out, the row does not know it
    settings.NOTIFICATIONS_CLAIM_LEASE = 0
    assert delivery.sweep() == [row.pk]
    assert delivery.deliver(row.pk) == "sent"
    [first, second] = faulty_sink.message_ids()
    assert first == second == f"Message-ID: <correo.{row.pk}.your_turn@play.correo.test>".encode()
