"""Clock benchmark: the sweep and the timeouts as deployed, and what the
players whose clocks ran out wait for.

100 000 active games, of which 500 real two-player Havana games are past
their deadline with both seats to act (a round's face-down choice): 1 000
seats whose clock ran out, each a timeout event; 200 more games have a
reminder due.  The sweep runs as beat
runs it (`games.tasks.sweep_and_queue`): the outage check, the reminders
(each a notification row handed off to the workers, notifications.handoff), the
claim of the due games and the publishing of their timeout tasks to Redis.
Then one Celery worker (one process, as `celery -A config worker -c 1`)
consumes the timeouts; the clock stops when the last due seat has its
timeout event, as its player waits for it.  Mail delivery goes to a queue
of its own that this worker does not consume (NOTIFICATIONS_QUEUE), so the
figure is the timeouts' and not the SMTP relay's.

Prints `clocks.sweep_seconds` (the sweep with its publishes),
`clocks.timeouts_seconds` (the last player's wait for their timeout, from
the end of the sweep), `clocks.timeouts_per_second`, each with the spread over
BENCH_CLOCK_RUNS runs on fresh games.  Needs PostgreSQL and Redis.
"""

from __future__ import annotations

import datetime
import os
import statistics
import sys
import time

import support
from support import deployed_redis, django_setup, emit, throwaway_database

REDIS_DB = 13
MAIL_QUEUE = "bench-clocks-mail"
os.environ["NOTIFICATIONS_QUEUE"] = MAIL_QUEUE
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
django_setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games import tasks  # noqa: E402
from games.jobs import sweep  # noqa: E402
from games.models import Event, Game, Seat  # noqa: E402
from games.services.creation import do_create_game  # noqa: E402

ACTIVE = int(os.environ.get("BENCH_ACTIVE_GAMES", "100000"))
TIMEOUTS = int(os.environ.get("BENCH_DUE_TIMEOUTS", "1000"))
DUE = (TIMEOUTS + 1) // 2  # games: both seats of each are due
REMINDING = int(os.environ.get("BENCH_REMINDERS_DUE", "200"))
RUNS = int(os.environ.get("BENCH_CLOCK_RUNS", "3"))
TARGET_SECONDS = 10  # 1 000 seats' timeouts applied by one worker
CLOCK = {"per_move": "24h", "reminders": ["1h"]}


def create_games(users, count: int, seed: int) -> list[int]:
    return [
        do_create_game(title="havana", players=users, seed=seed + i, clock=CLOCK).pk
        for i in range(count)
    ]


def idle_games(users, count: int, later: datetime.datetime) -> None:
    """Games that are only rows the sweep must look past (never loaded)."""
    clock = {"per_move": 86400, "reminders": [3600], "on_timeout": "auto",
             "max_timeouts": 3, "vacation": True}  # fmt: skip
    games = Game.objects.bulk_create(
        [Game(title="havana", options={}, engine_version=1, seed=i, salt="x", seq=1,
              to_act=[0], clock=clock, deadline=later) for i in range(count)],
        batch_size=5000,
    )  # fmt: skip
    Seat.objects.bulk_create(
        [Seat(game_id=g.pk, index=0, user=users[0], to_act=True, deadline=later,
              next_reminder=later - datetime.timedelta(hours=1)) for g in games],
        batch_size=5000,
    )  # fmt: skip


def make_due(game_ids: list[int], now: datetime.datetime) -> None:
    past = now - datetime.timedelta(minutes=1)
    Game.objects.filter(pk__in=game_ids).update(deadline=past)
    Seat.objects.filter(game_id__in=game_ids, to_act=True).update(deadline=past)


def make_reminding(game_ids: list[int], now: datetime.datetime) -> None:
    """Half an hour left: the one-hour reminder is due."""
    deadline = now + datetime.timedelta(minutes=30)
    Game.objects.filter(pk__in=game_ids).update(deadline=deadline)
    Seat.objects.filter(game_id__in=game_ids, to_act=True).update(
        deadline=deadline, next_reminder=deadline - datetime.timedelta(hours=1), reminded=[]
    )


def wait_for_timeouts(game_ids: list[int], seats: int, limit: float = 600) -> float:
    """Seconds until every due seat of `game_ids` has its timeout event."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        done = Event.objects.filter(game_id__in=game_ids, kind="timeout").count()
        if done >= seats:
            return time.perf_counter() - started
        time.sleep(0.05)
    raise RuntimeError(f"the worker applied {done} of {seats} timeouts in {limit} s")


def one_run(users, run: int) -> tuple[float, float, int]:
    now = timezone.now()
    due = create_games(users, DUE, seed=run * 100000)
    seats = Seat.objects.filter(game_id__in=due, to_act=True).count()
    reminding = create_games(users, REMINDING, seed=run * 100000 + DUE)
    make_due(due, now)
    make_reminding(reminding, now)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    sweep.record_outage(timezone.now())  # beat has been sweeping all along
    started = time.perf_counter()
    summary = tasks.sweep_and_queue(timezone.now())
    swept = time.perf_counter() - started
    if summary["due"] != DUE:
        raise RuntimeError(f"the sweep claimed {summary['due']} games, not {DUE}")
    applied = wait_for_timeouts(due, seats)
    return swept, applied, seats


def main() -> None:
    with throwaway_database(needs_postgresql=True), deployed_redis(REDIS_DB) as redis_url:
        settings.CELERY_BROKER_URL = redis_url
        from config.celery import app

        app.conf.broker_url = redis_url
        app.conf.task_always_eager = False
        users = [User.objects.create(username=f"bench{i}", email=f"bench{i}@bench.invalid")
                 for i in range(2)]  # fmt: skip
        idle_games(
            users, ACTIVE - RUNS * (DUE + REMINDING), timezone.now() + datetime.timedelta(hours=5)
        )
        worker = support.start_worker(redis_url, "celery")
        try:
            results = [one_run(users, run) for run in range(RUNS)]
        finally:
            worker.terminate()
            worker.wait(timeout=30)
        swept = [r[0] for r in results]
        applied = [r[1] for r in results]
        context = {"active_games": ACTIVE, "due_games": DUE, "due_seats": results[0][2],
                   "reminders_due": REMINDING, "runs": RUNS, "database": connection.vendor,
                   "broker": "redis"}  # fmt: skip
        emit("clocks.sweep_seconds", statistics.median(swept), "s",
             spread=[round(s, 3) for s in sorted(swept)], **context)  # fmt: skip
        median = statistics.median(applied)
        emit("clocks.timeouts_seconds", median, "s", target=TARGET_SECONDS,
             met=median < TARGET_SECONDS, spread=[round(a, 2) for a in sorted(applied)],
             worker="1 process", **context)  # fmt: skip
        emit("clocks.timeouts_per_second", results[0][2] / median, "timeouts/s", **context)


if __name__ == "__main__":
    sys.exit(main())
