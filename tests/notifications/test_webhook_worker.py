"""Webhooks through real Celery workers on the real Redis: a hook that drips
its answer holds no mail, and notices lost while the broker was down are
posted by the sweep, once each.

The mail worker is the `worker` fixture (a thread on a private queue); the
webhook worker is a process as deployed (`celery worker -Q <its queue>`,
prefork, so its task time limits hold) on a private queue of its own.
"""

from __future__ import annotations

import time

import pytest

from notifications import tasks
from notifications.models import Notification
from notifications.tasks import enqueue
from tests.notifications.conftest import new_duel
from tests.notifications.test_worker import broker_unreachable
from tests.support.hooks import Drip, listening
from tests.support.waiting import wait_until
from tests.support.worker import private_queue, worker_process

# slow: waits on dripping hooks with a real worker.
pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]

# Long enough that the two hooks below, were they POSTed in the mail's
# path, would hold bob's mail past the bound even with the deadline.
DEADLINE = 4


@pytest.fixture
def hooks_worker(worker, settings, tmp_path):
    """The webhook worker's process, on a queue of its own (and the mail
    worker thread on another, from `worker`)."""
    settings.CORREO_WEBHOOK_QUEUE = queue = private_queue()
    settings.CORREO_WEBHOOK_DEADLINE_SECONDS = DEADLINE
    log = tmp_path / "webhooks-worker.log"
    with worker_process(
        [queue], log, CORREO_WEBHOOK_DEADLINE_SECONDS=str(DEADLINE),
        NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE="1", WORKER_CONCURRENCY="2",
        NOTIFICATIONS_QUEUE=settings.NOTIFICATIONS_QUEUE, CORREO_WEBHOOK_QUEUE=queue,
    ) as process:  # fmt: skip
        process.log = log
        yield process


def hook_statuses(user) -> list[str]:
    return list(Notification.objects.filter(user=user).order_by("id")
                .values_list("webhook_status", flat=True))  # fmt: skip


def test_a_dripping_hook_does_not_delay_another_players_mail(
    hooks_worker, sink, alice, bob, carol
):
    """alice's hook drips a byte every 0.25 s for 20 s; her two games' notices
    are queued before bob's.  bob's mail still comes at once (well before
    one deadline, let alone two), and each of alice's POSTs is given up at
    the deadline."""
    with Drip(every=0.25, seconds=20) as drip:
        alice.webhook_url = f"http://127.0.0.1:{drip.port}/hook"
        alice.save()
        new_duel(alice, carol)
        new_duel(alice, carol)
        started = time.monotonic()
        new_duel(bob, carol)
        sink.wait_for(lambda m: "bob@example.org" in m.envelope_to, timeout=20)
        late = time.monotonic() - started
        assert late < DEADLINE + 1, f"bob's mail came {late:.1f}s late"
        # alice's mails went too, and her hooks were given up by the deadline
        wait_until(lambda: len(sink.to("alice@example.org")) == 2, timeout=20)
        wait_until(lambda: hook_statuses(alice) == ["failed", "failed"], timeout=30)
        assert len(drip.requests) == 2
    errors = Notification.objects.filter(user=alice).values_list("webhook_error", flat=True)
    assert all("deadline" in error for error in errors)
    assert all(held < DEADLINE + 1.5 for held in drip.held), drip.held


def test_webhook_notices_lost_while_the_broker_was_down_are_posted_by_the_sweep_once(
    hooks_worker, alice, bob
):
    with listening() as hook:
        alice.webhook_url, alice.notify_mode = f"http://127.0.0.1:{hook.port}/hook", "off"
        alice.save()
        with broker_unreachable(hooks_worker_app()):
            new_duel(alice, bob)
            new_duel(alice, bob)
        time.sleep(0.5)
        assert hook.seen == []
        assert hook_statuses(alice) == ["pending", "pending"]
        # Redis is back: the periodic sweep queues them
        assert tasks.sweep_webhooks() == 2
        for pk in Notification.objects.filter(user=alice).values_list("id", flat=True):
            enqueue(tasks.deliver_webhook, pk)  # a second copy, as an overlapping sweep queues
        wait_until(lambda: hook_statuses(alice) == ["sent", "sent"], timeout=30)
        time.sleep(1)  # the second copies find nothing to claim
        assert tasks.sweep_webhooks() == 0
        ids = sorted(seen.json()["id"] for seen in hook.seen)
    assert ids == sorted(Notification.objects.filter(user=alice).values_list("id", flat=True))


def hooks_worker_app():
    from config.celery import app

    return app
