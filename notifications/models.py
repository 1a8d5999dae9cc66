"""The outbox (Notification) and the ledger of inbound mail (InboundMessage)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """One message to one person, written in the transaction of what caused it.

    `key` makes writing idempotent: for game events it is
    `game:seq:kind:user`, so there is at most one row per (game, seq, kind, user).
    Delivery claims the row (pending -> sending) with a conditional UPDATE; the
    Message-ID is derived from the row, so a re-delivery is the same message.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn"
        GAME_OVER = "game_over"
        UNDONE = "undone"
        REMINDER = "reminder"
        TAKEBACK = "takeback"  # another player asks to take back a move
        CLOCK = "clock"  # a vacation, a pause, an extension or an outage repair
        REPLY = "reply"
        REJECTION = "rejection"
        DIGEST = "digest"
        PASSWORD_RESET = "password_reset"  # the link is made when the mail is built
        JOINED = "joined"  # a moderator gave the player a seat
        WEBHOOK_PAUSED = "webhook_paused"  # the owner of a hook the breaker paused
        PASSWORD_CHANGED = "password_changed"  # to the account holder
        EMAIL_CHANGED = "email_changed"  # to the OLD address
        INVITATION = "invitation"  # a host asks an account or an address to a table
        TABLE_STARTED = "table_started"  # the table is full (or started): the game starts
        TABLE_EXPIRED = "table_expired"  # nobody joined a waiting table in time
        VERIFY_EMAIL = "verify_email"  # the link that confirms the account's address
        TALK = "talk"  # a message at the table: held for the daily digest, never mailed alone
        ORDER_DROPPED = "order_dropped"  # a standing order dropped or lapsed: to its owner
        ROUND_READY = "round_ready"  # a tournament round's table is ready: to each player

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        HELD = "held"  # waiting for the daily digest
        DIGESTED = "digested"  # went out inside a digest
        SKIPPED = "skipped"  # obsolete or unwanted by the time it was due
        FAILED = "failed"  # gave up: NOTIFICATIONS_MAX_ATTEMPTS, or a bug (needs_attention)

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    to_email = models.CharField(max_length=320)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seq = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    context = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Webhook(models.TextChoices):
        NONE = "", "no webhook"
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        SKIPPED = "skipped"  # the hook was paused or removed, or the turn already played
        FAILED = "failed"  # one try, and it failed (or a worker died with it twice)

    # The webhook's own delivery, beside the mail's: claimed with a
    # conditional UPDATE as the mail is, so that it is POSTed once.
    webhook_status = models.CharField(
        max_length=16, choices=Webhook.choices, default=Webhook.NONE, blank=True
    )
    webhook_claimed_at = models.DateTimeField(null=True, blank=True)
    webhook_attempts = models.PositiveSmallIntegerField(default=0)
    webhook_sent_at = models.DateTimeField(null=True, blank=True)
    webhook_error = models.CharField(max_length=500, blank=True)
    last_error = models.TextField(blank=True)
    # A failure that trying again cannot cure (a template that does not
    # render, a bug in the code that builds or sends the mail) stops delivery
    # at once; the row waits here, with the traceback in last_error, for an
    # operator to fix the cause and send it again (the admin's action).
    needs_attention = models.BooleanField(
        default=False, help_text="delivery stopped on a bug: fix it, then send again"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["to_email", "kind", "created_at"], name="notif_rate_idx"),
            # Few rows are ever flagged: a partial index finds them for the admin.
            models.Index(
                fields=["id"], condition=models.Q(needs_attention=True), name="notif_attention_idx"
            ),
            # The webhook sweep looks only at the few rows not yet done with.
            models.Index(
                fields=["id"],
                condition=models.Q(webhook_status__in=["pending", "sending"]),
                name="notif_webhook_due_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to_email} ({self.status})"

    @property
    def message_id(self) -> str:
        return f"<correo.{self.pk}.{self.kind}@{settings.REPLY_DOMAIN}>"


class WebhookBreaker(models.Model):
    """A user's webhook's run of failures: after CORREO_WEBHOOK_FAILURES_TO_PAUSE
    in a row it is paused (nothing is POSTed) until its owner saves the URL
    again or resumes it.  A row exists once the hook has failed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE,
        related_name="webhook_breaker",
    )  # fmt: skip
    failures = models.PositiveIntegerField(default=0, help_text="failures in a row")
    last_error = models.CharField(max_length=500, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_url = models.CharField(max_length=500, blank=True)

    def __str__(self) -> str:
        state = f"paused since {self.paused_at:%Y-%m-%d %H:%M}" if self.paused_at else "running"
        return f"webhook of {self.user_id}: {state}, {self.failures} failure(s) in a row"


class InboundMessage(models.Model):
    """Each inbound Message-ID once: the row is written with the outcome, in
    the transaction of what the mail did, so a mail is either recorded with all
    its effects or not at all (and its sender's retry starts afresh)."""

    class Status(models.TextChoices):
        APPLIED = "applied"  # at least one command was carried out
        ANSWERED = "answered"  # authenticated, nothing changed (help, errors)
        REJECTED = "rejected"  # failed authentication, unreadable, or could not be processed

    message_id = models.CharField(max_length=255, unique=True)
    door = models.CharField(max_length=16)
    sender = models.CharField(max_length=320, blank=True)
    subject = models.CharField(max_length=255, blank=True)
    size = models.PositiveIntegerField(default=0)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(max_length=16, choices=Status.choices)
    reason = models.CharField(max_length=64, blank=True)
    detail = models.TextField(blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender} ({self.status})"
