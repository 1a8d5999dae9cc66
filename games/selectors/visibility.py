"""What a viewer may see of a game's events.

Players see their own actions whole and other seats' actions in the public
form the engine recorded (a face-down choice without its cards).  The resolved
setup (shuffled orders) is shown to nobody until the game has ended.
Moderators' audits and finished games show everything.  What a viewer is
shown of the hash chain follows the same line (`games.stream.chain`).
"""

from __future__ import annotations

from typing import Any

from games.models import Event
from games.stream import chain
from games.stream.payloads import full_payload, public_payload


def sees_whole(event: Event, viewer_seat: int | None, *, reveal_all: bool) -> bool:
    """Whether the viewer is shown the event's stored payload whole."""
    if reveal_all:
        return True
    return viewer_seat is not None and viewer_seat == event.seat and event.kind != "created"


def payload_for(event: Event, viewer_seat: int | None, *, reveal_all: bool) -> dict[str, Any]:
    if sees_whole(event, viewer_seat, reveal_all=reveal_all):
        return full_payload(event)
    return public_payload(event)


def event_for(
    event: Event, viewer_seat: int | None, *, reveal_all: bool, chain_version: int
) -> dict[str, Any]:
    """One event as the viewer may see it, with what they may check of its hash."""
    whole = sees_whole(event, viewer_seat, reveal_all=reveal_all)
    return {
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "source": event.source,
        "created_at": chain.timestamp(event.created_at),
        "payload": payload_for(event, viewer_seat, reveal_all=reveal_all),
        **chain.shown(event, chain_version, opened=whole, revealed=reveal_all),
    }
