"""The moderators' queue as its readers see it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from games.errors import Forbidden

QUEUE_LIMIT = 500


def moderation_queue(user, state: str | None = None) -> list[dict[str, Any]]:
    """The moderators' queue (one state, or all), oldest first: at most
    QUEUE_LIMIT items, the ones waiting longest."""
    from games.models import ModerationItem

    if not getattr(user, "is_moderator", False):
        raise Forbidden(gettext_noop("only moderators can do this"))
    items = ModerationItem.objects.select_related("game", "reported_by", "taken_by", "closed_by")
    if state is not None:
        items = items.filter(state=state)
    return [queue_item(item) for item in items.order_by("created_at", "id")[:QUEUE_LIMIT]]


def queue_item(item) -> dict[str, Any]:
    def name(user) -> str | None:
        return user.username if user is not None else None

    def when(moment) -> str | None:
        return moment.isoformat() if moment is not None else None

    return {
        "id": item.pk, "kind": item.kind, "game": item.game_id, "title": item.game.title,
        "state": item.state, "reason": item.reason, "reported_by": name(item.reported_by),
        "created_at": when(item.created_at), "taken_by": name(item.taken_by),
        "taken_at": when(item.taken_at), "closed_by": name(item.closed_by),
        "closed_at": when(item.closed_at), "note": item.note, "message_seq": item.message_seq,
    }  # fmt: skip
