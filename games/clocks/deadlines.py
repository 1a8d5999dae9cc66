"""Per-seat deadlines, kept in step with every appended event.

Runs as an append listener (inside the event's transaction).  A seat that
comes to act gets `per_move` from now (or from the end of its player's
vacation); a seat that acted and must act again starts afresh; a seat waiting
on others in a simultaneous step keeps its deadline; a seat with nothing to do
has none.  Paused games keep no deadlines, only the time each seat had left.

An upper app may limit the deadlines (`hooks.on_deadline_limit`): every
deadline of the game is then at most that limit, or the event's time if the
limit has passed (a tournament's round deadline, docs/tournaments.md).
"""

from __future__ import annotations

import datetime

from django.db.models import Min

from games import hooks
from games.models import Event, Game, Seat, Vacation

OWN_MOVE_KINDS = ("action", "timeout")


def vacation_end(user_id: int, at: datetime.datetime) -> datetime.datetime | None:
    """When the user's vacation covering `at` ends, if one does."""
    return (
        Vacation.objects.filter(user_id=user_id, starts_at__lte=at, ends_at__gt=at)
        .order_by("-ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )


def fresh_deadline(game: Game, seat: Seat, now: datetime.datetime) -> datetime.datetime:
    start = now
    if game.clock.get("vacation", True):
        start = vacation_end(seat.user_id, now) or now
    return start + datetime.timedelta(seconds=game.clock["per_move"])


def refresh(game: Game, event: Event | None, now: datetime.datetime) -> None:
    """Recompute every seat's deadline after `event` (None: after a resume)."""
    if not game.clock:
        return
    acted = event.seat if event is not None and event.kind in OWN_MOVE_KINDS else None
    running = game.status == Game.Status.ACTIVE and not game.paused
    changed = []
    limit = deadline_limit(game, now)
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        before = (seat.deadline, seat.timeouts, seat.reminded)
        _refresh_seat(game, seat, event, acted, running, now)
        if limit is not None and seat.deadline is not None and seat.deadline > limit:
            seat.deadline = limit
        if (seat.deadline, seat.timeouts, seat.reminded) != before:
            schedule_reminder(game, seat)
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["deadline", "timeouts", "reminded", "next_reminder"])
    # Every seat is in hand: the earliest deadline needs no second query.
    set_game_deadline(game, min((s.deadline for s in seats if s.deadline), default=None))


def deadline_limit(game: Game, now: datetime.datetime) -> datetime.datetime | None:
    """The latest any deadline of the game may be (never before `now`), or
    None when nothing limits it."""
    limits = hooks.deadline_limits(game)
    return max(min(limits), now) if limits else None


def schedule_reminder(game: Game, seat: Seat) -> None:
    """When the seat's next unsent reminder is due (offsets run largest first)."""
    pending = [o for o in game.clock["reminders"] if o not in seat.reminded]
    if seat.deadline is None or not pending:
        seat.next_reminder = None
    else:
        seat.next_reminder = seat.deadline - datetime.timedelta(seconds=pending[0])


def reschedule(game: Game) -> None:
    """After deadlines moved in bulk (extend, resume, vacation)."""
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        schedule_reminder(game, seat)
    Seat.objects.bulk_update(seats, ["next_reminder"])
    sync_game_deadline(game)


def _refresh_seat(game, seat, event, acted, running, now) -> None:
    if event is not None and event.kind == "action" and seat.index == acted:
        seat.timeouts = 0  # the player moved by themselves: the streak is broken
    if not running or seat.index not in game.to_act or seat.status != Seat.Status.ACTIVE:
        seat.deadline, seat.reminded = None, []
    elif seat.deadline is None or seat.index == acted:
        seat.deadline, seat.reminded = fresh_deadline(game, seat, now), []


def sync_game_deadline(game: Game) -> None:
    """Game.deadline is the earliest seat deadline: the sweep's index."""
    set_game_deadline(game, Seat.objects.filter(game=game).aggregate(m=Min("deadline"))["m"])


def set_game_deadline(game: Game, earliest: datetime.datetime | None) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=earliest)
    game.deadline = earliest


def _after_append(game: Game, event: Event, before: list[int]) -> None:
    refresh(game, event, event.created_at)


def _has_clock(game: Game) -> bool:
    return bool(game.clock)


# Only clocked games need the append's transaction for their deadlines.
hooks.on_append(_after_append, only_if=_has_clock)
