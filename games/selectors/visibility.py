"""What a viewer may see of a game's events.

Players see their own actions whole and other seats' actions in the public
form the engine recorded (a face-down choice without its cards).  The resolved
setup (shuffled orders) is shown to nobody until the game has ended.
Moderators' audits and finished games show everything.  What a viewer is
shown of the hash chain follows the same line (`games.stream.chain`).

Messages follow their own rule (games.selectors.talk): whole to those who
may read them, else an empty payload with neither actor nor opening, at
any time, the game's end included, whatever `reveal_all` says.
"""

from __future__ import annotations

from typing import Any

from games.models import Event
from games.selectors.talk import Reader
from games.stream import chain
from games.stream.payloads import full_payload, public_payload
from games.stream.replay import TALK_KINDS


def sees_whole(
    event: Event, viewer_seat: int | None, *, reveal_all: bool, reader: Reader | None = None
) -> bool:
    """Whether the viewer is shown the event's stored payload whole (a
    message: only with a `reader` that may read it)."""
    if event.kind in TALK_KINDS:
        return reader is not None and reader.reads(event)
    if reveal_all:
        return True
    return viewer_seat is not None and viewer_seat == event.seat and event.kind != "created"


def payload_for(
    event: Event, viewer_seat: int | None, *, reveal_all: bool, reader: Reader | None = None
) -> dict[str, Any]:
    if sees_whole(event, viewer_seat, reveal_all=reveal_all, reader=reader):
        return full_payload(event)
    return public_payload(event)


def event_for(
    event: Event,
    viewer_seat: int | None,
    *,
    reveal_all: bool,
    chain_version: int,
    reader: Reader | None = None,
) -> dict[str, Any]:
    """One event as the viewer may see it, with what they may check of its hash."""
    whole = sees_whole(event, viewer_seat, reveal_all=reveal_all, reader=reader)
    # A version-1 hash covers the whole event: a sealed message's would
    # give its words away to anyone who guesses them.
    revealed = whole if event.kind in TALK_KINDS else reveal_all
    return {
        "seq": event.seq,
        "kind": event.kind,
        "seat": event.seat,
        "source": event.source,
        "created_at": chain.timestamp(event.created_at),
        "payload": payload_for(event, viewer_seat, reveal_all=reveal_all, reader=reader),
        **chain.shown(event, chain_version, opened=whole, revealed=revealed),
    }


def actor_for(event: Event, shown: dict[str, Any]) -> str | None:
    """The username shown as the event's actor: none for a message the
    viewer may not read (its sender is part of what it hides)."""
    if event.kind in TALK_KINDS and "opening" not in shown:
        return None
    return event.actor.username if event.actor else None
