"""Where a game's spectators stand: the seq they see, and since when.

In a public game with `spectator_delay: N` a requester without a seat sees
the game as it stood just before the N-th latest live move (actions and
timeouts; undone moves do not count; seq 1 while there are fewer:
docs/guarantees.md, "Spectator delay").  That point moves only with the
stream: a move brings it forward, an undo puts it back where it stood at the
undo's target, and no other event touches it (a pause, a note, a takeback
request or a resign is no move).  So the append that moves it writes it on
the game row, in the same statement as the event (`store.append`): the seq
(`spectator_seq`) and when its event was appended (`spectator_at`), which is
the game's place in a spectator's list.  Lists then filter, sort and page in
the database for every requester.  Working it out per listed game on each
request instead let one account's hundreds of delayed games slow everyone's
list.

Without a delay the spectators see the head, and the columns follow it.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db.models import OuterRef, Q, Subquery

from games.models import Event, Game
from games.stream import replay, sql

MOVE_KINDS = (Event.Kind.ACTION, Event.Kind.TIMEOUT)
# The events that can move the point: any other leaves the columns alone.
MOVING = frozenset({Event.Kind.CREATED, Event.Kind.UNDO, *MOVE_KINDS})


def columns_after(game: Game, event: Event, expected_seq: int) -> dict[str, Any]:
    """The spectator columns as appending `event` after `expected_seq` leaves
    them (none when it leaves them as they are).  Only reads events up to
    `expected_seq`, which a successful append proves were the stream."""
    delay = game.spectator_delay
    if not delay:
        return {"spectator_seq": event.seq, "spectator_at": event.created_at}
    if event.kind not in MOVING:
        return {}
    seq, at = _point(game, delay, event, expected_seq)
    return {"spectator_seq": seq, "spectator_at": at}


def _point(
    game: Game, delay: int, event: Event, expected_seq: int
) -> tuple[int, datetime.datetime]:
    if event.kind == Event.Kind.CREATED:
        return 1, event.created_at
    if event.kind == Event.Kind.UNDO:
        # The undo's live path is its target's, and an undo is no move.
        target = event.payload["to_seq"]
        return _before_latest(game.pk, _live(game.pk, target), delay)
    # A move: the latest live move is this one, so the point stands before
    # the (delay - 1)-th latest of those already stored.
    if delay == 1:
        return expected_seq, _time_of(game, expected_seq)
    return _before_latest(game.pk, _live(game.pk, expected_seq), delay - 1)


def _live(game_id: int, head: int) -> list[tuple[int, int]]:
    # No ordering: the model's default one would join the game row for nothing.
    rows = Event.objects.filter(game_id=game_id, kind=Event.Kind.UNDO, seq__lte=head).order_by()
    undos = {seq: payload["to_seq"] for seq, payload in rows.values_list("seq", "payload")}
    return replay.live_ranges(head, undos)


def _before_latest(
    game_id: int, ranges: list[tuple[int, int]], nth: int
) -> tuple[int, datetime.datetime]:
    """Just before the `nth` latest live move within `ranges` (seq 1 if there
    are fewer), with its event's time: one query on the (game, seq) key."""
    live = Q()
    for lo, hi in ranges:
        live |= Q(seq__range=(lo, hi))
    before = Event.objects.filter(game_id=game_id, seq=OuterRef("seq") - 1).order_by()
    moves = (
        Event.objects.filter(live, game_id=game_id, kind__in=MOVE_KINDS)
        .order_by("-seq")
        .annotate(before_at=Subquery(before.values("created_at")[:1]))
        .values_list("seq", "before_at")
    )
    found = list(moves[nth - 1 : nth])
    if found:
        seq, at = found[0]
        return seq - 1, at
    return 1, _time_of_seq(game_id, 1)


def _time_of(game: Game, seq: int) -> datetime.datetime:
    """When event `seq` was appended; a move's path read the head event with
    the row (`sql.game`), which spares the query when it is that one."""
    head = sql.head_event(game)
    if head is not None and head.seq == seq:
        return head.created_at
    return _time_of_seq(game.pk, seq)


def _time_of_seq(game_id: int, seq: int) -> datetime.datetime:
    return Event.objects.values_list("created_at", flat=True).get(game_id=game_id, seq=seq)


def walked(events: Iterable[Any], delay: int) -> tuple[int, datetime.datetime]:
    """The point worked out from a whole stream held in memory (objects with
    seq, kind, payload and created_at, in seq order), by walking the live
    path back from the head: an import writes its events this way."""
    stream = {event.seq: event for event in events}
    head = max(stream)
    if not delay:
        return head, stream[head].created_at
    moves, seq = 0, head
    while seq >= 1:
        event = stream[seq]
        if event.kind in MOVE_KINDS:
            moves += 1
            if moves == delay:
                return seq - 1, stream[seq - 1].created_at
        seq = event.payload["to_seq"] if event.kind == Event.Kind.UNDO else seq - 1
    return 1, stream[1].created_at
