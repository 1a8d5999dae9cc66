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

import ipaddress
import json
import logging
import socket
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from config.logging import game_id_var
from config.metrics import NOTIFICATION_FAILURES
from games.models import Game
from notifications import render
from notifications.models import Notification
from notifications.outbox import GAME_KINDS

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
    """Send one notification's mail (and webhook); returns what happened."""
    n = claim(notification_id)
    if n is None:
        return "not-due"
    game_id_var.set(n.game_id)  # the task's log lines name the game
    try:
        sent = _send_unless_obsolete(n)
    except TRANSIENT as error:
        return _failed(n, error)
    except Exception as error:
        return _broken(n, error)
    if not sent:
        _finish(n, Notification.Status.SKIPPED)
        return "skipped"
    _finish(n, Notification.Status.SENT, sent_at=timezone.now())
    if n.kind in GAME_KINDS and n.user_id and n.user.webhook_url and not n.webhook_sent_at:
        post_webhook(n)
    return "sent"


def _send_unless_obsolete(n: Notification) -> bool:
    """Render and send the row's mail; False, sending nothing, when the turn
    it announces is already played."""
    if obsolete(n):
        return False
    render.build_message(n).send(fail_silently=False)
    return True


def _finish(n: Notification, status: str, **fields) -> None:
    _persist(n, status=status, last_error="", **fields)


def _persist(n: Notification, **fields) -> None:
    """Write what became of a claimed row, reconnecting with backoff while the
    database connection is lost: the mail may already be out, and a row left
    claimed is sent again after the lease."""
    deadline = time.monotonic() + settings.NOTIFICATIONS_MARK_RETRY_SECONDS
    delay = 0.05
    while True:
        try:
            Notification.objects.filter(pk=n.pk).update(**fields)
            return
        except (OperationalError, InterfaceError) as error:
            if connection.in_atomic_block or time.monotonic() + delay > deadline:
                log.error("notification %s: could not record %s, giving up: %s",
                          n.pk, fields.get("status"), error)  # fmt: skip
                raise
            log.warning("notification %s: could not record %s, retrying in %.2fs: %s",
                        n.pk, fields.get("status"), delay, error)  # fmt: skip
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
    _persist(
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
    _persist(
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


def webhook_payload(n: Notification) -> dict:
    payload = {
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
        payload.update(
            title=facts["title"],
            your_turn=facts["your_turn"],
            moves=[move["line"] for move in facts["moves"]],
            head_hash=facts["head_hash"],
            text=f"[Correo] {facts['title']} #{n.game_id}: {n.get_kind_display()}",
        )
    return payload


def webhook_allowed(url: str) -> bool:
    """Only http(s) to public addresses: a webhook must not reach into our network."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    if settings.NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE:
        return True
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    addresses = {ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos}
    return bool(addresses) and all(address.is_global for address in addresses)


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook's redirect is an error, never followed.

    `webhook_allowed` checks the address the user gave; a redirect would
    send the request on to an address nobody checked (a public host that
    answers 302 to 127.0.0.1 or 169.254.169.254).  Checking each hop instead
    would buy nothing: urllib turns a redirected POST (301, 302, 303) into a
    GET without the body, as browsers do, and refuses to repeat a POST on
    307 and 308, so a redirect never delivered a webhook, it only marked one
    sent.  Refused, the notification is logged as failed with the target,
    and the user can give the final URL.
    """

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise urllib.error.HTTPError(
            req.full_url, code, f"redirect to {newurl} not followed", headers, fp
        )


_webhook_opener = urllib.request.build_opener(_RefuseRedirects)


def post_webhook(n: Notification) -> bool:
    """POST the notification as JSON to the user's webhook URL; best effort,
    once, to that URL only (no redirects)."""
    url = n.user.webhook_url
    if not webhook_allowed(url):
        log.warning("webhook for notification %s refused: %s is not public", n.pk, url)
        return False
    body = json.dumps(webhook_payload(n)).encode()
    request = urllib.request.Request(
        url, data=body, method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "Correo"},
    )  # fmt: skip
    try:
        with _webhook_opener.open(request, timeout=settings.NOTIFICATIONS_WEBHOOK_TIMEOUT):
            pass
    except Exception as error:
        log.warning("webhook for notification %s failed: %s", n.pk, error)
        return False
    Notification.objects.filter(pk=n.pk).update(webhook_sent_at=timezone.now())
    return True


def deliver_webhook(notification_id: int) -> str:
    n = Notification.objects.select_related("user", "game").filter(pk=notification_id).first()
    if n is None or not n.user_id or not n.user.webhook_url or n.webhook_sent_at:
        return "nothing"
    return "sent" if post_webhook(n) else "failed"


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
