"""What a viewer may see of a game's events.

Players see their own actions whole and other seats' actions in the public
form the engine recorded (a face-down choice without its cards).  The resolved
setup (shuffled orders) is shown to nobody until the game has ended.
Moderators' audits and finished games show everything.
"""

from __future__ import annotations

from typing import Any

from games.models import Event


def payload_for(event: Event, viewer_seat: int | None, *, reveal_all: bool) -> dict[str, Any]:
    payload = dict(event.payload)
    public = payload.pop("public", None)
    if reveal_all:
        return payload
    if event.kind == Event.Kind.CREATED:
        payload.pop("setup", None)
    elif public is not None and viewer_seat != event.seat:
        payload["action"] = public
    return payload


def event_for(event: Event, viewer_seat: int | None, *, reveal_all: bool) -> dict[str, Any]:
    """One event as the viewer may see it (actor and hashes included)."""
    return {
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "source": event.source,
        "created_at": event.created_at.isoformat(),
        "payload": payload_for(event, viewer_seat, reveal_all=reveal_all),
        "hash": event.hash,
        "prev_hash": event.prev_hash,
    }
