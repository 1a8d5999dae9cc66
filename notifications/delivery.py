"""Delivering outbox rows: claim, render, send, record.  Called by the Celery
tasks; safe to call twice for the same row (the claim lets one through).

A failure is one of two kinds.  A transient one (the SMTP server refuses
for now or cannot be reached, the network or the database connection drops:
an OSError, which smtplib's errors are, or a lost database connection) is
retried with backoff up to NOTIFICATIONS_MAX_ATTEMPTS, logged as a warning.
Anything else is a bug (a template that does not render, a KeyError in the
code that builds the mail): trying again cannot cure it, so it is logged with
its traceback, counted (correo_notification_failures_total{cause="bug"}),
and the row is failed at once with needs_attention set, for an operator.

Once the SMTP server has accepted a mail, recording it as sent is retried
with backoff across a dropped database connection (for up to
NOTIFICATIONS_MARK_RETRY_SECONDS, well inside the claim's lease), so a
connection lost at that moment does not send the mail again.  A worker that
dies between the accept and the record, or a database away for longer than
that, leaves the row claimed: after the lease it is sent again, rendered from
the same row, with the same Message-ID.
"""

from __future__ import annotations

import logging
import time
import traceback
from datetime import timedelta

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.models import Game
from notifications import pacing, render
from notifications.metrics import NOTIFICATION_FAILURES
from notifications.models import Notification
from ops.logging import game_id_var

log = logging.getLogger(__name__)


def claim(notification_id: int) -> Notification | None:
    """pending -> sending in one conditional UPDATE: only one worker wins."""
    now = timezone.now()
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    won = (
        Notification.objects.filter(due, pk=notification_id, status=Notification.Status.PENDING)
        .update(status=Notification.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    )  # fmt: skip
    if not won:
        return None
    return Notification.objects.select_related("user", "game").get(pk=notification_id)


def obsolete(n: Notification) -> bool:
    """A "your turn" that the player has already answered (through another
    door), or a seat's mail to a player who no longer holds the seat."""
    if not render.holds_seat(n):
        return True
    if n.kind != Notification.Kind.YOUR_TURN or n.game is None:
        return False
    game: Game = n.game
    return game.seq != n.seq and (game.status != Game.Status.ACTIVE or n.seat not in game.to_act)


# What may go away by itself: the mail server or the network (smtplib's
# errors are OSErrors), or the database connection while the mail is built.
TRANSIENT = (OSError, OperationalError, InterfaceError)


def deliver(notification_id: int) -> str:
    """Send one notification's mail; returns what happened.  Its webhook is
    a task of its own on another queue (notifications.webhooks), so that a
    slow hook never holds a mail."""
    n = claim(notification_id)
    if n is None:
        return "not-due"
    game_id_var.set(n.game_id)  # the task's log lines name the game
    try:
        paced = None if obsolete(n) else pacing.pace(n, timezone.now())
        if paced is not None and paced.act == "hold":
            _hold(n, paced)
            return "held"
        if paced is not None and paced.act == "skip":
            _finish(n, Notification.Status.SKIPPED, last_error=f"coalesced: {paced.why}")
            return "coalesced"
        sent = _send_unless_obsolete(n)
    except TRANSIENT as error:
        return _failed(n, error)
    except Exception as error:
        return _broken(n, error)
    if not sent:
        _finish(n, Notification.Status.SKIPPED)
        return "skipped"
    _finish(n, Notification.Status.SENT, sent_at=timezone.now())
    return "sent"


def _send_unless_obsolete(n: Notification) -> bool:
    """Render and send the row's mail; False, sending nothing, when the turn
    it announces is already played."""
    if obsolete(n):
        return False
    if n.context.get("held"):
        _to_the_head(n)
    render.build_message(n).send(fail_silently=False)
    return True


def _hold(n: Notification, paced) -> None:
    """Back to pending until `paced.until` (notifications.pacing); the claim's
    attempt is given back: holding is no failure."""
    persist(
        n, status=Notification.Status.PENDING, next_attempt_at=paced.until,
        attempts=max(0, n.attempts - 1), context={**n.context, "held": paced.why},
    )  # fmt: skip


def _to_the_head(n: Notification) -> None:
    """A held turn mail goes out telling the game as it stands now (the seat
    is still to act, or it would be obsolete), so one mail says everything
    since the last.  The new seq is recorded before the mail is rendered:
    a second delivery after a crash renders the same message."""
    game = n.game
    if game is not None and game.seq > (n.seq or 0):
        n.seq = game.seq
        persist(n, seq=game.seq)


def _finish(n: Notification, status: str, **fields) -> None:
    persist(n, status=status, **{"last_error": "", **fields})


def persist(n: Notification, **fields) -> None:
    """Write what became of a claimed row, reconnecting with backoff while the
    database connection is lost: the mail may already be out, and a row left
    claimed is sent again after the lease."""
    deadline = time.monotonic() + settings.NOTIFICATIONS_MARK_RETRY_SECONDS
    delay = 0.05
    what = fields.get("status") or f"webhook {fields.get('webhook_status')}"
    while True:
        try:
            Notification.objects.filter(pk=n.pk).update(**fields)
            return
        except (OperationalError, InterfaceError) as error:
            if connection.in_atomic_block or time.monotonic() + delay > deadline:
                log.error("notification %s: could not record %s, giving up: %s",
                          n.pk, what, error)  # fmt: skip
                raise
            log.warning("notification %s: could not record %s, retrying in %.2fs: %s",
                        n.pk, what, delay, error)  # fmt: skip
        connection.close()  # a broken connection is never reused: the next query reconnects
        time.sleep(delay)
        delay = min(delay * 2, 5.0)


def _failed(n: Notification, error: Exception) -> str:
    """A transient failure: try again later, up to NOTIFICATIONS_MAX_ATTEMPTS."""
    log.warning("delivery of notification %s failed: %s", n.pk, error)
    NOTIFICATION_FAILURES.labels("transient", n.kind).inc()
    if n.attempts >= settings.NOTIFICATIONS_MAX_ATTEMPTS:
        status, when = Notification.Status.FAILED, None
    else:
        status = Notification.Status.PENDING
        delay = settings.NOTIFICATIONS_RETRY_BASE * 2**n.attempts
        when = timezone.now() + timedelta(seconds=delay)
    persist(
        n, status=status, next_attempt_at=when,
        last_error=f"{type(error).__name__}: {error}"[:2000],
    )  # fmt: skip
    return "failed" if status == Notification.Status.FAILED else "retry"


def _broken(n: Notification, error: Exception) -> str:
    """A bug: the same row would fail the same way every time, so it is not
    tried again but flagged, with the traceback, for an operator."""
    log.error("delivery of notification %s stopped by a bug, not retried: %r", n.pk, error,
              exc_info=error)  # fmt: skip
    NOTIFICATION_FAILURES.labels("bug", n.kind).inc()
    trace = "".join(traceback.format_exception(error))
    persist(
        n, status=Notification.Status.FAILED, needs_attention=True, next_attempt_at=None,
        last_error=f"{type(error).__name__}: {error}"[:2000] + "\n\n" + trace[-8000:],
    )  # fmt: skip
    return "bug"


def send_again(ids) -> int:
    """Pending again, with fresh attempts and no flag: the operator's answer
    to a row that failed, once its cause is fixed.  The outbox sweep (every
    minute) queues them; returns how many were reset."""
    return Notification.objects.filter(pk__in=ids, status=Notification.Status.FAILED).update(
        status=Notification.Status.PENDING, attempts=0, next_attempt_at=None,
        needs_attention=False, last_error="",
    )  # fmt: skip


def sweep() -> list[int]:
    """Ids to (re)queue: pending rows that are due, and rows whose worker died.

    A row stays `sending` when a worker is killed between claim and record;
    after NOTIFICATIONS_CLAIM_LEASE seconds it is pending again.  Fresh pending
    rows (younger than NOTIFICATIONS_SWEEP_GRACE) are left to their own task.
    """
    now = timezone.now()
    lease = now - timedelta(seconds=settings.NOTIFICATIONS_CLAIM_LEASE)
    Notification.objects.filter(status=Notification.Status.SENDING, claimed_at__lt=lease).update(
        status=Notification.Status.PENDING
    )
    grace = now - timedelta(seconds=settings.NOTIFICATIONS_SWEEP_GRACE)
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    pending = Notification.objects.filter(status=Notification.Status.PENDING)
    rows = pending.filter(due, created_at__lte=grace)
    return list(rows.order_by("id").values_list("id", flat=True)[:1000])


def collect_digests() -> list[int]:
    """Fold every user's held notifications into one digest row each."""
    created = []
    users = (
        Notification.objects.filter(status=Notification.Status.HELD)
        .values_list("user_id", flat=True)
        .distinct()
    )
    for user_id in list(users):
        with transaction.atomic():
            held = list(
                Notification.objects.select_for_update()
                .filter(user_id=user_id, status=Notification.Status.HELD)
                .order_by("id")
            )
            if not held:
                continue
            user = held[0].user
            digest, _ = Notification.objects.get_or_create(
                key=f"digest:{user_id}:{held[-1].pk}",
                defaults={
                    "kind": Notification.Kind.DIGEST,
                    "user": user,
                    "to_email": user.email,
                    "context": {"items": [row.pk for row in held]},
                },
            )
            Notification.objects.filter(pk__in=[row.pk for row in held]).update(
                status=Notification.Status.DIGESTED
            )
        created.append(digest.pk)
    return created
