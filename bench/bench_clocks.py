"""Clock benchmark: one sweep over 100 000 active games of which 1 000 are due.

Reports the sweep itself (outage check, reminder scan, claiming the due games
with skip_locked; queueing them is the caller's) and, separately, applying
the 1 000 timeouts in one process.  Throwaway database next to DATABASE_URL's.
"""

from __future__ import annotations

import datetime
import os
import time

from support import django_setup, emit, throwaway_database

django_setup()

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games import sweep, timeouts  # noqa: E402
from games.engines import base  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402
from tests.support.duel import DUEL  # noqa: E402

ACTIVE = int(os.environ.get("BENCH_ACTIVE_GAMES", "100000"))
DUE = int(os.environ.get("BENCH_DUE_GAMES", "1000"))


def populate(users, now) -> None:
    for i in range(DUE):
        do_create_game(title="duel", players=users, seed=i, clock={"per_move": "1h"})
    Game.objects.update(deadline=now - datetime.timedelta(minutes=1))
    Seat.objects.update(deadline=now - datetime.timedelta(minutes=1))
    later = now + datetime.timedelta(hours=5)
    waiting = [
        Game(
            title="duel",
            options={},
            engine_version=1,
            seed=i,
            salt="x",
            seq=1,
            to_act=[0],
            clock={
                "per_move": 86400,
                "reminders": [3600],
                "on_timeout": "auto",
                "max_timeouts": 3,
                "vacation": True,
            },
            deadline=later,
        )
        for i in range(ACTIVE - DUE)
    ]
    Game.objects.bulk_create(waiting, batch_size=5000)
    seats = [
        Seat(
            game_id=g.pk,
            index=0,
            user=users[0],
            to_act=True,
            deadline=later,
            next_reminder=later - datetime.timedelta(hours=1),
        )
        for g in Game.objects.filter(deadline=later).only("pk")
    ]
    Seat.objects.bulk_create(seats, batch_size=5000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def main() -> None:
    base.register(DUEL)
    with throwaway_database():
        users = [User.objects.create(username=f"bench{i}") for i in range(2)]
        now = timezone.now()
        populate(users, now)
        sweep.record_outage(now)  # the sweep has been running all along
        started = time.perf_counter()
        report = sweep.sweep(now + datetime.timedelta(seconds=30))
        elapsed = time.perf_counter() - started
        dispatched = report.claimed
        context = {"active_games": ACTIVE, "due": len(dispatched), "database": connection.vendor}
        emit("clocks.sweep_seconds", elapsed, "s", **context)
        started = time.perf_counter()
        applied = sum(len(timeouts.run_out(g, s, now + datetime.timedelta(seconds=30)))
                      for g, s in dispatched)  # fmt: skip
        elapsed = time.perf_counter() - started
        emit("clocks.timeouts_per_second", applied / elapsed, "timeouts/s", games=len(dispatched),
             database=connection.vendor)  # fmt: skip


if __name__ == "__main__":
    main()
