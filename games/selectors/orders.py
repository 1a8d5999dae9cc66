"""A seat's standing orders: the fold over its private record
(games.models.OrderEvent), and what its owner is shown of them.

An order stands from its `written` entry until it is cancelled, or spent:
dropped, lapsed, or fired for the last time.  A spending entry counts only
while the game's seq it names is live (games.stream.replay): an undo or an
approved takeback that rewinds past it restores the order.  A cancel is the
owner's word and stands whatever is undone, as talk does.

Nothing here is read for anyone but the seat's own player and moderators
(the audit): no surface another viewer receives consults this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_noop

from games.engines import orders as programmes
from games.errors import NotFound
from games.models import Event, Game, OrderEvent, Seat
from games.stream import replay, sql, store

SPENDING = frozenset({OrderEvent.Kind.DROPPED, OrderEvent.Kind.LAPSED})
# How many of a seat's latest notes (orders dropped or lapsed) its owner is shown.
NOTES_SHOWN = 10


@dataclass(frozen=True)
class Standing:
    number: int  # the seat's own count: its first order is 1
    seat: int
    order: dict[str, Any]
    actor_id: int | None
    written_at: datetime


def owner_seat(game: Game, user) -> int:
    """The seat `user` holds and plays in `game`, whose orders they may read;
    anyone else is told there is nothing here (404, not 403: whether a seat
    has orders is not theirs to learn)."""
    seat = sql.active_seat(game.pk, user.pk) if user.is_authenticated else None
    if seat is None:
        raise NotFound(gettext_noop("no standing orders of yours here"))
    return seat


def entries(game_id: int, seat: int | None = None) -> list[OrderEvent]:
    rows = OrderEvent.objects.filter(game_id=game_id).order_by("id")
    return list(rows if seat is None else rows.filter(seat=seat))


def has_orders(game: Game) -> bool:
    """Whether anyone ever wrote an order in this game: the committed
    listener asks after every event of a running game, so it is a flag on
    the row (set with the first order; each append reads it back)."""
    return game.orders_written


def standing(game: Game, seat: int | None = None) -> dict[int, list[Standing]]:
    """Each seat's standing orders, oldest first (the order they are tried in)."""
    rows = entries(game.pk, seat)
    if not rows:
        return {}
    ranges = replay.live_ranges(game.seq, store.undo_map(game, game.seq))

    def counts(row: OrderEvent) -> bool:
        return row.at <= game.seq and replay.is_live(row.at, ranges)

    def spends(row: OrderEvent) -> bool:
        if row.kind == OrderEvent.Kind.CANCELLED:
            return True  # the owner's word, whatever is undone later
        if row.kind == OrderEvent.Kind.FIRED and not row.payload.get("done"):
            return False  # a programme that stands for the rest of its round
        return row.kind in SPENDING | {OrderEvent.Kind.FIRED} and counts(row)

    ended = {(row.seat, row.order) for row in rows if spends(row)}
    found: dict[int, list[Standing]] = {}
    for row in rows:
        if row.kind == OrderEvent.Kind.WRITTEN and (row.seat, row.order) not in ended:
            found.setdefault(row.seat, []).append(
                Standing(row.order, row.seat, row.payload["order"], row.actor_id, row.created_at)
            )
    return found


def next_number(game_id: int, seat: int) -> int:
    return (
        1
        + OrderEvent.objects.filter(
            game_id=game_id, seat=seat, kind=OrderEvent.Kind.WRITTEN
        ).count()
    )


def for_owner(game: Game, engine, seat: int) -> dict[str, Any]:
    """What `GET .../orders/` and the page show the seat's player: its
    standing orders in words, and its latest notes.  Only what the seat's
    player now wrote: a seat handed on keeps its old player's orders
    (dropped when the seat next acts) and their notes from the new one."""
    holder = Seat.objects.filter(game=game, index=seat).values_list("user_id", flat=True).first()
    written = OrderEvent.objects.filter(
        game_id=game.pk, seat=seat, kind=OrderEvent.Kind.WRITTEN, actor_id=holder
    ).values("order")
    notes = (
        OrderEvent.objects.filter(game_id=game.pk, seat=seat, kind__in=SPENDING, order__in=written)
        .order_by("-id")
        .values("order", "kind", "payload", "created_at")[:NOTES_SHOWN]
    )
    return {
        "orders": written_by(game, engine, seat, holder),
        "notes": [
            {
                "id": note["order"],
                "kind": note["kind"],
                "reason": note["payload"].get("reason", ""),
                "says": note["payload"].get("says", ""),
                "at": note["created_at"].isoformat(),
            }
            for note in notes
        ],
        "programmes": programme_list(engine),
    }


def written_by(game: Game, engine, seat: int, writer_id: int | None) -> list[dict[str, Any]]:
    """The seat's standing orders that `writer_id` wrote, in words, in the
    order they are tried (what the turn mail lists to its reader)."""
    return [
        {
            "id": item.number,
            "order": item.order,
            "says": programmes.describe(engine, item.order),
            "written_at": item.written_at.isoformat(),
        }
        for item in standing(game, seat).get(seat, [])
        if item.actor_id == writer_id
    ]


def programme_list(engine) -> list[dict[str, Any]]:
    """The kinds of order the title offers, with their fields (no database read)."""
    return [
        {
            "kind": p.kind,
            "summary": p.summary,
            "fields": dict(p.fields),
            "required": list(p.required),
        }
        for p in programmes.programmes(engine).values()
    ]


def stands(game: Game, seat: int, number: int) -> bool:
    """Whether the seat's order `number` still stands: not once it fired or
    was dropped at the moment it was written (it was the seat's turn)."""
    return any(item.number == number for item in standing(game, seat).get(seat, []))


# What became of an order just written (`became_of`).
STANDING, PLAYED, DROPPED = "standing", "played", "dropped"
PLAYED_AND_STANDING = "played_and_standing"


def became_of(game: Game, seat: int, number: int, before: int) -> str:
    """What became of the seat's order `number`, written when the game stood
    at seq `before`: on the seat's own turn it is tried at once, and may have
    been played (and stand on, if it is for every turn) or dropped.  Every
    door that writes orders tells its writer this, in its own words."""
    played = Event.objects.filter(
        game=game, seq__gt=before, seat=seat, source=Event.Source.ORDER
    ).exists()
    standing_now = stands(game, seat, number)
    if played:
        return PLAYED_AND_STANDING if standing_now else PLAYED
    return STANDING if standing_now else DROPPED


def audit(game: Game) -> list[dict[str, Any]]:
    """Every entry of every seat, for moderators (the audit)."""
    return [
        {
            "id": row.pk, "seat": row.seat, "kind": row.kind, "order": row.order,
            "actor": row.actor_id, "at": row.at, "payload": row.payload,
            "created_at": row.created_at.isoformat(),
        }
        for row in entries(game.pk)
    ]  # fmt: skip
