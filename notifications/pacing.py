"""When a "your turn" mail goes: not while its reader is at the game's page,
and not hard on the heels of the last mail about that game.

Presence: the game page, its polls and its push stream (web.views) note
that a player is at a game (`seen`), in the cache, for
CORREO_PRESENCE_SECONDS.  While that
note stands, a "your turn" for that game is held; if the player moves, the
mail is obsolete and skipped (notifications.delivery); if they leave
without moving, it goes once the note has run out, a grace of that length
after their last poll.

Coalescing: a "your turn" that comes within CORREO_COALESCE_SECONDS of the
last mail sent to that player about that game is held until the window
ends, and one held behind a newer "your turn" for the same game is skipped:
the newest one is sent, rendered at the game's head, and its "since your
last turn" tells everything since the last mail (notifications.render).

A player who wants every mail at once says so (`User.every_mail`).  Held
rows stay `pending` with a later `next_attempt_at`; the outbox sweep queues
them when due.  Nothing here is needed to play: without the cache (Redis
down) nobody counts as present and the mail simply goes.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from notifications.models import Notification

# The kinds paced: the turn mails that come one per bid in a busy auction.
PACED = frozenset({Notification.Kind.YOUR_TURN})
# The mails that count as "the last mail about that game".
TOLD = (Notification.Status.SENT, Notification.Status.SENDING)


def _key(game_id: int, user_id: int) -> str:
    return f"correo:presence:{game_id}:{user_id}"


def seen(game_id: int, user_id: int, at: datetime.datetime | None = None) -> None:
    """`user_id` is at game `game_id`'s page now (a page view or a poll)."""
    window = settings.CORREO_PRESENCE_SECONDS
    if window <= 0:
        return
    at = at or timezone.now()
    cache.set(_key(game_id, user_id), at.timestamp(), timeout=window)


def last_seen(game_id: int, user_id: int) -> datetime.datetime | None:
    stamp = cache.get(_key(game_id, user_id))
    if stamp is None:
        return None
    return datetime.datetime.fromtimestamp(stamp, tz=datetime.UTC)


@dataclass(frozen=True)
class Pace:
    """What to do with a row now: send it, skip it (a newer one says it all),
    or hold it until `until`."""

    act: str  # "send", "skip", "hold"
    until: datetime.datetime | None = None
    why: str = ""


SEND = Pace("send")


def pace(n: Notification, now: datetime.datetime) -> Pace:
    """The decision for a claimed row (the delivery's first question)."""
    if n.kind not in PACED or n.game_id is None or n.user_id is None:
        return SEND
    if getattr(n.user, "every_mail", False):
        return SEND
    newer = Notification.objects.filter(
        game_id=n.game_id, user_id=n.user_id, kind__in=PACED, pk__gt=n.pk,
        status=Notification.Status.PENDING,
    )  # fmt: skip
    if newer.exists():
        return Pace("skip", why="a newer mail about this game tells it all")
    presence = settings.CORREO_PRESENCE_SECONDS
    if presence > 0:
        at = last_seen(n.game_id, n.user_id)
        if at is not None and now - at < datetime.timedelta(seconds=presence):
            return Pace("hold", at + datetime.timedelta(seconds=presence), "at the game's page")
    window = settings.CORREO_COALESCE_SECONDS
    if window > 0:
        last = (
            Notification.objects.filter(
                game_id=n.game_id, user_id=n.user_id, status__in=TOLD, sent_at__isnull=False
            )
            .exclude(pk=n.pk)
            .order_by("-sent_at")
            .values_list("sent_at", flat=True)
            .first()
        )
        if last is not None and now - last < datetime.timedelta(seconds=window):
            return Pace("hold", last + datetime.timedelta(seconds=window), "mailed moments ago")
    return SEND
