"""Vacation: a yearly budget of days in which a player's clocks stand still in
every game they play (games may opt out with clock.vacation = false)."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import clock_control, deadlines
from games.errors import InvalidRequest
from games.models import Event, Game, Seat, Vacation


def used_days(user, year: int) -> float:
    """Days of vacation taken (or booked) starting in `year`."""
    taken = Vacation.objects.filter(user=user, starts_at__year=year)
    return sum((v.ends_at - v.starts_at).total_seconds() for v in taken) / 86400


def budget(user, now: datetime.datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    allowed = settings.CORREO_VACATION_DAYS_PER_YEAR
    used = used_days(user, now.year)
    current = Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()
    return {
        "year": now.year,
        "days_per_year": allowed,
        "used": round(used, 3),
        "left": round(allowed - used, 3),
        "minimum_days": settings.CORREO_VACATION_MIN_DAYS,
        "away_until": current.ends_at.isoformat() if current else None,
    }


def start(user, *, days: int, now: datetime.datetime | None = None) -> Vacation:
    """Begin a vacation now: every running clock of the player stops for `days`."""
    now = now or timezone.now()
    if type(days) is not int or days < settings.CORREO_VACATION_MIN_DAYS:
        raise InvalidRequest(
            f"a vacation lasts at least {settings.CORREO_VACATION_MIN_DAYS} day(s)"
        )
    if used_days(user, now.year) + days > settings.CORREO_VACATION_DAYS_PER_YEAR:
        raise InvalidRequest(
            f"not enough vacation left this year ({budget(user, now)['left']} days)"
        )
    if deadlines.vacation_end(user.pk, now):
        raise InvalidRequest("you are already on vacation")
    length = datetime.timedelta(days=days)
    with transaction.atomic():
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=now + length)
        for seat in _clocked_seats(user):
            _announce(seat, vacation, length)
    return vacation


def _clocked_seats(user):
    return Seat.objects.filter(
        user=user, status=Seat.Status.ACTIVE, game__status=Game.Status.ACTIVE
    ).select_related("game")


def _announce(seat: Seat, vacation: Vacation, length: datetime.timedelta) -> None:
    """The notice to the other players, and this seat's clock stopped."""
    game = seat.game
    if not game.clock or not game.clock.get("vacation", True):
        return
    clock_control.append_clock(game, seat.user, Event.Source.API, {
        "clock": "vacation", "seat": seat.index, "until": vacation.ends_at.isoformat(),
        "reason": f"seat {seat.index} is on vacation",
    })  # fmt: skip
    Seat.objects.filter(pk=seat.pk, deadline__isnull=False).update(
        deadline=F("deadline") + length, reminded=[]
    )
    deadlines.reschedule(game)
