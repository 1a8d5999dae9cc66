"""The deadline sweep (celery beat calls it every minute; `manage.py
sweep_deadlines` runs it by hand).

Order matters: first repair an outage (a sweep that has not run for a while
means the server or the workers were down, and no player may lose on time
for that), then send due reminders, then claim due games and hand each to a
timeout task with the seq the sweep saw.
"""

from __future__ import annotations

import datetime
import logging
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import clock_control, deadlines, hooks
from games.models import Event, Game, Seat, SweepState

log = logging.getLogger(__name__)


def sweep(now: datetime.datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    gap = repair_outage(now)
    reminders = send_reminders(now)
    due = claim_due(now)
    return {"outage_seconds": int(gap.total_seconds()), "reminders": reminders, "due": due}


def repair_outage(now: datetime.datetime) -> datetime.timedelta:
    """Extend every running deadline by the silence since the last sweep, if
    that silence was longer than the outage threshold; record it per game."""
    with transaction.atomic():
        state, created = SweepState.objects.select_for_update().get_or_create(
            name="deadlines", defaults={"last_run": now}
        )
        gap = now - state.last_run
        state.last_run = max(now, state.last_run)
        state.save(update_fields=["last_run"])
        if created or gap.total_seconds() <= settings.CORREO_OUTAGE_AFTER_SECONDS:
            return datetime.timedelta(0)
        reason = f"no sweep from {(now - gap).isoformat()} to {now.isoformat()}: server outage"
        running = Game.objects.filter(
            status=Game.Status.ACTIVE, paused=False, deadline__isnull=False
        )
        for game in running.iterator():
            clock_control.append_clock(game, None, Event.Source.SYSTEM, {
                "clock": "outage", "seconds": int(gap.total_seconds()), "reason": reason,
            })  # fmt: skip
        Seat.objects.filter(game__in=running, deadline__isnull=False).update(
            deadline=F("deadline") + gap, next_reminder=F("next_reminder") + gap
        )
        running.update(deadline=F("deadline") + gap)
    log.warning("deadline sweep was silent for %s: deadlines extended", gap)
    return gap


def send_reminders(now: datetime.datetime) -> int:
    """Announce every reminder that has come due, once per seat and deadline."""
    sent = 0
    due = Seat.objects.filter(next_reminder__lte=now, deadline__gt=now).select_related("game")
    for seat in due.iterator():
        with transaction.atomic():
            locked = Seat.objects.select_for_update().select_related("game").get(pk=seat.pk)
            game = locked.game
            pending = [o for o in game.clock["reminders"] if o not in locked.reminded]
            if locked.next_reminder is None or locked.next_reminder > now or not pending:
                continue
            # Offsets already passed together are one reminder: the nearest.
            passed = [o for o in pending if locked.deadline - datetime.timedelta(seconds=o) <= now]
            locked.reminded = [*locked.reminded, *passed]
            deadlines.schedule_reminder(game, locked)
            locked.save(update_fields=["reminded", "next_reminder"])
            hooks.reminder_due(game, locked, min(passed))
            sent += 1
    return sent


def claim_due(now: datetime.datetime) -> int:
    """Claim due games (skipping rows another sweeper holds) and dispatch them."""
    from games import tasks

    with transaction.atomic():
        due = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(status=Game.Status.ACTIVE, paused=False, deadline__lte=now)
            .order_by("deadline")
            .values_list("pk", "seq")[: settings.CORREO_SWEEP_BATCH]
        )
        claimed = list(due)
        for game_id, seq in claimed:
            transaction.on_commit(partial(tasks.dispatch_timeout, game_id, seq, now))
    return len(claimed)
