"""Delivery through a real Celery worker on the real Redis, and the outbox
surviving a broker outage and a killed worker."""

from __future__ import annotations

import contextlib
import time

import pytest

from games.services.moves import check_submit_action
from games.stream import store
from games.stream.derived import engine_for
from notifications import delivery, tasks
from notifications.models import Notification
from tests.notifications.conftest import new_duel
from tests.support.waiting import wait_until

# slow: real Celery workers, seconds a test.
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.slow]


def statuses() -> list[str]:
    return sorted(Notification.objects.values_list("status", flat=True))


@contextlib.contextmanager
def broker_unreachable(app):
    """Point the producers at a port where no Redis listens (the worker keeps its
    own connection, as a worker on another machine would)."""
    good = app.conf.broker_url

    def reset_pools():
        app._pool = None
        app.amqp._producer_pool = None

    app.conf.broker_url = "redis://127.0.0.1:1/0"
    reset_pools()
    try:
        yield
    finally:
        app.conf.broker_url = good
        reset_pools()


def test_a_real_worker_delivers_once_the_event_commits(worker, sink, alice, bob):
    new_duel(alice, bob)
    sink.wait_for(lambda m: "alice@example.org" in m.envelope_to)
    sink.wait_for(lambda m: "bob@example.org" in m.envelope_to)
    wait_until(lambda: statuses() == ["sent", "sent"])
    assert len(sink.messages) == 2


def test_moves_go_through_while_the_broker_is_down_and_mail_follows_the_sweep(
    worker, sink, alice, bob
):
    with broker_unreachable(worker.app):
        started = time.monotonic()
        game = new_duel(alice, bob)
        card = store.load(game, engine_for(game)).state["hands"][0][0]
        check_submit_action(game, alice, text=f"commit {card}", expected_seq=1)
        assert time.monotonic() - started < 5  # the move is not held up by the mail
    time.sleep(0.5)
    assert sink.messages == []
    assert statuses() == ["pending", "pending"]
    # Redis is back: the periodic sweep queues what is pending
    assert tasks.sweep_outbox() == 2
    # alice had played meanwhile: her "your turn" is obsolete and skipped, bob's is sent
    wait_until(lambda: statuses() == ["sent", "skipped"])
    assert [m["To"] for m in sink.messages] == ["bob@example.org"]


def test_a_sweep_while_the_broker_is_down_counts_nothing_as_queued(worker, sink, alice, bob):
    with broker_unreachable(worker.app):
        new_duel(alice, bob)
        assert tasks.sweep_outbox() == 0  # both wait for the next sweep
    assert statuses() == ["pending", "pending"]
    assert tasks.sweep_outbox() == 2
    wait_until(lambda: statuses() == ["sent", "sent"])


def test_a_row_left_sending_by_a_killed_worker_is_delivered_after_the_lease(
    worker, sink, alice, bob, settings
):
    with broker_unreachable(worker.app):
        new_duel(alice, bob)
    first, _ = Notification.objects.order_by("id")
    assert delivery.claim(first.pk) is not None  # the worker that claimed it died here
    assert tasks.sweep_outbox() == 1  # only the unclaimed one: the claim is still fresh
    settings.NOTIFICATIONS_CLAIM_LEASE = 1
    time.sleep(1.1)
    assert tasks.sweep_outbox() == 1
    wait_until(lambda: statuses() == ["sent", "sent"])
    assert sorted(m["To"] for m in sink.messages) == ["alice@example.org", "bob@example.org"]
