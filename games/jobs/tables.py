"""The expiry of waiting tables (celery beat runs it through `games.tasks`).

Each table expires in a transaction of its own, under its row lock, and only
if it is still waiting and still due when locked: a player who takes a seat
at the last moment moves the table's expiry on, and the sweep then leaves it
be.  Tables another transaction holds are skipped (`skip_locked`) and met
again by the next sweep.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Table
from games.services.tables import do_expire_table


def expire(now: datetime.datetime | None = None) -> int:
    """Expire every waiting table due by `now`; returns how many."""
    now = now or timezone.now()
    due = list(
        Table.objects.filter(status=Table.Status.WAITING, expires_at__lte=now)
        .order_by("expires_at")
        .values_list("pk", flat=True)[: settings.CORREO_SWEEP_BATCH]
    )
    expired = 0
    for pk in due:
        with transaction.atomic():
            table = (
                Table.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, status=Table.Status.WAITING, expires_at__lte=now)
                .first()
            )
            if table is not None:
                do_expire_table(table)
                expired += 1
    return expired
