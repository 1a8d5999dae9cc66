"""The outbox: Notification rows written together with the event that
causes them, handed on to the workers once that event is durable.

`rows_for_event` is registered with games.hooks.on_rows (see apps.py): the
game service writes the rows it returns in the same statement or
transaction as the event.  Other apps (clocks) call `notify()` for anything
that is not an event of its own, such as a reminder; called inside their
transaction it commits or rolls back with it.  Each row written is handed to
the delivery's queueing (notifications.tasks, which apps.py sets with
`deliver_with`), which hands it on once it is durable: a push for a
worker to publish (notifications.handoff), or a Celery publish where
there is no Redis.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from typing import Any

from django.utils import timezone

from games import hooks
from games.models import Event, Game, Seat
from games.selectors import viewers
from games.stream import replay, store
from notifications.models import Notification

log = logging.getLogger(__name__)

# What is told of each row once it is written: the delivery's queueing
# (notifications.tasks.queue_after_commit, set when the app is ready), so the
# outbox knows nothing of Celery.
_delivery: list = []


def deliver_with(queue_after_commit) -> None:
    _delivery[:] = [queue_after_commit]


def _written(row: Notification) -> None:
    for queue in _delivery:
        queue(row)


# Django rebuilds a choices enum's `values` list at every read; a turn's
# row is built on most moves.
KINDS = frozenset(Notification.Kind.values)

# Kinds that follow the player's preference (every turn / daily digest / off).
GAME_KINDS = {
    Notification.Kind.YOUR_TURN,
    Notification.Kind.GAME_OVER,
    Notification.Kind.UNDONE,
    Notification.Kind.REMINDER,
    Notification.Kind.TAKEBACK,
    Notification.Kind.CLOCK,
    Notification.Kind.JOINED,
    Notification.Kind.ORDER_DROPPED,
}


def notify(*args, **options) -> Notification | None:
    """Write the notification `build(*args, **options)` makes for a user (at
    most one per game, seq, kind and user).

    For clocks: `notify(user, game, "reminder", game.seq, {"due": iso_datetime})`
    inside the transaction that decides the reminder.  Returns the row (the
    existing one if it was already written), or None when the user wants no
    mail and has no webhook.  Delivery is queued when the transaction commits.
    """
    row = build(*args, **options)
    if row is None:
        return None
    if not store.write_new(hooks.Row(row, unique="key", written=_written)):
        return Notification.objects.filter(key=row.key).first()
    return row


# At most one reset mail per account in each window of this many seconds:
# the reset form answers anyone, so it must not become a way to flood
# someone's inbox.
PASSWORD_RESET_EVERY = 15 * 60


def notify_password_reset(user) -> Notification | None:
    """Queue the mail that lets `user` choose a new password (whatever their
    notify_mode: it is not a game notification).  Asked again in the same
    window of PASSWORD_RESET_EVERY seconds, it returns the window's row and
    queues nothing new."""
    window = int(timezone.now().timestamp()) // PASSWORD_RESET_EVERY
    key = f"password_reset:{user.pk}:{window}"
    return notify(user, None, Notification.Kind.PASSWORD_RESET, None, key=key)


def password_changed(sender, user, **kwargs) -> None:
    """accounts.signals.password_changed receiver."""
    if user.email:
        notify_password_changed(user)


def email_changed(sender, user, old_address: str, **kwargs) -> None:
    """accounts.signals.email_changed receiver: the OLD address hears of it."""
    if old_address:
        notify_email_changed(user, old_address)


def email_to_verify(sender, user, **kwargs) -> None:
    """accounts.signals.email_to_verify receiver."""
    notify_verify_email(user)


def notify_verify_email(user) -> Notification | None:
    """The link that confirms the account's address, to that address
    (whatever the account's mail preference: it is about the account).  At
    most one per account and address in each PASSWORD_RESET_EVERY window,
    so that asking again is no way to flood an inbox."""
    window = int(timezone.now().timestamp()) // PASSWORD_RESET_EVERY
    address = hashlib.sha256(user.email.lower().encode()).hexdigest()[:24]
    key = f"verify_email:{user.pk}:{address}:{window}"
    return notify(user, None, Notification.Kind.VERIFY_EMAIL, None, key=key)


def notify_password_changed(user) -> Notification | None:
    """Tell the account holder their password changed (and their API tokens
    ended); one mail per change."""
    key = f"password_changed:{user.pk}:{uuid.uuid4().hex}"
    return notify(user, None, Notification.Kind.PASSWORD_CHANGED, None, key=key)


def notify_email_changed(user, old_address: str) -> Notification | None:
    """Tell the OLD address that the account's address changed: the new one
    may be a thief's.  At most one such mail to one address about one
    account in each PASSWORD_RESET_EVERY window, so that moving the address
    back and forth is no way to flood someone's inbox (the first mail
    already told them)."""
    window = int(timezone.now().timestamp()) // PASSWORD_RESET_EVERY
    address = hashlib.sha256(old_address.lower().encode()).hexdigest()[:24]
    key = f"email_changed:{user.pk}:{address}:{window}"
    context = {"new_email": masked(user.email)}
    return notify(user, None, Notification.Kind.EMAIL_CHANGED, None, context,
                  key=key, to_email=old_address)  # fmt: skip


def masked(address: str) -> str:
    """An address as a notice shows it: enough for its owner to know it,
    not enough to copy it from a mail that reached the wrong hands."""
    local, _, domain = address.rpartition("@")
    if not local:
        return "…"
    return f"{local[0]}…@{domain}"


def build(
    user,
    game: Game | None,
    kind: str,
    seq: int | None,
    context: dict[str, Any] | None = None,
    *,
    seat: int | None = None,
    key: str | None = None,
    to_email: str | None = None,
) -> Notification | None:
    """The unsaved row `notify` writes, or None when the user wants no mail
    and has no webhook.  It goes to the user's address unless `to_email`
    says otherwise (an address change is told to the old one)."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    if getattr(user, "bot", ""):
        return None  # a bot reads no mail (accounts.bots)
    if key is None:
        key = f"{game.pk if game else '-'}:{seq if seq is not None else '-'}:{kind}:{user.pk}"
    if seat is None and game is not None:
        seat = (
            Seat.objects.filter(game=game, user=user)
            .exclude(status=Seat.Status.REPLACED)
            .values_list("index", flat=True)
            .first()
        )
    status = _initial_status(user, kind)
    if status is None:
        return None
    hook = Notification.Webhook.PENDING if kind in GAME_KINDS and user.webhook_url else ""
    return Notification(
        key=key, kind=kind, user=user, to_email=to_email or user.email, game=game, seq=seq,
        seat=seat, context=context or {}, status=status, webhook_status=hook,
    )  # fmt: skip


def _initial_status(user, kind: str) -> str | None:
    if kind not in GAME_KINDS:
        return Notification.Status.PENDING
    mode = getattr(user, "notify_mode", "every_turn")
    # Game mail goes only to an address known to reach the player
    # (accounts.verification); the webhook is the player's own choice.
    mailable = bool(user.email) and getattr(user, "email_verified", True)
    wants_mail = mode == "every_turn" and mailable
    if wants_mail:
        return Notification.Status.PENDING
    if mode == "daily_digest" and mailable:
        return Notification.Status.HELD
    if user.webhook_url:
        return Notification.Status.SKIPPED  # no mail, but the webhook still fires
    return None


# What a table tells its players (games.services.tables, .invitations) and
# a tournament its players (tournaments.services, a round's table): not a
# game's events, so no digest holds them (an invitation waits for no
# morning); a player who turned mail off gets none.
TABLE_KINDS = {
    Notification.Kind.INVITATION,
    Notification.Kind.TABLE_STARTED,
    Notification.Kind.TABLE_EXPIRED,
    Notification.Kind.ROUND_READY,
}


def on_table_notice(notice: hooks.Notice) -> Notification | None:
    """The games.hooks.on_table_notice listener: the notice's row, written in
    the act's transaction, to the account's address or (an invitation to
    someone without an account) to the address the host gave."""
    if notice.kind not in TABLE_KINDS:
        raise ValueError(f"unknown table notice {notice.kind!r}")
    user = notice.user
    if user is not None:
        if getattr(user, "bot", "") or not wants_table_mail(user):
            return None
        to_email = user.email
    else:
        to_email = notice.email
    if not to_email:
        return None
    row = Notification(
        key=notice.key, kind=notice.kind, user=user, to_email=to_email,
        context=notice.context or {}, status=Notification.Status.PENDING,
    )  # fmt: skip
    if not store.write_new(hooks.Row(row, unique="key", written=_written)):
        return Notification.objects.filter(key=row.key).first()
    return row


def on_order_note(note: hooks.OrderNote) -> Notification | None:
    """The games.hooks.on_order_note listener: the owner of a standing order
    dropped or lapsed hears of it (as a game's mail, by their notify_mode),
    and nobody else does: the order was theirs alone."""
    from accounts.models import User

    owner = User.objects.filter(pk=note.owner_id, is_active=True).first()
    if owner is None:
        return None
    context = {"order": note.number, "says": note.says, "reason": note.reason,
               "lapsed": note.kind == "lapsed"}  # fmt: skip
    key = f"order:{note.game.pk}:{note.seat}:{note.number}:{note.kind}:{note.game.seq}"
    return notify(owner, note.game, Notification.Kind.ORDER_DROPPED, note.game.seq, context,
                  seat=note.seat, key=key)  # fmt: skip


def wants_table_mail(user) -> bool:
    """A table's mail goes to a verified address of a player who wants mail."""
    return (
        bool(user.email)
        and getattr(user, "email_verified", True)
        and getattr(user, "notify_mode", "every_turn") != "off"
    )


def password_reset_for(email: str) -> int:
    """Queue the reset mail to each account `email` may reset (Django's
    rule: active, with a usable password, the same address in any letter
    case); returns how many."""
    from django.contrib.auth.forms import PasswordResetForm

    users = list(PasswordResetForm().get_users(email))
    for user in users:
        notify_password_reset(user)
    return len(users)


def rows_for_event(game: Game, event: Event, before: list[int]) -> list[hooks.Row]:
    """The hooks.on_rows listener: the notifications this event causes, to
    be written with it and queued once it is durable."""
    return [
        hooks.Row(row, unique="key", written=_written)
        for row in _notifications(game, event, before)
        if row is not None
    ]


def _notifications(game: Game, event: Event, before: list[int]) -> list[Notification | None]:
    """Who must hear of this event (None where a user wants no notice)."""
    if event.kind in replay.TALK_KINDS:
        # Talk is read at the table and in the next mail about the game; a
        # player who takes the daily digest finds it there too.
        return _hold_talk_for_digests(game, event)
    if event.kind == Event.Kind.UNDO:
        # The undo mail also says whose turn it is now.
        return _to_everyone(game, event, Notification.Kind.UNDONE, _undo_context(event))
    rows = []
    if event.kind == Event.Kind.NOTE:
        return []  # a pinned note is read on the game's page and in its log
    if game.status != Game.Status.ACTIVE and event.kind != Event.Kind.CREATED:
        rows += _to_everyone(game, event, Notification.Kind.GAME_OVER, {"status": game.status})
    elif event.kind == Event.Kind.SEAT_REPLACED:
        rows += _tell_joined(game, event)
    elif event.kind == Event.Kind.TAKEBACK_REQUEST:
        rows += _tell_takeback(game, event)
    elif event.kind == Event.Kind.CLOCK:
        rows += _tell_clock(game, event, _seats(game))
    return rows + _tell_turns(game, event, before)


def _hold_talk_for_digests(game: Game, event: Event) -> list[Notification | None]:
    """A held row for each player on the daily digest who may read the
    message (not its sender): the digest then tells the game, and its
    "since" lines the message."""
    from games.selectors import talk

    rows: list[Notification | None] = []
    for seat in _seats(game):
        user = seat.user
        if getattr(user, "notify_mode", "") != "daily_digest" or not user.email:
            continue
        if user.pk == event.actor_id or getattr(user, "bot", ""):
            continue
        reader = talk.reader_of_seat(game, seat.index, user.pk, event.seq)
        if talk.item(event, reader) is None or not reader.reads(event):
            continue
        rows.append(Notification(
            key=f"{game.pk}:{event.seq}:talk:{user.pk}", kind=Notification.Kind.TALK, user=user,
            to_email=user.email, game=game, seq=event.seq, seat=seat.index,
            status=Notification.Status.HELD,
        ))  # fmt: skip
    return rows


def _to_everyone(game: Game, event: Event, kind: str, context: dict) -> list[Notification | None]:
    return [
        build(seat.user, game, kind, event.seq, context, seat=seat.index) for seat in _seats(game)
    ]


def _seats(game: Game, indexes=None) -> list[viewers.Player]:
    return viewers.players_of(game, indexes)


def _tell_turns(game: Game, event: Event, before: list[int]) -> list[Notification | None]:
    """A seat hears "your turn" when it comes to act, once: not again while it
    stays to act (a simultaneous step, or several actions in one turn)."""
    if game.status != Game.Status.ACTIVE:
        return []
    came = set(game.to_act or []) - set(before)
    if not came:
        return []  # a step in progress: no seat needs reading
    return [
        build(seat.user, game, Notification.Kind.YOUR_TURN, event.seq, seat=seat.index)
        for seat in _seats(game, came)
        if seat.status == Seat.Status.ACTIVE
    ]


def _tell_takeback(game: Game, event: Event) -> list[Notification | None]:
    seats = _seats(game)
    asker = next((s.user.username for s in seats if s.index == event.seat), "")
    return [
        build(
            seat.user,
            game,
            Notification.Kind.TAKEBACK,
            event.seq,
            {"by": asker, "move_seq": event.payload.get("move_seq")},
            seat=seat.index,
        )
        for seat in seats
        if seat.index != event.seat and seat.status == Seat.Status.ACTIVE
    ]


def _tell_clock(game: Game, event: Event, seats) -> list[Notification | None]:
    """Everyone but the actor hears of a change to the clocks (a player's
    vacation is the notice to the others that the DESIGN asks for)."""
    about = next((s.user.username for s in seats if s.index == event.payload.get("seat")), None)
    context = {
        "clock": event.payload.get("clock"),
        "reason": event.payload.get("reason", ""),
        "until": event.payload.get("until"),
        "seconds": event.payload.get("seconds"),
        "about": about,
    }
    return [
        build(seat.user, game, Notification.Kind.CLOCK, event.seq, context, seat=seat.index)
        for seat in seats
        if seat.user.pk != event.actor_id and seat.status == Seat.Status.ACTIVE
    ]


def _tell_joined(game: Game, event: Event) -> list[Notification | None]:
    """The player who took a seat over hears so, with the game as the seat sees it."""
    from accounts.models import User

    user = User.objects.get(pk=event.payload["user"])
    context = {"reason": event.payload.get("reason", ""), "previous": event.payload.get(
        "previous_username")}  # fmt: skip
    seat = event.payload["seat"]
    return [build(user, game, Notification.Kind.JOINED, event.seq, context, seat=seat)]


def _undo_context(event: Event) -> dict[str, Any]:
    return {
        "to_seq": event.payload.get("to_seq"),
        "reason": event.payload.get("reason", ""),
        "by_moderator": event.source == Event.Source.MODERATOR,
    }


def on_reminder(game: Game, seat: Seat, offset: int) -> None:
    """The clocks' reminder hook (games.hooks.on_reminder, when present): one
    reminder mail per seat, seq and offset, in the sweep's transaction."""
    deadline = getattr(seat, "deadline", None) or game.deadline
    due = deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else ""
    notify(
        seat.user, game, Notification.Kind.REMINDER, game.seq,
        {"due": due, "offset_seconds": offset}, seat=seat.index,
        key=f"{game.pk}:{game.seq}:reminder-{offset}:{seat.user_id}",
    )  # fmt: skip
