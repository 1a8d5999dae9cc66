"""Celery tasks: thin wrappers that fetch by id and call notifications.delivery."""

from __future__ import annotations

from celery import shared_task

from notifications import delivery
from notifications.outbox import enqueue, password_reset_for


@shared_task(name="notifications.deliver", acks_late=True, reject_on_worker_lost=True)
def deliver(notification_id: int) -> str:
    return delivery.deliver(notification_id)


@shared_task(name="notifications.deliver_webhook")
def deliver_webhook(notification_id: int) -> str:
    return delivery.deliver_webhook(notification_id)


@shared_task(name="notifications.sweep_outbox")
def sweep_outbox() -> int:
    """Periodic: queue again what is pending and due (broker was down, worker
    died); returns how many were queued (the rest wait for the next sweep)."""
    return sum(enqueue(deliver, notification_id) for notification_id in delivery.sweep())


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
