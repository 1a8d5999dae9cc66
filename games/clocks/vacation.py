"""Vacation budgets: how many days a player has taken this year and has left.
Starting a vacation is `games.services.vacation`."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import Vacation


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
