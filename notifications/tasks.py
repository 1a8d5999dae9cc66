"""Celery tasks: thin wrappers that fetch by id and call notifications.delivery
(and webhooks), and the handing of work to them: what the outbox wrote, once
it is durable (through the hand-off, notifications.handoff, where there is
one), and the password-reset form's request."""

from __future__ import annotations

import logging
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import transaction

from notifications import delivery, handoff, webhooks
from notifications.models import Notification
from notifications.outbox import password_reset_for
from ops import after_response, outage

log = logging.getLogger(__name__)


@shared_task(name="notifications.deliver", acks_late=True, reject_on_worker_lost=True)
def deliver(notification_id: int) -> str:
    return delivery.deliver(notification_id)


# The POST ends by its deadline; the limits are a backstop for the rest
# (the payload's queries, the record) and for anything that hangs outside
# the socket: the soft one ends the task, the hard one its process.
@shared_task(
    name="notifications.deliver_webhook",
    soft_time_limit=settings.CORREO_WEBHOOK_DEADLINE_SECONDS + 5,
    time_limit=settings.CORREO_WEBHOOK_DEADLINE_SECONDS + 15,
)
def deliver_webhook(notification_id: int) -> str:
    return webhooks.deliver(notification_id)


@shared_task(name="notifications.sweep_outbox")
def sweep_outbox() -> int:
    """Periodic: queue again what is pending and due (broker was down, worker
    died); returns how many were queued (the rest wait for the next sweep)."""
    return sum(enqueue(deliver, notification_id) for notification_id in delivery.sweep())


@shared_task(name="notifications.sweep_webhooks")
def sweep_webhooks() -> int:
    """Periodic: queue again the webhook notices never queued (the broker was
    down) or whose worker died; returns how many were queued."""
    return sum(enqueue(deliver_webhook, notification_id) for notification_id in webhooks.sweep())


@shared_task(name="notifications.send_digests")
def send_digests() -> int:
    """Daily: one digest mail per player who chose the daily digest."""
    ids = delivery.collect_digests()
    for notification_id in ids:
        enqueue(deliver, notification_id)
    return len(ids)


@shared_task(name="notifications.password_reset", acks_late=True)
def password_reset(email: str) -> int:
    """The reset form's request (ask_password_reset): the mail to the
    accounts of `email`, if any; returns how many."""
    return password_reset_for(email)


def queue_after_commit(row: Notification) -> None:
    """The mail and the webhook are two tasks on two queues: neither waits
    for the other, and a slow hook holds no mail.  In a request they are
    handed on once its response is written (ops.after_response)."""
    if row.status == Notification.Status.PENDING:
        transaction.on_commit(partial(after_response.run, partial(hand_on, deliver, row.pk)))
    if row.webhook_status == Notification.Webhook.PENDING:
        transaction.on_commit(
            partial(after_response.run, partial(hand_on, deliver_webhook, row.pk))
        )


def hand_on(task, notification_id: int) -> bool:
    """Through the hand-off when there is Redis and a worker (a push, where
    a publish would cost this process five times as much CPU); published
    here when tasks run eagerly or there is no Redis to push to."""
    if task.app.conf.task_always_eager or not settings.REDIS_URL:
        return enqueue(task, notification_id)
    return handoff.give(task.name, notification_id)


# What a worker may be asked to publish through the hand-off, by task name.
FORWARDED = {task.name: task for task in (deliver, deliver_webhook)}


def forward(item: bytes) -> bool:
    """A worker's Drain calls this for each item a process handed off:
    the publish `hand_on` left to the worker.  An item that is not one of
    ours is logged and dropped."""
    parsed = handoff.parse(item)
    task = FORWARDED.get(parsed[0]) if parsed else None
    if parsed is None or task is None:
        log.warning("hand-off item %r is not a notification task; dropped", item[:80])
        return False
    return enqueue(task, parsed[1])


def drain_handoff() -> handoff.Drain | None:
    """Start this worker's thread that publishes what was handed off (the
    worker's HandOff step, config.celery); None without Redis."""
    if not settings.REDIS_URL:
        return None
    drain = handoff.Drain(settings.REDIS_URL, forward)
    drain.start()
    return drain


def queue_of(task) -> str:
    """The queue a notification task goes to ("": Celery's default)."""
    if task.name == "notifications.deliver_webhook":
        return settings.CORREO_WEBHOOK_QUEUE
    return settings.NOTIFICATIONS_QUEUE


def enqueue(task, notification_id: int) -> bool:
    """Hand one id to Celery; never raises (the sweep retries what did not go).

    With the broker down this fails within milliseconds (one connection
    attempt, no publish retries), or within the Redis timeouts when it hangs
    (config.settings), and then this process does not try again for a while
    (ops.outage): a move is never held up by the mail.
    """
    queue = queue_of(task)
    options = {"queue": queue} if queue else {}
    if task.app.conf.task_always_eager:
        try:
            task.apply_async((notification_id,), **options)
        except Exception as error:  # an eager delivery that failed
            log.warning("could not deliver %s(%s): %s", task.name, notification_id, error)
            return False
        return True
    # A message left in a backed-up queue expires; the sweep queues the row again.
    options["expires"] = settings.NOTIFICATIONS_TASK_EXPIRES
    return publish(task, (notification_id,), f"notification {notification_id} waits for the sweep",
                   **options)  # fmt: skip


def publish(task, args: tuple, instead: str, **options) -> bool:
    """Send `task(*args)` to the broker; False, having logged `instead`
    (what happens in its place), when the broker cannot take it now."""
    broker = outage.of("broker", task.app.conf.broker_url)
    if broker.skipping():
        broker.skipped(task.name)
        return False
    try:
        with task.app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=0)
            task.apply_async(args, retry=False, producer=producer, **options)
    except Exception as error:
        broker.failed(task.name, error, instead)
        return False
    broker.reached()
    return True


def ask_password_reset(email: str) -> None:
    """All the reset form does for an address, the same whether or not it
    has an account: one message to a worker, which looks the address up and
    queues the mail (`password_reset_for`).  Looking up and writing the row
    in the request would make a known address's answer measurably slower
    than an unknown one's, telling who has an account.

    Without a broker to take it (the embedded default, whose tasks run in
    the request anyway, or Redis down) the work is done here: the mail
    still goes, and only then does the time differ."""
    options = {"queue": settings.NOTIFICATIONS_QUEUE} if settings.NOTIFICATIONS_QUEUE else {}
    if password_reset.app.conf.task_always_eager or not publish(
        password_reset, (email,), "a password reset is looked up in the request", **options
    ):
        password_reset_for(email)
