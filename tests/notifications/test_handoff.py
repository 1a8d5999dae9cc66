"""The hand-off (notifications.handoff): a process that wrote outbox rows
pushes them onto one Redis list instead of publishing a Celery task per
row, and a thread in every worker pops and publishes them.  A mail still
goes exactly once whatever is lost on the way: an item nobody pops, one
a worker took and never published, a push Redis refused.

Real Redis throughout; the worker is a real Celery worker (a thread of this
process, solo pool) whose HandOff step (config.celery) runs the drain."""

from __future__ import annotations

import datetime
import logging

import pytest
import redis
from django.utils import timezone

from notifications import handoff, tasks
from notifications.models import Notification
from ops import outage
from tests.notifications.conftest import new_duel
from tests.notifications.test_after_response import move_without_closing
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def lane(settings):
    """This lane's Redis, with the hand-off list empty before and after."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(handoff.KEY)
    yield client
    client.delete(handoff.KEY)
    client.close()
    outage.forget_all()


@pytest.fixture
def published(eager_celery, settings):
    """Tasks go to the broker (no worker here): the private queue's length
    is how many Celery publishes were made."""
    from tests.support.worker import private_queue

    settings.NOTIFICATIONS_QUEUE = private_queue()
    eager_celery.conf.task_always_eager = False
    client = redis.Redis.from_url(eager_celery.conf.broker_url)
    yield lambda: client.llen(settings.NOTIFICATIONS_QUEUE)
    client.delete(settings.NOTIFICATIONS_QUEUE)
    client.close()


def handed_off(lane) -> list[bytes]:
    return lane.lrange(handoff.KEY, 0, -1)


def pending_ids(game, seq: int) -> list[int]:
    rows = Notification.objects.filter(game=game, seq=seq, status=Notification.Status.PENDING)
    return sorted(rows.values_list("pk", flat=True))


def test_a_move_hands_its_mail_on_with_one_push_and_publishes_no_task(
    lane, published, alice, bob, sink
):
    game = new_duel(alice, bob)
    lane.delete(handoff.KEY)  # the opening mail's items
    move_without_closing(game, alice, 0).close()
    response = move_without_closing(game, bob, 1)  # opens the next phase: mail for who acts
    ids = pending_ids(game, 3)
    assert ids and handed_off(lane) == []  # nothing before the answer is written
    response.close()
    assert sorted(handed_off(lane)) == sorted(f"notifications.deliver {pk}".encode() for pk in ids)
    assert published() == 0


def test_a_worker_publishes_what_was_handed_off_and_each_mail_goes_once(
    lane, worker, sink, alice, bob
):
    game = new_duel(alice, bob)  # outside a request: handed off at once
    wait_until(lambda: sorted(Notification.objects.filter(game=game).values_list(
        "status", flat=True)) == ["sent", "sent"])  # fmt: skip
    assert handed_off(lane) == []
    for row in Notification.objects.filter(game=game):  # handed off again: already sent
        assert handoff.give("notifications.deliver", row.pk)
    wait_until(lambda: handed_off(lane) == [])
    assert tasks.sweep_outbox() == 0
    assert len(sink.messages) == 2


def test_an_item_a_worker_took_and_never_published_is_sent_once_by_the_sweep(
    lane, published, eager_celery, alice, bob, sink, settings
):
    settings.NOTIFICATIONS_SWEEP_GRACE = 30
    game = new_duel(alice, bob)
    ids = pending_ids(game, 1)
    assert len(handed_off(lane)) == len(ids) == 2
    while lane.rpop(handoff.KEY):  # a worker popped them and died
        pass
    assert published() == 0
    eager_celery.conf.task_always_eager = True  # what the sweep queues is run here
    assert tasks.sweep_outbox() == 0  # fresh rows are left to their hand-off
    a_minute_ago = timezone.now() - datetime.timedelta(minutes=1)
    Notification.objects.filter(pk__in=ids).update(created_at=a_minute_ago)
    assert tasks.sweep_outbox() == 2
    assert tasks.sweep_outbox() == 0
    assert pending_ids(game, 1) == [] and len(sink.messages) == 2


def test_a_push_redis_refuses_leaves_the_row_to_the_sweep_and_is_counted(
    lane, published, alice, bob, settings, caplog
):
    from ops.metrics import DEGRADED

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    refused = DEGRADED.labels("handoff", "notifications.deliver")
    before = refused._value.get()
    with caplog.at_level(logging.WARNING, logger="ops.outage"):
        game = new_duel(alice, bob)
    assert len(pending_ids(game, 1)) == 2 and published() == 0
    assert refused._value.get() == before + 2  # tried once, then left alone
    assert [r.message for r in caplog.records if "handoff unreachable" in r.message] != []
    assert "waits for the sweep" in caplog.text


def test_the_list_keeps_the_newest_items_when_no_worker_drains_it(lane, monkeypatch):
    monkeypatch.setattr(handoff, "LIMIT", 3)
    for notification_id in range(1, 6):
        assert handoff.give("notifications.deliver", notification_id)
    assert handed_off(lane) == [f"notifications.deliver {n}".encode() for n in (5, 4, 3)]


@pytest.mark.parametrize(
    "item",
    [b"", b"notifications.deliver", b"notifications.deliver x", b"os.system 1",
     b"games.tasks.run_timeouts 1", b"\xff\xfe 1", b"notifications.deliver 1 2"],
)  # fmt: skip
def test_an_item_that_is_not_a_notification_task_is_dropped_with_a_warning(
    item, published, caplog
):
    with caplog.at_level(logging.WARNING, logger="notifications.tasks"):
        assert tasks.forward(item) is False
    assert published() == 0
    assert "dropped" in caplog.text


def test_a_drain_forwards_in_order_and_stops_without_waiting_out_its_pop(lane, settings):
    heard: list[bytes] = []
    drain = handoff.Drain(settings.REDIS_URL, heard.append)
    drain.start()
    try:
        for notification_id in (7, 8, 9):
            handoff.give("notifications.deliver", notification_id)
        wait_until(lambda: len(heard) == 3)
        assert heard == [f"notifications.deliver {n}".encode() for n in (7, 8, 9)]
    finally:
        drain.stop(timeout=handoff.WAIT / 2)
    assert not drain.is_alive()  # woken by its own list, not by the pop's timeout


def test_a_drain_outlives_an_item_whose_forwarding_fails(lane, settings, caplog):
    heard: list[bytes] = []

    def forward(item: bytes) -> None:
        if item.endswith(b" 1"):
            raise RuntimeError("the broker said no")
        heard.append(item)

    drain = handoff.Drain(settings.REDIS_URL, forward)
    drain.start()
    try:
        with caplog.at_level(logging.ERROR, logger="notifications.handoff"):
            handoff.give("notifications.deliver", 1)
            handoff.give("notifications.deliver", 2)
            wait_until(lambda: heard == [b"notifications.deliver 2"])
    finally:
        drain.stop()
    assert "was not forwarded" in caplog.text


def test_metrics_say_how_much_mail_waits_for_a_worker(lane, client, settings):
    from tests.deploy.test_metrics import scrape, value

    for notification_id in (1, 2, 3):
        handoff.give("notifications.deliver", notification_id)
    assert value(scrape(client), "correo_handoff_waiting") == 3
    drain = handoff.Drain(settings.REDIS_URL, lambda item: None)
    drain.start()
    try:
        wait_until(lambda: lane.llen(handoff.KEY) == 0)
    finally:
        drain.stop()
    samples = scrape(client)
    assert ("correo_handoff_waiting", ()) in samples
    assert value(samples, "correo_handoff_waiting") == 0


def test_metrics_leave_the_hand_off_out_while_redis_cannot_say(lane, client, settings):
    from tests.deploy.test_metrics import scrape

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    samples = scrape(client)
    assert ("correo_handoff_waiting", ()) not in samples
    assert samples[("correo_metrics_database_ok", ())] == 1  # the rest is there


def test_a_drain_takes_a_burst_in_batches_oldest_first(lane, settings):
    burst = 2 * handoff.BATCH + 17
    for notification_id in range(burst):
        handoff.give("notifications.deliver", notification_id)
    heard: list[bytes] = []
    drain = handoff.Drain(settings.REDIS_URL, heard.append)
    takes: list[int] = []
    rpop = drain.client.rpop

    def counted(key, count=None):
        taken = rpop(key, count)
        takes.append(len(taken or ()))
        return taken

    drain.client.rpop = counted
    drain.start()
    try:
        wait_until(lambda: len(heard) == burst)
    finally:
        drain.stop()
    assert heard == [f"notifications.deliver {n}".encode() for n in range(burst)]
    assert lane.llen(handoff.KEY) == 0
    # one item by the blocking pop, then the rest in full batches and the remainder
    assert takes[:3] == [handoff.BATCH, handoff.BATCH, 16]


def test_metrics_say_how_much_mail_waits_while_the_database_cannot_say(lane, client, monkeypatch):
    from django.db import OperationalError

    from ops import metrics
    from tests.deploy.test_metrics import scrape, value

    def down(self):
        raise OperationalError("connection refused")

    monkeypatch.setattr(metrics.DatabaseCollector, "read", down)
    for notification_id in (1, 2):
        handoff.give("notifications.deliver", notification_id)
    samples = scrape(client)
    assert value(samples, "correo_metrics_database_ok") == 0
    assert value(samples, "correo_handoff_waiting") == 2
