"""Delivering a notification to its user's webhook: claim, POST, record, and
the per-user circuit breaker.  Called by the Celery task on the webhook
queue (notifications.tasks); safe to call twice for the same row.

- **Once.**  A row written for a user with a webhook is `webhook_status`
  pending; the task claims it (pending -> sending, a conditional UPDATE only
  one worker wins) before it POSTs, so a row queued twice (after commit and
  by the sweep, or by two sweeps) is POSTed once.  A worker that dies
  between the claim and the record leaves it sending; after
  NOTIFICATIONS_CLAIM_LEASE the sweep hands it out again (at most
  MAX_CLAIMS times), and the payload's `id` is the same, for the receiver
  to recognise.
- **One try.**  A failed POST is not retried: a hook is told of the next
  event anyway, and a retry would be a second chance for a slow target to
  hold a worker.
- **The breaker.**  Each failure in a row counts; the
  CORREO_WEBHOOK_FAILURES_TO_PAUSE-th pauses the user's hook (nothing is
  POSTed, the notices are skipped) and writes one mail to its owner (the
  outbox, their language).  A success starts the count again; saving the
  webhook URL (the settings page, PATCH /api/auth/me/, the admin) or the
  settings page's resume button ends the pause.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from notifications import render, webhook_http
from notifications.metrics import NOTIFICATION_FAILURES
from notifications.models import Notification, WebhookBreaker
from ops.logging import game_id_var

log = logging.getLogger(__name__)

# A row whose worker died with it this many times is given up: something in
# it kills workers, and POSTing it again would kill the next one.
MAX_CLAIMS = 3

Hook = Notification.Webhook


def claim(notification_id: int) -> Notification | None:
    """pending -> sending in one conditional UPDATE: only one worker wins."""
    won = Notification.objects.filter(pk=notification_id, webhook_status=Hook.PENDING).update(
        webhook_status=Hook.SENDING, webhook_claimed_at=timezone.now(),
        webhook_attempts=F("webhook_attempts") + 1,
    )  # fmt: skip
    if not won:
        return None
    return Notification.objects.select_related("user", "game").get(pk=notification_id)


def deliver(notification_id: int) -> str:
    """POST one notification to its user's webhook; returns what happened:
    nothing (not ours to send, or already claimed), paused, skipped, sent,
    failed, or bug (the payload could not be made)."""
    from notifications import delivery

    n = claim(notification_id)
    if n is None:
        return "nothing"
    game_id_var.set(n.game_id)
    url = n.user.webhook_url if n.user_id else ""
    if not url:
        _record(n, Hook.SKIPPED, "no webhook URL any more")
        return "skipped"
    breaker = WebhookBreaker.objects.filter(user_id=n.user_id, paused_at__isnull=False).first()
    if breaker is not None:
        _record(n, Hook.SKIPPED, f"paused since {breaker.paused_at:%Y-%m-%d %H:%M} UTC")
        return "paused"
    try:
        if delivery.obsolete(n):
            _record(n, Hook.SKIPPED, "the turn it announces is already played")
            return "skipped"
        body = json.dumps(payload(n)).encode()
    except Exception as error:  # ours, not the hook's: it does not count against the hook
        log.error("webhook of notification %s: no payload, a bug: %r", n.pk, error,
                  exc_info=error)  # fmt: skip
        NOTIFICATION_FAILURES.labels("bug", n.kind).inc()
        _record(n, Hook.FAILED, f"no payload: {type(error).__name__}: {error}")
        return "bug"
    outcome = webhook_http.post(url, body)
    if outcome.ok:
        _record(n, Hook.SENT, "", webhook_sent_at=timezone.now())
        _succeeded(n.user_id)
        return "sent"
    log.warning("webhook for notification %s failed: %s", n.pk, outcome.detail)
    NOTIFICATION_FAILURES.labels("webhook", n.kind).inc()
    _record(n, Hook.FAILED, outcome.detail)
    _failed(n.user, url, outcome.detail)
    return "failed"


def _record(n: Notification, status: str, error: str, **fields) -> None:
    from notifications import delivery

    delivery.persist(n, webhook_status=status, webhook_error=error[:500], **fields)


def payload(n: Notification) -> dict:
    """What the hook receives: `id` is the notification's, the same if a
    crash makes it come twice."""
    data = {
        "id": n.pk,
        "kind": n.kind,
        "game": n.game_id,
        "seq": n.seq,
        "seat": n.seat,
        "user": n.user.username if n.user_id else None,
        "context": n.context,
    }
    if n.game_id is not None:
        facts = render.game_facts(n.game, n.seat, n.seq or n.game.seq)
        data.update(
            title=facts["title"],
            your_turn=facts["your_turn"],
            moves=[move["line"] for move in facts["moves"]],
            head_hash=facts["head_hash"],
            text=f"[Correo] {facts['title']} #{n.game_id}: {n.get_kind_display()}",
        )
    return data


# --- the breaker ----------------------------------------------------------------------


def _succeeded(user_id: int) -> None:
    """The run of failures is over (a pause that began meanwhile stays)."""
    WebhookBreaker.objects.filter(user_id=user_id, failures__gt=0, paused_at__isnull=True).update(
        failures=0, last_error=""
    )


def _failed(user, url: str, detail: str) -> None:
    """One more failure in a row; the one that reaches the limit pauses the
    hook and tells its owner, in the same transaction (so exactly once)."""
    from notifications.outbox import notify

    with transaction.atomic():
        breaker, _ = WebhookBreaker.objects.select_for_update().get_or_create(user=user)
        if breaker.paused_at is not None:
            return
        breaker.failures += 1
        breaker.last_error = detail[:500]
        if breaker.failures >= settings.CORREO_WEBHOOK_FAILURES_TO_PAUSE:
            breaker.paused_at, breaker.paused_url = timezone.now(), url
        breaker.save()
        if breaker.paused_at is None:
            return
        log.warning("webhook of user %s paused after %s failures in a row: %s",
                    user.pk, breaker.failures, detail)  # fmt: skip
        if user.email:  # without one the settings page is where they learn of it
            notify(
                user, None, Notification.Kind.WEBHOOK_PAUSED, None,
                {"url": url, "failures": breaker.failures, "error": breaker.last_error},
                key=f"webhook_paused:{user.pk}:{breaker.paused_at.isoformat()}",
            )  # fmt: skip


def pause_of(user) -> WebhookBreaker | None:
    """The user's hook's pause (for the settings page), or None while it runs."""
    return WebhookBreaker.objects.filter(user=user, paused_at__isnull=False).first()


def resume(user_id: int) -> bool:
    """A fresh start: no pause, no failures counted; True if it was paused."""
    paused = WebhookBreaker.objects.filter(user_id=user_id, paused_at__isnull=False).exists()
    WebhookBreaker.objects.filter(user_id=user_id).delete()
    return paused


def resume_on_save(sender, instance, created: bool, update_fields=None, **kwargs) -> None:
    """A post_save receiver for the user model: saving the webhook URL, by
    any door (the settings page, the API, the admin's whole-form save), is
    the owner's word that the hook works again, so every door un-pauses
    alike without each knowing of the breaker."""
    if created or (update_fields is not None and "webhook_url" not in update_fields):
        return
    resume(instance.pk)


# --- the sweep --------------------------------------------------------------------


def sweep() -> list[int]:
    """Ids to (re)queue: pending rows that are due (never queued: the broker
    was down), and rows whose worker died (claimed longer ago than the
    lease).  Fresh rows (younger than NOTIFICATIONS_SWEEP_GRACE) are left to
    their own task.  The task's claim keeps a row queued twice from being
    POSTed twice."""
    now = timezone.now()
    lease = now - timedelta(seconds=settings.NOTIFICATIONS_CLAIM_LEASE)
    stale = Notification.objects.filter(webhook_status=Hook.SENDING, webhook_claimed_at__lt=lease)
    stale.filter(webhook_attempts__gte=MAX_CLAIMS).update(
        webhook_status=Hook.FAILED, webhook_error="its worker died with it each time"
    )
    stale.update(webhook_status=Hook.PENDING)
    grace = now - timedelta(seconds=settings.NOTIFICATIONS_SWEEP_GRACE)
    rows = Notification.objects.filter(webhook_status=Hook.PENDING, created_at__lte=grace)
    return list(rows.order_by("id").values_list("id", flat=True)[:1000])
