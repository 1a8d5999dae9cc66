"""Celery tasks: thin wrappers that fetch by id and call notifications.delivery."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from notifications import delivery, webhooks
from notifications.outbox import enqueue, password_reset_for


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
    """The reset form's request (outbox.ask_password_reset): the mail to the
    accounts of `email`, if any; returns how many."""
    return password_reset_for(email)
