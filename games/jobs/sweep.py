"""The deadline sweep (celery beat runs it every minute through
`games.tasks`; `manage.py sweep_deadlines` runs it by hand).

Order matters: first repair outages (a sweep that has not run for a while
means the server or the workers were down, and no player may lose on time
for that) and finish vacations that a request left half announced, then
send due reminders, then claim due games.  The sweep knows nothing of
Celery: it returns the games it claimed with the seq it saw, and its caller
queues them once the claim has committed.

An outage is recorded in the same transaction that moves `last_run`, so the
sweep's memory of when it last ran and the repair it owes never disagree:
if the process dies before that commit, the next sweep measures the same
silence again (and longer); if it dies after, the outage is there, not yet
repaired, and the next sweep resumes it.  The repair is one short
transaction per game, and a game whose stream already holds that outage's
event is skipped, so a resumed repair never extends a game twice.  Until an
outage is repaired in every game the sweep claims no timeouts of the games
it could not repair, and none at all while another sweep holds the repair.
"""

from __future__ import annotations

import datetime
import logging
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import hooks
from games.clocks import deadlines
from games.errors import StaleSeq
from games.models import Game, Outage, Seat, SweepState, Vacation
from games.services import clocks
from games.services.vacation import do_announce_vacation

log = logging.getLogger(__name__)

# A sweep repairing an outage holds it this long at a time (real time), and
# renews the hold well before it runs out; a dead sweep's hold lapses.
OUTAGE_HOLD = datetime.timedelta(minutes=5)


@dataclass
class Report:
    """What one sweep did; `claimed` are (game id, seq) to time out."""

    now: datetime.datetime
    outage_seconds: int = 0
    reminders: int = 0
    claimed: list[tuple[int, int]] = field(default_factory=list)
    # Games left with an outage or a vacation not yet applied (retried next time).
    unrepaired: list[int] = field(default_factory=list)
    # Another sweep is repairing an outage: this one claimed nothing.
    waited: bool = False

    def summary(self) -> dict[str, int]:
        return {
            "outage_seconds": self.outage_seconds,
            "reminders": self.reminders,
            "due": len(self.claimed),
            "unrepaired": len(self.unrepaired),
            "waited": int(self.waited),
        }


def sweep(now: datetime.datetime | None = None) -> Report:
    report = Report(now or timezone.now())
    report.outage_seconds = int(record_outage(report.now).total_seconds())
    unrepaired = repair_outages()
    if unrepaired is None:
        report.waited = True
        return report
    report.unrepaired = unrepaired + finish_vacations(report.now)
    report.reminders = send_reminders(report.now, excluding=report.unrepaired)
    report.claimed = claim_due(report.now, excluding=report.unrepaired)
    return report


def record_outage(now: datetime.datetime) -> datetime.timedelta:
    """Move `last_run` to `now`; a silence since the last run longer than the
    outage threshold is recorded as an outage to repair, in the same commit."""
    with transaction.atomic():
        state, created = SweepState.objects.select_for_update().get_or_create(
            name="deadlines", defaults={"last_run": now}
        )
        gap = now - state.last_run
        started = state.last_run
        state.last_run = max(now, state.last_run)
        state.save(update_fields=["last_run"])
        if created or gap.total_seconds() <= settings.CORREO_OUTAGE_AFTER_SECONDS:
            return datetime.timedelta(0)
        Outage.objects.create(started_at=started, ended_at=now)
    log.warning("deadline sweep was silent for %s: deadlines are extended", gap)
    return gap


def repair_outages() -> list[int] | None:
    """Repair every outage not yet repaired, oldest first.  Returns the games
    that could not be repaired this time, or None when another sweep holds
    an outage's repair (the games it has not reached yet must not time out)."""
    unrepaired: list[int] = []
    for outage in Outage.objects.filter(repaired_at__isnull=True).order_by("started_at"):
        if not _hold(outage):
            return None
        left: list[int] | None = None  # stays None if the repair raises
        try:
            left = _repair_games(outage)
        finally:
            done = {"repaired_at": timezone.now()} if left == [] else {}
            Outage.objects.filter(pk=outage.pk).update(held_until=None, **done)
        unrepaired += left
    return unrepaired


def _hold(outage: Outage) -> bool:
    now = timezone.now()
    free = Q(held_until__isnull=True) | Q(held_until__lt=now)
    return Outage.objects.filter(free, pk=outage.pk).update(held_until=now + OUTAGE_HOLD) == 1


def _repair_games(outage: Outage) -> list[int]:
    """Each game that had a running clock then, in a transaction of its own."""
    running = Game.objects.filter(
        status=Game.Status.ACTIVE,
        paused=False,
        deadline__isnull=False,
        created_at__lte=outage.ended_at,
    )
    left = []
    renewed = time.monotonic()
    for game_id in running.order_by("pk").values_list("pk", flat=True):
        try:
            clocks.do_repair_outage(game_id, outage)
        except StaleSeq:
            log.warning("outage %s: game %s kept moving; repaired on the next sweep", outage.pk,
                        game_id)  # fmt: skip
            left.append(game_id)
        if time.monotonic() - renewed > OUTAGE_HOLD.total_seconds() / 3:
            renewed = time.monotonic()
            Outage.objects.filter(pk=outage.pk).update(held_until=timezone.now() + OUTAGE_HOLD)
    return left


def finish_vacations(now: datetime.datetime) -> list[int]:
    """Tell the games a vacation request left untold (it died, or a game kept
    moving); returns the games still untold.  A vacation that is over by now
    is let go: stopping a clock for it now would give time it was not owed."""
    left: list[int] = []
    for vacation in Vacation.objects.filter(announced_at__isnull=True).order_by("pk"):
        if vacation.ends_at <= now:
            log.warning("vacation %s ended before every game was told of it", vacation.pk)
            Vacation.objects.filter(pk=vacation.pk).update(announced_at=timezone.now())
            continue
        left += do_announce_vacation(vacation)
    return left


def send_reminders(now: datetime.datetime, *, excluding: list[int] = ()) -> int:
    """Announce every reminder that has come due, once per seat and deadline."""
    sent = 0
    due = Seat.objects.filter(next_reminder__lte=now, deadline__gt=now)
    if excluding:
        due = due.exclude(game_id__in=excluding)
    for seat in due.select_related("game").iterator():
        with transaction.atomic():
            locked = Seat.objects.select_for_update().select_related("game").get(pk=seat.pk)
            game = locked.game
            pending = [o for o in game.clock["reminders"] if o not in locked.reminded]
            if locked.next_reminder is None or locked.next_reminder > now or not pending:
                continue
            # Offsets already passed together are one reminder: the nearest.
            passed = [o for o in pending if locked.deadline - datetime.timedelta(seconds=o) <= now]
            if not passed:  # a stale schedule (the deadline moved): set it right, send nothing
                deadlines.schedule_reminder(game, locked)
                locked.save(update_fields=["next_reminder"])
                continue
            locked.reminded = [*locked.reminded, *passed]
            deadlines.schedule_reminder(game, locked)
            locked.save(update_fields=["reminded", "next_reminder"])
            hooks.reminder_due(game, locked, min(passed))
            sent += 1
    return sent


def claim_due(now: datetime.datetime, *, excluding: list[int] = ()) -> list[tuple[int, int]]:
    """Claim due games, skipping rows another sweeper or a timeout holds;
    returns each with the seq the sweep saw."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, paused=False, deadline__lte=now)
    if excluding:
        due = due.exclude(pk__in=excluding)
    with transaction.atomic():
        claimed = due.select_for_update(skip_locked=True).order_by("deadline")
        return list(claimed.values_list("pk", "seq")[: settings.CORREO_SWEEP_BATCH])
